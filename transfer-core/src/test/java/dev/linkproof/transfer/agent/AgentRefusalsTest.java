package dev.linkproof.transfer.agent;

import static dev.linkproof.transfer.agent.AgentSessionTest.spec;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import dev.linkproof.transfer.Op;
import dev.linkproof.transfer.TransferSpec;
import dev.linkproof.transfer.control.ControlChannel;
import dev.linkproof.transfer.control.Frame;
import dev.linkproof.transfer.control.FrameCodec;
import dev.linkproof.transfer.control.MessageType;
import dev.linkproof.transfer.control.Messages;
import dev.linkproof.transfer.control.RemoteErrorException;
import dev.linkproof.transfer.session.Session;
import dev.linkproof.transfer.session.Timeouts;
import dev.linkproof.transfer.spi.IoSettings;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * What an agent in this JVM refuses, over real loopback sockets, each refusal naming its cause: a
 * wrong or short token, requests before HELLO, out-of-range values, bad frames, unknown or too many
 * points; and that the agent, and the session where it survives, go on serving after.
 */
@Timeout(60)
class AgentRefusalsTest {
    private static final String TOKEN = AgentSessionTest.TOKEN;
    private static final Timeouts TIMEOUTS = AgentSessionTest.TIMEOUTS;

    @RegisterExtension
    static final InProcessAgent AGENT = new InProcessAgent(TOKEN);

    private Session session;

    @BeforeEach
    void open() throws Exception {
        session = Session.open("127.0.0.1", AGENT.port(), TOKEN, TIMEOUTS);
    }

    @AfterEach
    void close() {
        session.close();
    }

    @ParameterizedTest
    @ValueSource(longs = {0, -5, Messages.Hello.MAX_PROGRESS_TIMEOUT_MILLIS + 1})
    void anOutOfRangeProgressDeadlineIsRefusedByName(long millis) throws Exception {
        try (ControlChannel raw = ControlChannel.connect("127.0.0.1", AGENT.port(), Duration.ofSeconds(5))) {
            RemoteErrorException e = catchThrowableOfType(
                    RemoteErrorException.class,
                    () -> raw.call(
                            MessageType.HELLO,
                            new Messages.Hello(TOKEN, FrameCodec.VERSION, "test", millis),
                            MessageType.WELCOME,
                            Messages.Welcome.class,
                            Duration.ofSeconds(5)));
            assertThat(e.code()).isEqualTo("out-of-range");
            assertThat(e.getMessage()).contains("progress timeout " + millis + " ms is outside 1..3600000 ms");
        }
    }

    @Test
    void aLoadWindowOutOfRangeIsRefusedNamingIt() throws Exception {
        session.control()
                .writeRaw(RawFrames.frame(
                        FrameCodec.MAGIC,
                        FrameCodec.VERSION,
                        MessageType.LOAD.code,
                        "{\"windowMillis\":60000}".getBytes(StandardCharsets.UTF_8)));
        Messages.Error e = Messages.decode(session.control().readRaw(Duration.ofSeconds(5)), Messages.Error.class);
        assertThat(e.code()).isEqualTo("bad-request");
        assertThat(e.message()).isEqualTo("malformed LOAD body: windowMillis 60000 is outside 100..2000");
    }

    @Test
    void aWrongTokenIsRefusedClearly() {
        RemoteErrorException e = catchThrowableOfType(
                RemoteErrorException.class,
                () -> Session.open("127.0.0.1", AGENT.port(), "not-the-right-token-at-all", TIMEOUTS));
        assertThat(e.code()).isEqualTo("bad-token");
        assertThat(e.getMessage())
                .isEqualTo("the target agent at 127.0.0.1:" + AGENT.port() + " refused: wrong session "
                        + "token (give the token that agent was started with, or the one it printed)");
    }

    @Test
    void aShortTokenIsRefusedAtStart() {
        assertThatThrownBy(() -> AgentServer.start("127.0.0.1", 0, "short", IoSettings.DEFAULT))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("16 characters");
    }

