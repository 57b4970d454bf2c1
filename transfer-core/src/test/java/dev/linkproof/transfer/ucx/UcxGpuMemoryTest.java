package dev.linkproof.transfer.ucx;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.linkproof.transfer.Availability;
import dev.linkproof.transfer.MemoryPlacement;
import dev.linkproof.transfer.TransferSpec;
import dev.linkproof.transfer.gpu.FakeGpu;
import dev.linkproof.transfer.gpu.select.GpuRuntimes;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * GPU memory on the ucx transport asks UCX itself which memory types it can move
 * ({@code ucp_context_query}): Debian's libucx0 has no CUDA or ROCm transports, so with a GPU runtime
 * loaded (the fake one here) the points are refused with UCX's own list — never run on a path that
 * would silently fall back to host memory or crash.
 */
class UcxGpuMemoryTest {
    private String savedRuntime;
    private String savedLibrary;

    @AfterEach
    void restore() {
        restore(GpuRuntimes.RUNTIME, savedRuntime);
        restore(GpuRuntimes.CUDA_LIBRARY, savedLibrary);
    }

    private static void restore(String key, String value) {
        if (value == null) {
            System.clearProperty(key);
        } else {
            System.setProperty(key, value);
        }
    }

    @Test
    void aUcxWithoutGpuTransportsRefusesGpuMemoryWithItsOwnMemoryTypes() throws Exception {
        assumeTrue(Ucx.unavailableReason() == null, () -> "libucp absent: " + Ucx.unavailableReason());
        savedRuntime = System.getProperty(GpuRuntimes.RUNTIME);
        savedLibrary = System.getProperty(GpuRuntimes.CUDA_LIBRARY);
        System.setProperty(GpuRuntimes.RUNTIME, "cuda");
        System.setProperty(GpuRuntimes.CUDA_LIBRARY, FakeGpu.cuda().toString());
        UcxTransport ucx = new UcxTransport();
        TransferSpec hostToGpu = TransferSpec.builder()
                .transport("ucx")
                .targetMemory(MemoryPlacement.parse("gpu"))
                .settings(Map.of("UCX_TLS", "shm"))
                .build();
        Availability a = ucx.supports(hostToGpu);
        assertThat(a.available()).isFalse();
        assertThat(a.reason())
                .startsWith("UCX 1.")
                .contains("has no transport for cuda memory: its context supports host")
                .doesNotContain("cuda,")
                .contains("a UCX built with CUDA support is needed");
        assertThat(ucx.supports(TransferSpec.builder().transport("ucx").build()).available())
                .isTrue();
    }

    @Test
    void withoutAGpuRuntimeTheRuntimesReasonComesFirst() {
        assumeTrue(Ucx.unavailableReason() == null, () -> "libucp absent: " + Ucx.unavailableReason());
        savedRuntime = System.getProperty(GpuRuntimes.RUNTIME);
        savedLibrary = System.getProperty(GpuRuntimes.CUDA_LIBRARY);
        System.setProperty(GpuRuntimes.RUNTIME, "none");
        Availability a = new UcxTransport()
                .supports(TransferSpec.builder()
                        .transport("ucx")
                        .initiatorMemory(MemoryPlacement.parse("gpu"))
                        .build());
        assertThat(a.reason()).isEqualTo("GPU unavailable: linkproof.gpu.runtime=none");
    }

    @Test
    void memoryTypesAreNamedAsUcxNamesThem() {
        assertThat(UcxTransport.memoryTypeNames(0b1001)).isEqualTo("host, rocm");
        assertThat(UcxTransport.memoryTypeNames(0)).isEqualTo("none");
        assertThat(UcxTransport.memoryTypeName(Ucx.UCS_MEMORY_TYPE_CUDA)).isEqualTo("cuda");
    }
}
