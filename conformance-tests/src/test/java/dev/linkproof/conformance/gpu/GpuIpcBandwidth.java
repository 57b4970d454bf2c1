package dev.linkproof.conformance.gpu;

import static dev.linkproof.engine.api.LinkproofAssertions.assertThat;

import dev.linkproof.engine.api.Sweep;
import dev.linkproof.engine.api.TransferTest;
import dev.linkproof.transfer.Op;
import dev.linkproof.transfer.measure.Measurement;
import org.junit.jupiter.api.Tag;

/**
 * The figure scripts/gpu-check.sh puts beside a PyTorch/CuPy device-to-device copy of the same size
 * (256 MiB, 50 timed copies after 5 warmup ones, as bench/gpu-d2d-peer.py does), validated like
 * every point.
 */
@Tag("gpu")
class GpuIpcBandwidth {
    @TransferTest(
            transport = "gpu-ipc",
            memory = "gpu->gpu",
            op = Op.WRITE,
            sizes = @Sweep(values = "256MiB"),
            iterations = 50,
            warmup = 5,
            pipeline = {1, 4})
    void deviceToDevice256MiB(Measurement m) {
        assertThat(m).isValid();
    }

    /**
     * Every GPU the profile provides copying to its neighbour at once (0→1, 1→2, …, n-1→0: one
     * diagonal of nvbandwidth's all-pairs matrix, all of it loaded together), each pair validated; the
     * figure is the node's aggregate, beside each pair's own. Skipped with fewer than two GPUs.
     */
    @TransferTest(
            transport = "gpu-ipc",
            memory = "gpu->gpu:1",
            op = Op.WRITE,
            sizes = @Sweep(values = "64MiB"),
            iterations = 20,
            warmup = 2,
            rails = TransferTest.ALL_RAILS)
    void everyGpuToItsNeighbourAtOnce(Measurement m) {
        assertThat(m).isValid();
    }
}
