package dev.linkproof.transfer.verbs;

import static org.assertj.core.api.Assertions.assertThat;

import dev.linkproof.transfer.Availability;
import dev.linkproof.transfer.gpu.FakeGpu;
import dev.linkproof.transfer.gpu.select.GpuRuntimes;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * GPU memory on the verbs transport is registered as a dma-buf (ibv_reg_dmabuf_mr); a GPU that
 * cannot export one is refused before any resource is made, with the reason. (The registration
 * itself needs an RDMA NIC that imports dma-bufs; Soft-RoCE does not, so it runs on hardware only.)
 */
class VerbsGpuMemoryTest {
    private String savedRuntime;
    private String savedLibrary;

    @AfterEach
    void restore() {
        set(GpuRuntimes.RUNTIME, savedRuntime);
        set(GpuRuntimes.CUDA_LIBRARY, savedLibrary);
        FakeGpu.setenv("FAKE_GPU_NO_DMABUF", null);
    }

    private static void set(String key, String value) {
        if (value == null) {
            System.clearProperty(key);
        } else {
            System.setProperty(key, value);
        }
    }

    private void useFake() throws Exception {
        savedRuntime = System.getProperty(GpuRuntimes.RUNTIME);
        savedLibrary = System.getProperty(GpuRuntimes.CUDA_LIBRARY);
        System.setProperty(GpuRuntimes.RUNTIME, "cuda");
        System.setProperty(GpuRuntimes.CUDA_LIBRARY, FakeGpu.cuda().toString());
    }

    @Test
    void aGpuThatExportsDmabufsIsAccepted() throws Exception {
        useFake();
        Availability a = VerbsTransport.dmabufCapable(0);
        assertThat(a.available()).as(a.reason()).isTrue();
        assertThat(VerbsTransport.dmabufCapable(1).reason()).startsWith("no GPU 1:");
    }

    @Test
    void aGpuThatCannotExportDmabufsIsRefusedWithTheReason() throws Exception {
        FakeGpu.setenv("FAKE_GPU_NO_DMABUF", "1");
        useFake();
        Availability a = VerbsTransport.dmabufCapable(0);
        assertThat(a.available()).isFalse();
        assertThat(a.reason())
                .isEqualTo(
                        "GPU 0 (Linkproof fake GPU 0 (test double)) cannot export its memory as a dma-buf, which RDMA"
                            + " to GPU memory needs here (CUDA: driver 515+ with the open kernel module; ROCm 6.2+)");
    }

    @Test
    void withoutAGpuRuntimeItsReasonComesBack() {
        savedRuntime = System.getProperty(GpuRuntimes.RUNTIME);
        System.setProperty(GpuRuntimes.RUNTIME, "none");
        assertThat(VerbsTransport.dmabufCapable(0).reason()).isEqualTo("GPU unavailable: linkproof.gpu.runtime=none");
    }
}
