package dev.linkproof.conformance.gpu;

import static dev.linkproof.engine.api.LinkproofAssertions.assertThat;

import dev.linkproof.engine.api.Sweep;
import dev.linkproof.engine.api.TransferTest;
import dev.linkproof.transfer.Op;
import dev.linkproof.transfer.measure.Measurement;
import org.junit.jupiter.api.Tag;

/**
 * GPU memory on either side of the host transports: tcp stages it through host memory (its point
 * says so), ucx hands UCX the memory type, verbs registers it as a dma-buf, libfabric registers it
 * through FI_HMEM (over shm, the provider a GPU node without an RDMA NIC still has). Each point
 * validates what landed in GPU memory by copying it back. Points whose transport cannot move GPU
 * memory, or that run where there is no GPU, are skipped with the reason.
 */
@Tag("gpu")
class GpuMemoryCorrectness {
    @TransferTest(
            transport = "tcp",
            memory = {"host->gpu", "gpu->host", "gpu->gpu"},
            op = {Op.WRITE, Op.READ},
            sizes = @Sweep(values = {"4097", "1MiB", "16MiB"}))
    void tcpStaged(Measurement m) {
        assertThat(m).isValid().movedBytes(m.spec().size() * m.spec().iterations());
    }

    @TransferTest(
            transport = "ucx",
            memory = {"host->gpu", "gpu->gpu"},
            op = {Op.WRITE, Op.READ},
            sizes = @Sweep(values = {"4097", "1MiB"}))
    void ucx(Measurement m) {
        assertThat(m).isValid();
    }

    @TransferTest(
            transport = "verbs",
            memory = {"host->gpu", "gpu->gpu"},
            op = {Op.WRITE, Op.READ},
            sizes = @Sweep(values = {"4097", "1MiB"}))
    void verbsDmabuf(Measurement m) {
        assertThat(m).isValid();
    }

    @TransferTest(
            transport = "libfabric",
            settings = "libfabric.provider=shm",
            memory = {"host->gpu", "gpu->host", "gpu->gpu"},
            op = {Op.WRITE, Op.READ, Op.SEND},
            sizes = @Sweep(values = {"4097", "1MiB"}))
    void libfabricShm(Measurement m) {
        assertThat(m).isValid();
    }
}
