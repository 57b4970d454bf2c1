package dev.linkproof.conformance.gpu;

import static dev.linkproof.engine.api.LinkproofAssertions.assertThat;

import dev.linkproof.engine.api.Sweep;
import dev.linkproof.engine.api.TransferTest;
import dev.linkproof.transfer.Layout;
import dev.linkproof.transfer.Mode;
import dev.linkproof.transfer.Op;
import dev.linkproof.transfer.measure.Measurement;
import org.junit.jupiter.api.Tag;

/**
 * Device-to-device through IPC handles ({@code gpu-ipc}): the target exports its GPU buffer, the
 * initiator opens it and copies into it (write) or out of it (read) — the node's GPU-to-GPU path
 * (NVLink, XGMI, or one GPU's HBM when both ranks share it: every method but {@link #peerToPeer}
 * runs on the profile's first GPU alone, unless {@code linkproof.gpus=each} spreads it over every GPU).
 * Every point validates by copying the receiver's slots back to host and comparing checksums. Without
 * a GPU runtime and device every point is skipped with the runtime's reason.
 */
@Tag("gpu")
class GpuIpcCorrectness {
    @TransferTest(
            transport = "gpu-ipc",
            memory = "gpu->gpu",
            op = {Op.WRITE, Op.READ},
            sizes = @Sweep(from = "4KiB", to = "64MiB", step = "x4"))
    void deviceToDevice(Measurement m) {
        assertThat(m).isValid().movedBytes(m.spec().size() * m.spec().iterations());
    }

    /** Sizes that are not multiples of anything the copy engines like, at unaligned slot starts. */
    @TransferTest(
            transport = "gpu-ipc",
            memory = "gpu->gpu",
            op = {Op.WRITE, Op.READ},
            sizes = @Sweep(values = {"1", "3", "4097", "1000003"}),
            offset = 7,
            batch = 4,
            layout = Layout.STRIDED)
    void oddSizesUnaligned(Measurement m) {
        assertThat(m).isValid();
        assertThat(m.validation().slots()).isEqualTo(4);
    }

    @TransferTest(
            transport = "gpu-ipc",
            memory = "gpu->gpu",
            op = {Op.WRITE, Op.READ},
            sizes = @Sweep(values = "64KiB"),
            batch = {16, 128},
            pipeline = {1, 4})
    void batches(Measurement m) {
        assertThat(m).isValid();
        assertThat(m.validation().slots()).isEqualTo(m.spec().batch());
    }

    /**
     * The profile's first GPU to its second: the link between two GPUs (NVLink, XGMI), which the points above, on one GPU,
     * never cross. Skipped with the reason where the profile provides one GPU; with
     * {@code -Dlinkproof.gpus=each}, every neighbouring pair (0→1, 1→2, …, n-1→0).
     */
    @TransferTest(
            transport = "gpu-ipc",
            memory = "gpu->gpu:1",
            op = {Op.WRITE, Op.READ},
            sizes = @Sweep(values = {"4097", "1MiB", "64MiB"}))
    void peerToPeer(Measurement m) {
        assertThat(m).isValid().movedBytes(m.spec().size() * m.spec().iterations());
    }

    @TransferTest(
            transport = "gpu-ipc",
            memory = "gpu->gpu",
            op = Op.WRITE,
            sizes = @Sweep(values = {"8", "4KiB"}),
            mode = Mode.LATENCY,
            iterations = 2000,
            warmup = 200)
    void latency(Measurement m) {
        assertThat(m).isValid();
        assertThat(m.latency().hasPercentiles()).isTrue();
    }
}
