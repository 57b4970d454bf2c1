package dev.linkproof.transfer.gpu.select;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.linkproof.transfer.Availability;
import dev.linkproof.transfer.gpu.FakeGpu;
import dev.linkproof.transfer.gpu.GpuException;
import dev.linkproof.transfer.testing.SavedProperties;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * How the process picks its GPU runtime, and what it says when there is none: every reason, from
 * the library that is not there to the vendor's own error for a GPU that is not there.
 */
class GpuRuntimesTest {
    private final SavedProperties saved = new SavedProperties();

    private void set(String key, String value) {
        saved.set(key, value);
    }

    @AfterEach
    void restore() {
        saved.restore();
        FakeGpu.setenv("FAKE_GPU_INIT_ERROR", null);
    }

    @Test
    void withNoLibraryEveryRuntimeSaysWhyAndNothingCrashes() {
        set(GpuRuntimes.CUDA_LIBRARY, "/nonexistent/libcuda.so.1");
        set(GpuRuntimes.HIP_LIBRARY, "/nonexistent/libamdhip64.so");
        Availability a = GpuRuntimes.availability();
        assertThat(a.available()).isFalse();
        assertThat(a.reason())
                .isEqualTo(
                        "GPU unavailable: cuda: /nonexistent/libcuda.so.1 cannot be loaded: /nonexistent/libcuda.so.1:"
                            + " cannot open shared object file: No such file or directory (the NVIDIA driver provides"
                            + " it); hip: /nonexistent/libamdhip64.so cannot be loaded: /nonexistent/libamdhip64.so:"
                            + " cannot open shared object file: No such file or directory (ROCm provides it; Debian:"
                            + " apt-get install libamdhip64-5)");
        assertThat(GpuRuntimes.find()).isEmpty();
        assertThatThrownBy(GpuRuntimes::require)
                .isInstanceOf(GpuException.class)
                .hasMessage(a.reason());
        assertThat(GpuRuntimes.availability(0).reason()).isEqualTo(a.reason());
    }

    /**
     * A library that is there but cannot be loaded was reported "not found", the loader's own error
     * dropped: each runtime now says what the dynamic loader said of the file.
     */
    @Test
    void aFileThatIsNotALibraryIsReportedInTheLoadersOwnWords(@TempDir Path dir) throws Exception {
        Path cuda = Files.writeString(dir.resolve("libcuda.so.1"), "not a shared object, only text. ".repeat(8));
        Path hip = Files.writeString(dir.resolve("libamdhip64.so"), "not a shared object either. ".repeat(8));
        set(GpuRuntimes.CUDA_LIBRARY, cuda.toString());
        set(GpuRuntimes.HIP_LIBRARY, hip.toString());
        assertThat(GpuRuntimes.availability().reason())
                .isEqualTo("GPU unavailable: cuda: " + cuda + " cannot be loaded: "
                        + cuda + ": invalid ELF header (the NVIDIA driver provides it); hip: " + hip
                        + " cannot be loaded: " + hip
                        + ": invalid ELF header (ROCm provides it; Debian: apt-get install libamdhip64-5)");
    }

    @Test
    void theRealHipLibraryWithoutAGpuGivesRocmsOwnReason() {
        set(GpuRuntimes.RUNTIME, "hip");
        Availability a = GpuRuntimes.availability();
        assertThat(a.available()).isFalse();
        boolean installed = Files.exists(Path.of("/usr/lib/x86_64-linux-gnu/libamdhip64.so.5"))
                || Files.exists(Path.of("/usr/lib/x86_64-linux-gnu/libamdhip64.so"));
        if (installed) {
            // Debian's libamdhip64-5 (scripts/setup.sh --test installs it): ROCm itself reports the missing GPU.
            assertThat(a.reason())
                    .startsWith("GPU unavailable: hip: hipInit: hipErrorInvalidDevice")
                    .contains("hipGetDeviceCount: hipErrorNoDevice");
        } else {
            assertThat(a.reason())
                    .startsWith("GPU unavailable: hip: libamdhip64.so, libamdhip64.so.6, libamdhip64.so.5 cannot be"
                            + " loaded: libamdhip64.so: cannot open shared object file: No such file or directory"
                            + " / libamdhip64.so.6: ");
        }
    }

    @Test
    void aDriverThatFindsNoDeviceIsReportedWithItsErrorName() throws Exception {
        set(GpuRuntimes.RUNTIME, "cuda");
        set(GpuRuntimes.CUDA_LIBRARY, FakeGpu.cuda().toString());
        FakeGpu.setenv("FAKE_GPU_INIT_ERROR", "100");
        assertThat(GpuRuntimes.availability().reason())
                .isEqualTo("GPU unavailable: cuda: cuInit: CUDA_ERROR_NO_DEVICE (no GPU device is detected (fake"
                        + " runtime)) [cuda error 100]");
    }

    @Test
    void autoTakesCudaFirstThenHip() throws Exception {
        set(GpuRuntimes.CUDA_LIBRARY, "/nonexistent/libcuda.so.1");
        set(GpuRuntimes.HIP_LIBRARY, FakeGpu.hip().toString());
        assertThat(GpuRuntimes.find())
                .hasValueSatisfying(rt -> assertThat(rt.api()).isEqualTo("hip"));
        assertThat(GpuRuntimes.availability().reason()).startsWith("HIP 6.2 (").endsWith("1 device(s)");
        set(GpuRuntimes.CUDA_LIBRARY, FakeGpu.cuda().toString());
        assertThat(GpuRuntimes.find())
                .hasValueSatisfying(rt -> assertThat(rt.api()).isEqualTo("cuda"));
        assertThat(GpuRuntimes.availability(1).reason())
                .isEqualTo("no GPU 1: " + GpuRuntimes.find().get().describe() + " sees 1 device(s)");
        assertThat(GpuRuntimes.availability(0).reason()).endsWith(": Linkproof fake GPU 0 (test double)");
    }

    @Test
    void noneAndUnknownRuntimesAreSaidPlainly() {
        set(GpuRuntimes.RUNTIME, "none");
        assertThat(GpuRuntimes.availability().reason()).isEqualTo("GPU unavailable: linkproof.gpu.runtime=none");
        set(GpuRuntimes.RUNTIME, "opencl");
        assertThat(GpuRuntimes.availability().reason())
                .isEqualTo(
                        "GPU unavailable: unknown linkproof.gpu.runtime 'opencl' (expected auto, cuda, hip or none)");
    }
}
