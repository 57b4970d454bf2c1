package dev.linkproof.transfer.gpu;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.linkproof.transfer.Layout;
import dev.linkproof.transfer.MemoryPlacement;
import dev.linkproof.transfer.Mode;
import dev.linkproof.transfer.Op;
import dev.linkproof.transfer.TransferSpec;
import dev.linkproof.transfer.measure.Measurement;
import dev.linkproof.transfer.session.Session;
import dev.linkproof.transfer.session.Timeouts;
import dev.linkproof.transfer.spi.IoSettings;
import java.nio.file.Path;
import java.time.Duration;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * GPU memory end to end between two processes — this JVM as the initiator, a target agent in a
 * child JVM — on the fake runtime, once with the CUDA binding and once with HIP: gpu-ipc writes
 * and reads through an IPC handle the target exports, tcp staged through host copies, every point
 * validated by checksums of what landed in device memory, and a truncating copy caught.
 */
@Timeout(120)
class GpuTransfersTest {
    private static final Timeouts TIMEOUTS = new Timeouts(
            Duration.ofSeconds(15),
            Duration.ofSeconds(30),
            new IoSettings(Duration.ofSeconds(10), Duration.ofSeconds(10)));
    private static final MemoryPlacement GPU = MemoryPlacement.parse("gpu");

    private FakeGpuAgent agent;
    private Session session;

    private void open(String api) throws Exception {
        agent = FakeGpuAgent.start(api, Path.of("target/gpu-agent-" + api + ".log"));
        session = Session.open(agent.host(), agent.port(), agent.token(), TIMEOUTS);
    }

    @AfterEach
    void close() {
        if (session != null) {
            session.close();
        }
        if (agent != null) {
            agent.close();
        }
    }

    private static TransferSpec.Builder spec(String id) {
        return TransferSpec.builder()
                .pointId("GpuTransfersTest#" + id)
                .iterations(20)
                .warmup(2)
                .initiatorMemory(GPU)
                .targetMemory(GPU);
    }

    @ParameterizedTest
    @ValueSource(strings = {"cuda", "hip"})
    void gpuIpcWritesAndReadsValidate(String api) throws Exception {
        open(api);
        assertThat(session.agent().gpus().available()).isTrue();
        assertThat(session.agent().gpus().detail()).contains(api.equals("cuda") ? "CUDA driver API" : "HIP");
        for (Op op : new Op[] {Op.WRITE, Op.READ}) {
            TransferSpec s = spec("ipc-" + op.label())
                    .transport("gpu-ipc")
                    .op(op)
                    .size(4097)
                    .batch(6)
                    .connections(2)
                    .pipelineDepth(3)
                    .offset(7)
                    .layout(Layout.STRIDED)
                    .build();
            assertThat(session.supports(s).available())
                    .as(session.supports(s).reason())
                    .isTrue();
            Measurement m = session.run(s);
            assertThat(m.validation().passed()).as(m.validation().toString()).isTrue();
            assertThat(m.validation().slots()).isEqualTo(6);
            assertThat(m.environment()).containsKey("gpu.runtime").containsEntry("transport", "gpu-ipc");
            assertThat(m.bandwidthGBps()).isPositive();
        }
        Measurement lat = session.run(spec("ipc-lat")
                .transport("gpu-ipc")
                .size(8)
                .mode(Mode.LATENCY)
                .iterations(200)
                .build());
        assertThat(lat.validation().passed()).isTrue();
        assertThat(lat.latency().hasPercentiles()).isTrue();
    }

    @ParameterizedTest
    @ValueSource(strings = {"cuda", "hip"})
    void tcpStagesGpuMemoryThroughHostCopies(String api) throws Exception {
        open(api);
        for (String memory : new String[] {"host->gpu", "gpu->host", "gpu->gpu"}) {
            String[] sides = memory.split("->");
            for (Op op : new Op[] {Op.WRITE, Op.READ}) {
                TransferSpec s = spec("tcp-" + memory + "-" + op.label())
                        .transport("tcp")
                        .op(op)
                        .size(65_537)
                        .batch(3)
                        .connections(2)
                        .initiatorMemory(MemoryPlacement.parse(sides[0]))
                        .targetMemory(MemoryPlacement.parse(sides[1]))
                        .build();
                Measurement m = session.run(s);
                assertThat(m.validation().passed())
                        .as(memory + " " + op + ": " + m.validation())
                        .isTrue();
                assertThat(m.environment())
                        .containsEntry("tcp.gpu", "GPU memory staged through host memory per transfer");
            }
        }
    }

    @ParameterizedTest
    @ValueSource(strings = {"cuda"})
    void aTruncatingCopyFailsValidationNamingTheSlotAndByte(String api) throws Exception {
        open(api);
        Measurement m =
                session.run(spec("short").transport("gpu-ipc-short").size(4096).build());
        assertThat(m.validation().passed()).isFalse();
        assertThat(m.validation().badSlots()).isEqualTo(1);
        assertThat(m.validation().firstBad()).hasValueSatisfying(x -> {
            assertThat(x.slot()).isZero();
            assertThat(x.offset()).isEqualTo(4095);
        });
    }

    @ParameterizedTest
    @ValueSource(strings = {"cuda"})
    void aGpuTheTargetLacksIsSkippedWithTheTargetsReason(String api) throws Exception {
        open(api);
        TransferSpec s = spec("gpu1")
                .transport("gpu-ipc")
                .targetMemory(MemoryPlacement.parse("gpu:1"))
                .build();
        assertThat(session.supports(s).reason()).startsWith("no GPU 1 on the target: it sees 1");
        TransferSpec hostSide = spec("host")
                .transport("gpu-ipc")
                .targetMemory(MemoryPlacement.HOST)
                .build();
        assertThat(session.supports(hostSide).reason())
                .isEqualTo("gpu-ipc unavailable on the initiator: gpu-ipc moves GPU "
                        + "memory to GPU memory: memory must be gpu->gpu, was gpu->host");
        assertThatThrownBy(() -> session.run(s)).hasMessageContaining("no GPU 1");
    }
}
