package dev.linkproof.transfer.libfabric;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.linkproof.transfer.Availability;
import dev.linkproof.transfer.MemoryPlacement;
import dev.linkproof.transfer.Mode;
import dev.linkproof.transfer.Op;
import dev.linkproof.transfer.TransferSpec;
import dev.linkproof.transfer.agent.AgentServer;
import dev.linkproof.transfer.atomic.AtomicPlan;
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

/**
 * The libfabric transport end to end over the providers this machine has, shm and tcp;ofi_rxm: a
 * target agent in this JVM, a session against it, every op the providers offer, the data validated
 * (checksums, every atomic counter).
 */
@Timeout(180)
class LibfabricTransportTest {
    private static final String TOKEN = "0123456789abcdef-libfabric-token";
    private static final Timeouts TIMEOUTS = new Timeouts(
            Duration.ofSeconds(10),
            Duration.ofSeconds(10),
            new IoSettings(Duration.ofSeconds(10), Duration.ofSeconds(10)));
    static final String[] PROVIDERS = {"shm", "tcp;ofi_rxm"};
    private static AgentServer agent;
    private static Session session;

    @BeforeAll
    static void start() throws Exception {
        assumeTrue(Libfabric.unavailableReason() == null, () -> "libfabric absent: " + Libfabric.unavailableReason());
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

    static TransferSpec.Builder point(String provider, Op op, String name) {
        return TransferSpec.builder()
                .transport(LibfabricTransport.ID)
                .op(op)
                .pointId("LibfabricTransportTest#" + provider + "-" + name)
                .settings(Map.of(LibfabricSettings.PROVIDER, provider));
    }

    static Stream<Arguments> rma() {
        return Stream.of(PROVIDERS)
                .flatMap(p -> Stream.of(
                        Arguments.of(p, Op.WRITE, 1L, 1, 1, 1),
                        Arguments.of(p, Op.READ, 3L, 1, 1, 1),
                        Arguments.of(p, Op.WRITE, 4097L, 3, 2, 4),
                        Arguments.of(p, Op.READ, 65537L, 4, 3, 2),
                        Arguments.of(p, Op.WRITE, 1L << 20, 1, 4, 8),
                        Arguments.of(p, Op.READ, 1L << 20, 2, 1, 1),
                        Arguments.of(p, Op.SEND, 1L, 1, 1, 1),
                        Arguments.of(p, Op.SEND, 4097L, 3, 2, 4),
                        Arguments.of(p, Op.SEND, 65537L, 1, 4, 2),
                        Arguments.of(p, Op.SEND, 1L << 20, 8, 2, 8)));
    }

    @ParameterizedTest(name = "{0} {1} {2} B ×{3} · {4} ep · depth {5}")
    @MethodSource("rma")
    void movesAndValidates(String provider, Op op, long size, int batch, int eps, int depth) throws Exception {
        TransferSpec spec = point(provider, op, op.label() + "-" + size + "-" + batch + "-" + eps + "-" + depth)
                .size(size)
                .batch(batch)
                .connections(eps)
                .pipelineDepth(depth)
                .iterations(20)
                .warmup(5)
                .offset(size > 4096 ? 7 : 0)
                .build();
        assertThat(session.supports(spec).available())
                .as(session.supports(spec).reason())
                .isTrue();
        Measurement m = session.run(spec);
        assertThat(m.isValid()).as(m.validation().describe()).isTrue();
        assertThat(m.environment()).containsEntry("transport", "libfabric").containsKey("libfabric.version");
        if (op == Op.SEND) {
            // Every receive completion of every batch arrived, each of its transfer's length.
            assertThat(m.validation().describe()).contains("receive completion(s) as planned");
        }
    }

    static Stream<Arguments> atomics() {
        return Stream.of(PROVIDERS)
                .flatMap(p -> Stream.of(Op.FETCH_ADD, Op.COMPARE_SWAP)
                        .flatMap(op -> Stream.of(Arguments.of(p, op, 1, 1, 1), Arguments.of(p, op, 16, 4, 8))));
    }

    @ParameterizedTest(name = "{0} {1} ×{2} · {3} ep · depth {4}")
    @MethodSource("atomics")
    void countsEveryAtomic(String provider, Op op, int batch, int eps, int depth) throws Exception {
        TransferSpec spec = point(provider, op, op.label() + "-" + batch + "-" + eps + "-" + depth)
                .size(8)
                .batch(batch)
                .connections(eps)
                .pipelineDepth(depth)
                .iterations(200)
                .warmup(20)
                .build();
        Availability offered = session.supports(spec);
        assumeTrue(offered.available(), offered.reason());
        Measurement m = session.run(spec);
        assertThat(m.isValid()).as(m.validation().describe()).isTrue();
        assertThat(m.validation().atomics().counters()).isEqualTo(batch);
        assertThat(m.validation().atomics().ops()).isEqualTo(220 + AtomicPlan.VERIFY_BATCHES);
    }

    @Test
    void latencyModeOverSharedMemory() throws Exception {
        Measurement m = session.run(point("shm", Op.WRITE, "lat")
                .mode(Mode.LATENCY)
                .size(8)
                .iterations(200)
                .warmup(50)
                .build());
        assertThat(m.isValid()).isTrue();
        assertThat(m.latency().p50Nanos()).isPositive();
    }

    @Test
    void whatTheTransportDoesNotDoIsSkippedWithTheReason() {
        var t = Transports.discover().require(LibfabricTransport.ID);
        Availability send = t.supports(point("shm", Op.WRITE_WITH_IMM, "imm").build());
        assertThat(send.kind()).isEqualTo(Availability.Kind.NOT_SUPPORTED);
        assertThat(send.reason()).contains("not write-with-imm");
        Availability absent =
                t.supports(point("nosuchprovider", Op.WRITE, "none").build());
        assertThat(absent.kind()).isEqualTo(Availability.Kind.DEVICE_LACKS_CAPABILITY);
        assertThat(absent.reason()).contains("no provider nosuchprovider offering FI_RMA");
        Availability gpu = t.supports(point("shm", Op.WRITE, "gpu")
                .targetMemory(MemoryPlacement.parse("gpu:0"))
                .build());
        assertThat(gpu.available()).isFalse();
        assertThat(gpu.reason()).contains("FI_HMEM");
    }

    @Test
    void aTargetOnAnotherProviderFailsNamingBoth() {
        assertThatThrownBy(() -> TargetEndpoint.read(
                        point("shm", Op.WRITE, "mismatch").build(),
                        Map.of(
                                "libfabric.provider",
                                "tcp;ofi_rxm",
                                "libfabric.names",
                                "00",
                                "libfabric.keys",
                                "1",
                                "libfabric.base",
                                "0",
                                "libfabric.length",
                                "1048576")))
                .hasMessageContaining("the target opened libfabric provider tcp;ofi_rxm, this side names shm");
    }

    /** libinfinipath (Debian's libfabric links psm) installs a SIGSEGV handler that would end the JVM at its first implicit null check. */
    @Test
    void nullPointerExceptionsInCompiledCodeDoNotKillTheJvm() {
        assertThat(Libfabric.unavailableReason()).isNull();
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

    @Test
    void theTransportIsRegisteredAndAvailable() {
        var t = Transports.discover().require(LibfabricTransport.ID);
        assertThat(t.availability().available()).as(t.availability().reason()).isTrue();
        assertThat(t.availability().reason()).startsWith("libfabric 1.");
        assertThat(t.connectionNoun()).isEqualTo("ep");
    }
}
