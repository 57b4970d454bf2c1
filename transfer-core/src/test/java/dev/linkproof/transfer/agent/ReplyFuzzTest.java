package dev.linkproof.transfer.agent;

import static org.assertj.core.api.Assertions.assertThat;

import dev.linkproof.transfer.MemoryPlacement;
import dev.linkproof.transfer.Op;
import dev.linkproof.transfer.TransferSpec;
import dev.linkproof.transfer.control.MessageType;
import dev.linkproof.transfer.control.Messages;
import dev.linkproof.transfer.control.MutatingProxy;
import dev.linkproof.transfer.gpu.FakeGpuAgent;
import dev.linkproof.transfer.gpuipc.GpuIpcTransport;
import dev.linkproof.transfer.measure.Measurement;
import dev.linkproof.transfer.session.Session;
import dev.linkproof.transfer.session.Timeouts;
import dev.linkproof.transfer.spi.IoSettings;
import dev.linkproof.transfer.ucx.Ucx;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.function.UnaryOperator;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The initiator's side of malformed control messages: a proxy between a session and a real agent
 * mutates one of the agent's replies ({@link JsonMutator}) — WELCOME, PREPARED, the CHECKSUMS of a
 * fill or a verification, LOCATED, RELEASED (with the target host's load). Whatever comes, opening the session and running a point either
 * succeed or fail with a {@code TransferException} that says what broke; never a bare runtime
 * exception, never a hang. Seeded, so a failure replays. tcp and ucx (where libucp loads) run
 * against an agent in this JVM, gpu-ipc against one in a child JVM on the fake GPU runtime.
 */
@Timeout(180)
class ReplyFuzzTest {
    private static final String TOKEN = "0123456789abcdef-reply-fuzz";
    private static final Timeouts TIMEOUTS = new Timeouts(
            Duration.ofSeconds(10),
            Duration.ofSeconds(5),
            new IoSettings(Duration.ofSeconds(3), Duration.ofSeconds(3)));
    private static final long SEED = 20261204L;
    private static final int CASES = 400;
    /** About one case in ten lands on one of gpu-ipc's three endpoint fields (~20 ms a case). */
    private static final int GPU_CASES = 300;

    private static final MemoryPlacement GPU = MemoryPlacement.parse("gpu");
    /**
     * What no receiver can check, so the fuzz leaves it well-formed: the remote base address and UCX's
     * packed worker address and rkey, which only the library or the NIC can verify. UCX's software
     * transports write through a false but well-formed base (0x80000000 crashed the target's worker in
     * a memcpy), as any one-sided tool would; the peer that published it is at fault. gpu-ipc's handle
     * is as opaque, yet stays mutable: every value JsonMutator writes is malformed as a 64-byte handle,
     * so PeerEndpoint or the runtime binding's length check refuses it before the runtime sees it.
     */
    private static final java.util.Set<String> TRUSTED =
            java.util.Set.of("endpoint.ucx.base", "endpoint.ucx.rkey", "endpoint.ucx.address");
    /** Each transport parses the target's endpoint its own way; ucx where libucp loads. */
    private static final List<String> TRANSPORTS =
            Ucx.unavailableReason() == null ? List.of("tcp", "ucx") : List.of("tcp");

    @RegisterExtension
    static final InProcessAgent AGENT = new InProcessAgent(TOKEN);

    @Test
    void aMalformedReplyFailsThePointByNameOrChangesNothing() throws Exception {
        assertThat(fuzz(AGENT.port(), TOKEN, TRANSPORTS, CASES, memory -> memory))
                .contains("ok", "refused");
    }

    /**
     * gpu-ipc on the fake CUDA and HIP runtimes (the endpoint is the same, the handle's owner differs),
     * against an agent in a child JVM: the target must be another process, since an IPC handle does
     * not open in the process that exported it. The agent must come out of the fuzz alive and still
     * serve a clean point, or a dead agent would pass every later case as "refused".
     */
    @ParameterizedTest
    @ValueSource(strings = {"cuda", "hip"})
    void aMalformedReplyFailsAGpuIpcPointByNameOrChangesNothing(String api) throws Exception {
        try (FakeGpuAgent agent = FakeGpuAgent.start(api, Path.of("target/reply-fuzz-gpu-agent-" + api + ".log"))) {
            List<String> outcomes = fuzz(
                    agent.port(),
                    agent.token(),
                    List.of(GpuIpcTransport.ID),
                    GPU_CASES,
                    memory -> memory.initiatorMemory(GPU).targetMemory(GPU));
            assertThat(agent.alive())
                    .as("agent alive after the fuzz, see " + agent.log())
                    .isTrue();
            try (Session session = Session.open(agent.host(), agent.port(), agent.token(), TIMEOUTS)) {
                Measurement clean = session.run(TransferSpec.builder()
                        .pointId("reply-fuzz#clean")
                        .transport(GpuIpcTransport.ID)
                        .initiatorMemory(GPU)
                        .targetMemory(GPU)
                        .size(4096)
                        .batch(2)
                        .iterations(2)
                        .warmup(1)
                        .build());
                assertThat(clean.validation().passed())
                        .as(clean.validation().toString())
                        .isTrue();
            }
            assertThat(outcomes).contains("ok", "refused");
        }
    }

    private static List<String> fuzz(
            int agentPort, String token, List<String> transports, int cases, UnaryOperator<TransferSpec.Builder> memory)
            throws Exception {
        Random random = new Random(SEED);
        List<String> outcomes = new ArrayList<>();
        for (int i = 0; i < cases; i++) {
            // Reply 0 is WELCOME; a WRITE point then gets PREPARED, CHECKSUMS (verification) and, on a
            // mismatch, LOCATED; a READ point gets PREPARED, CHECKSUMS (fill), CHECKSUMS (verification fill).
            int victim = random.nextInt(4);
            Op op = random.nextBoolean() ? Op.WRITE : Op.READ;
            String transport = transports.get(random.nextInt(transports.size()));
            TransferSpec spec = memory.apply(TransferSpec.builder()
                            .pointId("reply-fuzz#" + i)
                            .transport(transport)
                            .op(op)
                            .size(4096)
                            .batch(2)
                            .iterations(2)
                            .warmup(1))
                    .build();
            long caseSeed = random.nextLong();
            String what =
                    "case " + i + " (seed " + SEED + "): " + transport + " " + op + ", reply " + victim + " mutated";
            try (MutatingProxy proxy =
                    new MutatingProxy(agentPort, victim, path -> !TRUSTED.contains(path), new Random(caseSeed))) {
                outcomes.add(proxy.outcome(what, port -> {
                    try (Session session = Session.open("127.0.0.1", port, token, TIMEOUTS)) {
                        session.supports(spec);
                        session.run(spec);
                        // A short point's RELEASED is read before the session's next request, not in run:
                        // one more request, so a mutated RELEASED still reaches the session's checks.
                        session.control()
                                .call(
                                        MessageType.PING,
                                        new Messages.Ping(1),
                                        MessageType.PONG,
                                        Messages.Pong.class,
                                        TIMEOUTS.control());
                    }
                }));
            }
        }
        return outcomes;
    }
}
