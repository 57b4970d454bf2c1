package dev.linkproof.conformance;

import static dev.linkproof.engine.api.LinkproofAssertions.assertThat;

import dev.linkproof.engine.api.Sweep;
import dev.linkproof.engine.api.TransferTest;
import dev.linkproof.transfer.Layout;
import dev.linkproof.transfer.Mode;
import dev.linkproof.transfer.Op;
import dev.linkproof.transfer.measure.Measurement;

/**
 * The write/read/send/atomics sweeps on the libfabric transport, over the two providers every machine
 * with Debian's libfabric1 has: {@code shm} (shared memory, FI_RMA and FI_ATOMIC) and
 * {@code tcp;ofi_rxm} (reliable datagrams over tcp sockets, whose RMA and atomics ofi_rxm carries as
 * messages), each point validated by checksum or, for atomics, by every counter. On a hardware
 * runner the same shapes run over its NIC's provider ({@code linkproof.libfabric.provider=efa},
 * {@code verbs;ofi_rxm}, an Ultra Ethernet NIC's) from a copy of this class without the settings.
 * Where libfabric is absent every point is skipped with the reason. Kept to a few dozen points.
 */
class LibfabricCorrectness {
    private static final String SHM = "libfabric.provider=shm";
    private static final String TCP = "libfabric.provider=tcp;ofi_rxm";

    @TransferTest(
            transport = "libfabric",
            settings = SHM,
            op = {Op.WRITE, Op.READ, Op.SEND},
            sizes = @Sweep(values = {"1", "4097", "1MiB"}))
    void sharedMemory(Measurement m) {
        assertThat(m).isValid().movedBytes(m.spec().size() * m.spec().iterations());
    }

    @TransferTest(
            transport = "libfabric",
            settings = TCP,
            op = {Op.WRITE, Op.READ, Op.SEND},
            sizes = @Sweep(values = {"1", "4097", "1MiB"}),
            iterations = 200)
    void tcp(Measurement m) {
        assertThat(m).isValid().movedBytes(m.spec().size() * m.spec().iterations());
    }

    @TransferTest(
            transport = "libfabric",
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
            transport = "libfabric",
            settings = TCP,
            op = {Op.WRITE, Op.READ, Op.SEND},
            sizes = @Sweep(values = "4KiB"),
            batch = 16,
            qps = {1, 4},
            iterations = 100)
    void tcpBatches(Measurement m) {
        assertThat(m).isValid();
    }

    @TransferTest(
            transport = "libfabric",
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
            transport = "libfabric",
            settings = SHM,
            op = {Op.FETCH_ADD, Op.COMPARE_SWAP},
            batch = {1, 64},
            qps = {1, 4},
            pipeline = {1, 8})
    void sharedMemoryAtomics(Measurement m) {
        assertThat(m).isValid();
        assertThat(m).hasOpsPerSecondAtLeast(1);
    }

    @TransferTest(
            transport = "libfabric",
            settings = TCP,
            op = {Op.FETCH_ADD, Op.COMPARE_SWAP},
            batch = 16,
            qps = 2,
            iterations = 200)
    void tcpAtomics(Measurement m) {
        assertThat(m).isValid();
    }

    @TransferTest(
            transport = "libfabric",
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
}
