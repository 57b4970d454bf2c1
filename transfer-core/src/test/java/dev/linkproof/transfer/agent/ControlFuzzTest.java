package dev.linkproof.transfer.agent;

import static org.assertj.core.api.Assertions.assertThat;

import dev.linkproof.transfer.Op;
import dev.linkproof.transfer.TransferSpec;
import dev.linkproof.transfer.control.Frame;
import dev.linkproof.transfer.control.JsonMutator;
import dev.linkproof.transfer.control.MessageType;
import dev.linkproof.transfer.control.Messages;
import dev.linkproof.transfer.session.Session;
import dev.linkproof.transfer.session.Timeouts;
import dev.linkproof.transfer.spi.IoSettings;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * Malformed control requests, generated ({@link JsonMutator}) from a valid body of every
 * authenticated request type. Whatever comes, the agent answers within
 * the deadline — the request's normal reply or an ERROR with a code and a message — keeps the
 * connection, and afterwards still runs a validated point. Seeded, so a failure replays.
 */
@Timeout(120)
class ControlFuzzTest {
    private static final String TOKEN = "0123456789abcdef-fuzz-token";
    private static final Timeouts TIMEOUTS = new Timeouts(
            Duration.ofSeconds(10),
            Duration.ofSeconds(10),
            new IoSettings(Duration.ofSeconds(5), Duration.ofSeconds(5)));
    private static final long SEED = 20261204L;
    private static final int CASES = 600;

    @RegisterExtension
    static final InProcessAgent AGENT = new InProcessAgent(TOKEN);

    private record Request(MessageType type, MessageType reply, byte[] body) {}

    /** One valid body per authenticated request type, for the point the session has prepared. */
    private static List<Request> templates(String pointId, TransferSpec spec) {
        return List.of(
                new Request(MessageType.PREPARE, MessageType.PREPARED, Messages.encode(new Messages.Prepare(spec))),
                new Request(
                        MessageType.CONNECT,
                        MessageType.CONNECTED,
                        Messages.encode(new Messages.Connect(pointId, Map.of()))),
                new Request(MessageType.FILL, MessageType.CHECKSUMS, Messages.encode(new Messages.Fill(pointId, 1))),
                new Request(
                        MessageType.CHECKSUM,
                        MessageType.CHECKSUMS,
                        Messages.encode(new Messages.Checksum(pointId, 0))),
                new Request(
                        MessageType.LOCATE,
                        MessageType.LOCATED,
                        Messages.encode(new Messages.Locate(pointId, 0, 1, 1))),
                new Request(
                        MessageType.RELEASE,
                        MessageType.RELEASED,
                        Messages.encode(new Messages.Release(pointId + "-other"))),
                new Request(MessageType.PING, MessageType.PONG, Messages.encode(new Messages.Ping(7))),
                new Request(
                        MessageType.LOAD,
                        MessageType.LOADED,
                        Messages.encode(new Messages.Load(Messages.Load.MIN_WINDOW_MILLIS))),
                // A drive toward port 1, where nothing listens: a mutation the agent accepts fails at once, and is
                // told.
                new Request(
                        MessageType.DRIVE,
                        MessageType.DRIVE_STATE,
                        Messages.encode(new Messages.Drive("fuzz-drive", spec, "127.0.0.1", 1, TOKEN, false, 2000))),
                new Request(
                        MessageType.GO, MessageType.DRIVE_STATE, Messages.encode(new Messages.Go("fuzz-drive", false))),
                new Request(
                        MessageType.POLL,
                        MessageType.DRIVE_STATE,
                        Messages.encode(new Messages.Poll("fuzz-drive", "ARMED"))));
    }

    @Test
    void everyMalformedRequestIsAnsweredAndTheAgentKeepsServing() throws Exception {
        Random random = new Random(SEED);
        TransferSpec spec = TransferSpec.builder()
                .pointId("fuzz#base")
                .op(Op.WRITE)
                .size(4096)
                .batch(2)
                .iterations(3)
                .warmup(1)
                .build();
        List<String> answered = new ArrayList<>();
        try (Session session = Session.open("127.0.0.1", AGENT.port(), TOKEN, TIMEOUTS)) {
            // A prepared point, so requests naming it reach the handlers behind the point lookup.
            session.control()
                    .call(
                            MessageType.PREPARE,
                            new Messages.Prepare(spec),
                            MessageType.PREPARED,
                            Messages.Prepared.class,
                            Duration.ofSeconds(10));
            List<Request> templates = templates(spec.pointId(), spec);
            for (int i = 0; i < CASES; i++) {
                Request t = templates.get(random.nextInt(templates.size()));
                JsonMutator.Mutation m = JsonMutator.mutate(t.body(), random);
                String what = "case " + i + " (seed " + SEED + "): " + t.type() + " with " + m.description();
                session.control().writeRaw(RawFrames.frame(t.type(), m.body()));
                Frame reply = session.control().readRaw(Duration.ofSeconds(15));
                assertThat(reply)
                        .as(what + ": the agent closed the connection instead of answering")
                        .isNotNull();
                if (reply.type() == MessageType.ERROR) {
                    Messages.Error e = Messages.decode(reply, Messages.Error.class);
                    assertThat(e.code()).as(what).isNotBlank();
                    assertThat(e.message())
                            .as(what)
                            .isNotBlank()
                            // the cause in words, not a JVM exception's text leaking through
                            .doesNotContain("Cannot invoke", "NullPointerException", "is null");
                    answered.add(e.code());
                } else {
                    assertThat(reply.type()).as(what).isEqualTo(t.reply());
                    answered.add("ok");
                    if (t.type() == MessageType.PREPARE) {
                        // A mutated spec that is still valid holds a slot: give it back so the next cases have room.
                        Messages.Prepared p = Messages.decode(reply, Messages.Prepared.class);
                        if (!p.pointId().equals(spec.pointId())) {
                            session.control()
                                    .call(
                                            MessageType.RELEASE,
                                            new Messages.Release(p.pointId()),
                                            MessageType.RELEASED,
                                            Messages.Released.class,
                                            Duration.ofSeconds(10));
                        }
                    }
                }
            }
            // The same connection still serves, and a whole validated point runs on it.
            assertThat(session.control()
                            .call(
                                    MessageType.PING,
                                    new Messages.Ping(99),
                                    MessageType.PONG,
                                    Messages.Pong.class,
                                    Duration.ofSeconds(5))
                            .nonce())
                    .isEqualTo(99);
            session.control()
                    .call(
                            MessageType.RELEASE,
                            new Messages.Release(spec.pointId()),
                            MessageType.RELEASED,
                            Messages.Released.class,
                            Duration.ofSeconds(10));
            assertThat(session.run(TransferSpec.builder()
                                    .pointId("fuzz#after")
                                    .op(Op.READ)
                                    .size(10_000)
                                    .batch(3)
                                    .iterations(3)
                                    .warmup(1)
                                    .build())
                            .isValid())
                    .isTrue();
        }
        // The generator reaches both sides: requests refused, and mutations the agent accepts.
        assertThat(answered).contains("ok").anyMatch(c -> !c.equals("ok"));
    }
}
