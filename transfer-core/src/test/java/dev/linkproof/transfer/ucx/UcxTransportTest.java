package dev.linkproof.transfer.ucx;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.linkproof.transfer.Mode;
import dev.linkproof.transfer.Op;
import dev.linkproof.transfer.TransferSpec;
import dev.linkproof.transfer.agent.AgentServer;
import dev.linkproof.transfer.measure.Measurement;
import dev.linkproof.transfer.session.Session;
import dev.linkproof.transfer.session.Timeouts;
import dev.linkproof.transfer.spi.IoSettings;
import dev.linkproof.transfer.spi.Transports;
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

/** The ucx transport end to end: a target agent in this JVM, a session against it, real UCX. */
@Timeout(120)
class UcxTransportTest {
    private static final String TOKEN = "0123456789abcdef-ucx-test-token";
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
        return Stream.of("shm", "tcp")
                .flatMap(tls -> Stream.of(
                        Arguments.of(tls, Op.WRITE, 1L, 1, 1, 1),
                        Arguments.of(tls, Op.READ, 3L, 1, 1, 1),
                        Arguments.of(tls, Op.WRITE, 4097L, 3, 2, 4),
                        Arguments.of(tls, Op.READ, 65537L, 4, 3, 2),
                        Arguments.of(tls, Op.WRITE, 1L << 20, 1, 4, 8),
                        Arguments.of(tls, Op.READ, 1L << 20, 2, 1, 1)));
    }

    @ParameterizedTest(name = "{0} {1} {2} B ×{3} · {4} ep · depth {5}")
    @MethodSource("points")
    void movesAndValidates(String tls, Op op, long size, int batch, int eps, int depth) throws Exception {
        TransferSpec spec = TransferSpec.builder()
                .transport("ucx")
                .pointId("UcxTransportTest#" + tls + "-" + op.label() + "-" + size + "-" + batch + "-" + eps + "-"
                        + depth)
                .op(op)
                .size(size)
                .batch(batch)
                .connections(eps)
                .pipelineDepth(depth)
                .iterations(20)
                .warmup(5)
                .offset(size > 4096 ? 7 : 0)
                .settings(Map.of("UCX_TLS", tls))
                .build();
        assertThat(session.supports(spec).available())
                .as(session.supports(spec).reason())
                .isTrue();
        Measurement m = session.run(spec);
        assertThat(m.isValid()).as(m.toString()).isTrue();
        assertThat(m.environment()).containsEntry("transport", "ucx").containsKey("ucx.version");
    }

    @Test
    void latencyModeOverSharedMemory() throws Exception {
        Measurement m = session.run(TransferSpec.builder()
                .transport("ucx")
                .pointId("UcxTransportTest#lat")
                .op(Op.WRITE)
                .mode(Mode.LATENCY)
                .size(8)
                .iterations(200)
                .warmup(50)
                .settings(Map.of("UCX_TLS", "shm"))
                .build());
        assertThat(m.isValid()).isTrue();
        assertThat(m.latency().p50Nanos()).isPositive();
    }

    @Test
    void aBadSettingFailsWithUcxsOwnMessage() {
        TransferSpec spec = TransferSpec.builder()
                .transport("ucx")
                .pointId("UcxTransportTest#bad")
                .settings(Map.of("UCX_RNDV_THRESH", "lots"))
                .build();
        org.assertj.core.api.Assertions.assertThatThrownBy(() -> session.run(spec))
                .hasMessageContaining("UCX_RNDV_THRESH=lots")
                .hasMessageContaining("ucp_config_modify");
    }

    @Test
    void settingsReachUcx() {
        TransferSpec spec = TransferSpec.builder()
                .transport("ucx")
                .pointId("UcxTransportTest#tls")
                .settings(Map.of("UCX_TLS", "no_such_transport"))
                .build();
        org.assertj.core.api.Assertions.assertThatThrownBy(() -> session.run(spec))
                .hasMessageContaining("ucp_init");
    }

    @Test
    void theTransportIsRegisteredAndAvailable() {
        var t = Transports.discover().require("ucx");
        assertThat(t.availability().available()).isTrue();
        assertThat(t.availability().reason()).startsWith("UCX 1.");
        assertThat(t.connectionNoun()).isEqualTo("ep");
    }

    /** libucs's SIGSEGV handler would abort the JVM on an implicit null check in compiled code. */
    @Test
    void nullPointerExceptionsInCompiledCodeDoNotKillTheJvm() {
        Object[] values = {"x", null};
        int caught = 0;
        for (int i = 0; i < 300_000; i++) {
            try {
                caught += length(values[i & 1]) == 1 ? 0 : 1;
            } catch (NullPointerException e) {
                caught++;
            }
        }
        assertThat(caught).isEqualTo(150_000);
    }

    private static int length(Object o) {
        return o.hashCode() == 0 ? 0 : 1;
    }
}
