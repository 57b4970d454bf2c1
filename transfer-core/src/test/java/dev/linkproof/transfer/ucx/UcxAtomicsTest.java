package dev.linkproof.transfer.ucx;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.linkproof.transfer.Mode;
import dev.linkproof.transfer.Op;
import dev.linkproof.transfer.TransferSpec;
import dev.linkproof.transfer.agent.AgentServer;
import dev.linkproof.transfer.atomic.AtomicPlan;
import dev.linkproof.transfer.measure.Measurement;
import dev.linkproof.transfer.session.Session;
import dev.linkproof.transfer.session.Timeouts;
import dev.linkproof.transfer.spi.IoSettings;
import java.time.Duration;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/** ucx atomics end to end ({@code ucp_atomic_op_nbx}): a target agent in this JVM, real UCX, every counter checked. */
@Timeout(120)
class UcxAtomicsTest {
    private static final String TOKEN = "0123456789abcdef-ucx-atomics-token";
    private static final Timeouts TIMEOUTS = new Timeouts(
            Duration.ofSeconds(10),
            Duration.ofSeconds(10),
            new IoSettings(Duration.ofSeconds(10), Duration.ofSeconds(10)));
    private static AgentServer agent;
    private static Session session;

    @BeforeAll
    static void start() throws Exception {
        assumeTrue(Ucx.unavailableReason() == null, () -> "libucp absent: " + Ucx.unavailableReason());
        agent = AgentServer.start("127.0.0.1", 0, TOKEN, IoSettings.DEFAULT);
        session = Session.open("127.0.0.1", agent.port(), TOKEN, TIMEOUTS);
    }

    @AfterAll
    static void stop() {
        if (session != null) {
            session.close();
        }
        if (agent != null) {
            agent.close();
        }
    }

    static Stream<Arguments> points() {
        return Stream.of(Op.FETCH_ADD, Op.COMPARE_SWAP)
                .flatMap(op -> Stream.of(
                        Arguments.of("shm", op, 1, 1, 1),
                        Arguments.of("shm", op, 16, 4, 8),
                        Arguments.of("tcp", op, 4, 2, 1)));
    }

    @ParameterizedTest(name = "{0} {1} ×{2} · {3} ep · depth {4}")
    @MethodSource("points")
    void countsEveryAtomic(String tls, Op op, int batch, int eps, int depth) throws Exception {
        TransferSpec spec = TransferSpec.builder()
                .transport("ucx")
                .pointId("UcxAtomicsTest#" + tls + "-" + op.label() + "-" + batch + "-" + eps + "-" + depth)
                .op(op)
                .size(8)
                .batch(batch)
                .connections(eps)
                .pipelineDepth(depth)
                .iterations(200)
                .warmup(20)
                .settings(Map.of("UCX_TLS", tls))
                .build();
        assertThat(session.supports(spec).available())
                .as(session.supports(spec).reason())
                .isTrue();
        Measurement m = session.run(spec);
        assertThat(m.isValid()).as(m.validation().describe()).isTrue();
        assertThat(m.validation().atomics().counters()).isEqualTo(batch);
        assertThat(m.validation().atomics().ops()).isEqualTo(220 + AtomicPlan.VERIFY_BATCHES);
        assertThat(m.validation().describe()).startsWith("data valid: " + batch + " counter(s) exact after");
    }

    @Test
    void latencyMode() throws Exception {
        Measurement m = session.run(TransferSpec.builder()
                .transport("ucx")
                .pointId("UcxAtomicsTest#lat")
                .op(Op.FETCH_ADD)
                .mode(Mode.LATENCY)
                .size(8)
                .iterations(500)
                .warmup(50)
                .settings(Map.of("UCX_TLS", "shm"))
                .build());
        assertThat(m.isValid()).as(m.validation().describe()).isTrue();
        assertThat(m.latency().samples()).isEqualTo(500);
    }
}