    @Test
    void requestsBeforeHelloAreRefused() throws Exception {
        try (ControlChannel raw = ControlChannel.connect("127.0.0.1", AGENT.port(), Duration.ofSeconds(5))) {
            RemoteErrorException e = catchThrowableOfType(
                    RemoteErrorException.class,
                    () -> raw.call(
                            MessageType.PING,
                            new Messages.Ping(1),
                            MessageType.PONG,
                            Messages.Pong.class,
                            Duration.ofSeconds(5)));
            assertThat(e.code()).isEqualTo("unauthenticated");
            assertThat(e.getMessage()).contains("HELLO");
        }
    }

    @Test
    void aRefusedPrepareLeavesTheSessionUsable() throws Exception {
        TransferSpec send = spec("refused").op(Op.SEND).build();
        RemoteErrorException e = catchThrowableOfType(
                RemoteErrorException.class,
                () -> session.control()
                        .call(
                                MessageType.PREPARE,
                                new Messages.Prepare(send),
                                MessageType.PREPARED,
                                Messages.Prepared.class,
                                Duration.ofSeconds(5)));
        assertThat(e.code()).isEqualTo("unavailable");
        assertThat(e.getMessage()).contains("send");
        RemoteErrorException unknown = catchThrowableOfType(
                RemoteErrorException.class,
                () -> session.control()
                        .call(
                                MessageType.PREPARE,
                                new Messages.Prepare(send.withTransport("warp")),
                                MessageType.PREPARED,
                                Messages.Prepared.class,
                                Duration.ofSeconds(5)));
        assertThat(unknown.code()).isEqualTo("unknown-transport");
        assertThat(unknown.getMessage()).contains("'warp'");
        assertThat(session.usable()).isTrue();
        assertThat(session.run(spec("after-refusal").size(100).build()).isValid())
                .isTrue();
    }

    @Test
    void requestsForUnknownPointsAreRefused() {
        RemoteErrorException e = catchThrowableOfType(
                RemoteErrorException.class,
                () -> session.control()
                        .call(
                                MessageType.CHECKSUM,
                                new Messages.Checksum("never-prepared"),
                                MessageType.CHECKSUMS,
                                Messages.Checksums.class,
                                Duration.ofSeconds(5)));
        assertThat(e.code()).isEqualTo("unknown-point");
        assertThat(e.getMessage()).contains("never-prepared");
        assertThat(session.usable()).isTrue();
    }

    @Test
    void aNonFatalBadFrameIsAnsweredAndTheConnectionKeepsServing() throws Exception {
        byte[] body = "{\"nonce\":5}".getBytes(StandardCharsets.UTF_8);
        session.control().writeRaw(RawFrames.frame(FrameCodec.MAGIC, 9, MessageType.PING.code, body));
        Frame reply = session.control().readRaw(Duration.ofSeconds(5));
        assertThat(reply.type()).isEqualTo(MessageType.ERROR);
        assertThat(Messages.decode(reply, Messages.Error.class).code()).isEqualTo("bad-version");

        session.control().writeRaw(RawFrames.frame(FrameCodec.MAGIC, FrameCodec.VERSION, 4242, body));
        Frame unknownType = session.control().readRaw(Duration.ofSeconds(5));
        assertThat(Messages.decode(unknownType, Messages.Error.class).code()).isEqualTo("bad-type");

        session.control()
                .writeRaw(RawFrames.frame(
                        FrameCodec.MAGIC,
                        FrameCodec.VERSION,
                        MessageType.PREPARE.code,
                        "{\"spec\":{\"size\":0}}".getBytes(StandardCharsets.UTF_8)));
        Frame badBody = session.control().readRaw(Duration.ofSeconds(5));
        assertThat(badBody.type()).isEqualTo(MessageType.ERROR);

        Messages.Pong pong = session.control()
                .call(
                        MessageType.PING,
                        new Messages.Ping(77),
                        MessageType.PONG,
                        Messages.Pong.class,
                        Duration.ofSeconds(5));
        assertThat(pong.nonce()).isEqualTo(77);
        assertThat(session.run(spec("after-bad-frames").size(100).build()).isValid())
                .isTrue();
    }

