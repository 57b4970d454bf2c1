package dev.linkproof.conformance;

import static dev.linkproof.engine.api.LinkproofAssertions.assertThat;

import dev.linkproof.engine.api.Sweep;
import dev.linkproof.engine.api.TransferTest;
import dev.linkproof.transfer.Layout;
import dev.linkproof.transfer.Mode;
import dev.linkproof.transfer.Op;
import dev.linkproof.transfer.measure.Measurement;

/**
 * The write/read/batch/latency sweeps on the ucx transport (one-sided put/get), over shared memory
 * and over {@code UCX_TLS=tcp} (where UCX emulates RMA with messages), each point validated by
 * checksum, and judged by the loopback profile's ucx criteria (ucx-shm-* over shared memory, ucx-tcp-*
 * over tcp) on a machine without RDMA hardware. Where libucp is absent every point is skipped with
 * the reason. Kept to a few dozen points: the full size sweeps run on tcp in {@link WriteCorrectness}
 * and {@link ReadCorrectness}.
 */
class UcxCorrectness {
    private static final String SHM = "UCX_TLS=shm";
    private static final String TCP = "UCX_TLS=tcp";

    @TransferTest(
            transport = "ucx",
            settings = SHM,
            op = {Op.WRITE, Op.READ},
            sizes = @Sweep(values = {"1", "4097", "1MiB"}))
    void sharedMemory(Measurement m) {
        assertThat(m).isValid().movedBytes(m.spec().size() * m.spec().iterations());
    }

    /**
     * Over tcp UCX emulates RMA with active messages and moves about what ucx_perftest does (0.2-1.2
     * GB/s at 1 MiB on the 2-core CI VM, 30-100x less than over shared memory): the loopback
     * profile judges these points by its own ucx-over-tcp criteria (ucx-tcp-small-latency,
     * ucx-tcp-mid, ucx-tcp-bulk), one size for each.
     */
    @TransferTest(
            transport = "ucx",
            settings = TCP,
            op = {Op.WRITE, Op.READ},
            sizes = @Sweep(values = {"1", "4097", "64KiB", "1MiB"}))
    void tcp(Measurement m) {
        assertThat(m).isValid().movedBytes(m.spec().size() * m.spec().iterations());
    }

    @TransferTest(
            transport = "ucx",
            settings = SHM,
            op = {Op.WRITE, Op.READ},
            sizes = @Sweep(values = "4KiB"),
            batch = {16, 256},
            qps = 4,
            pipeline = {1, 8})
    void sharedMemoryBatches(Measurement m) {
        assertThat(m).isValid();
        assertThat(m.validation().slots()).isEqualTo(m.spec().batch());
    }

    @TransferTest(
            transport = "ucx",
            settings = TCP,
            op = {Op.WRITE, Op.READ},
            sizes = @Sweep(values = "4KiB"),
            batch = 16,
            qps = {1, 4})
    void tcpBatches(Measurement m) {
        assertThat(m).isValid();
    }

    @TransferTest(
            transport = "ucx",
            settings = SHM,
            op = {Op.WRITE, Op.READ},
            sizes = @Sweep(values = {"3", "4097"}),
            offset = 7,
            batch = 4,
            layout = Layout.STRIDED)
    void sharedMemoryUnaligned(Measurement m) {
        assertThat(m).isValid();
    }

    @TransferTest(
            transport = "ucx",
            settings = SHM,
            op = {Op.WRITE, Op.READ},
            sizes = @Sweep(values = {"8", "4KiB"}),
            mode = Mode.LATENCY,
            iterations = 1000,
            warmup = 200)
    void sharedMemoryLatency(Measurement m) {
        assertThat(m).isValid();
        assertThat(m.latency().samples()).isEqualTo(m.spec().iterations());
        assertThat(m.latency().p50()).isLessThanOrEqualTo(m.latency().p99());
    }

    @TransferTest(
            transport = "ucx",
            settings = TCP,
            op = {Op.WRITE, Op.READ},
            sizes = @Sweep(values = "8"),
            mode = Mode.LATENCY,
            iterations = 500,
            warmup = 100)
    void tcpLatency(Measurement m) {
        assertThat(m).isValid();
    }
}