    @Test
    void aSpecWithAnOutOfRangeFieldIsRefusedNamingIt() throws Exception {
        String json = new String(
                        Messages.encode(
                                new Messages.Prepare(spec("range").size(4096).build())),
                        StandardCharsets.UTF_8)
                .replace("\"size\":4096", "\"size\":0");
        session.control()
                .writeRaw(RawFrames.frame(
                        FrameCodec.MAGIC,
                        FrameCodec.VERSION,
                        MessageType.PREPARE.code,
                        json.getBytes(StandardCharsets.UTF_8)));
        Messages.Error e = Messages.decode(session.control().readRaw(Duration.ofSeconds(5)), Messages.Error.class);
        assertThat(e.code()).isEqualTo("bad-request");
        assertThat(e.message()).contains("size 0 out of range");
    }

    @Test
    void badMagicIsAnsweredAndTheConnectionClosed() throws Exception {
        session.control().writeRaw("GET / HTTP/1.1\r\n\r\n".getBytes(StandardCharsets.US_ASCII));
        Frame reply = session.control().readRaw(Duration.ofSeconds(5));
        assertThat(reply.type()).isEqualTo(MessageType.ERROR);
        assertThat(Messages.decode(reply, Messages.Error.class).code()).isEqualTo("bad-magic");
        assertThat(session.control().readRaw(Duration.ofSeconds(5)))
                .as("the agent closed the connection")
                .isNull();
        // the agent itself keeps accepting
        try (Session fresh = Session.open("127.0.0.1", AGENT.port(), TOKEN, TIMEOUTS)) {
            assertThat(fresh.run(spec("after-bad-magic").size(100).build()).isValid())
                    .isTrue();
        }
    }

    @Test
    void aSessionHoldsAtMostFourPointsAndRefusesDuplicates() throws Exception {
        ControlChannel c = session.control();
        Duration t = Duration.ofSeconds(5);
        for (int i = 0; i < AgentConnection.MAX_POINTS; i++) {
            Messages.Prepared p = c.call(
                    MessageType.PREPARE,
                    new Messages.Prepare(spec("held" + i).size(100).build()),
                    MessageType.PREPARED,
                    Messages.Prepared.class,
                    t);
            assertThat(p.regionBytes()).isEqualTo(100);
            assertThat(p.endpoint()).containsKeys("tcp.port", "tcp.key");
        }
        RemoteErrorException dup = catchThrowableOfType(
                RemoteErrorException.class,
                () -> c.call(
                        MessageType.PREPARE,
                        new Messages.Prepare(spec("held0").size(100).build()),
                        MessageType.PREPARED,
                        Messages.Prepared.class,
                        t));
        assertThat(dup.code()).isEqualTo("duplicate-point");
        RemoteErrorException full = catchThrowableOfType(
                RemoteErrorException.class,
                () -> c.call(
                        MessageType.PREPARE,
                        new Messages.Prepare(spec("one-too-many").size(100).build()),
                        MessageType.PREPARED,
                        Messages.Prepared.class,
                        t));
        assertThat(full.code()).isEqualTo("too-many-points");
        for (int i = 0; i < AgentConnection.MAX_POINTS; i++) {
            String id = "AgentSessionTest#held" + i;
            assertThat(c.call(
                                    MessageType.RELEASE,
                                    new Messages.Release(id),
                                    MessageType.RELEASED,
                                    Messages.Released.class,
                                    t)
                            .pointId())
                    .isEqualTo(id);
        }
        RemoteErrorException twice = catchThrowableOfType(
                RemoteErrorException.class,
                () -> c.call(
                        MessageType.RELEASE,
                        new Messages.Release("AgentSessionTest#held0"),
                        MessageType.RELEASED,
                        Messages.Released.class,
                        t));
        assertThat(twice.code()).isEqualTo("unknown-point");
        assertThat(session.run(spec("after-release").size(100).build()).isValid())
                .isTrue();
    }
}
