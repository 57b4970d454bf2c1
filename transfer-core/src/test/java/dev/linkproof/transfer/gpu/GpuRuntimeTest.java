package dev.linkproof.transfer.gpu;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.linkproof.transfer.gpu.cuda.CudaRuntime;
import dev.linkproof.transfer.gpu.hip.HipRuntime;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Both bindings against the fake runtime (src/test/c/fake_gpu.c), through the one vendor-neutral
 * interface: the same test body runs on CUDA and on HIP. The fake is strict (a current context for
 * every CUDA call, device pointers that must lie inside an allocation, IPC only across processes),
 * so argument mistakes in the bindings fail here, on a machine without a GPU.
 */
@Timeout(60)
class GpuRuntimeTest {
    static Stream<Arguments> runtimes() throws Exception {
        return Stream.of(
                Arguments.of("cuda", CudaRuntime.load(FakeGpu.cuda().toString())),
                Arguments.of("hip", HipRuntime.load(List.of(FakeGpu.hip().toString()))));
    }

    @AfterEach
    void clearKnobs() {
        FakeGpu.setenv("FAKE_GPU_HANG", null);
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("runtimes")
    void listsTheDevicesWithTheirNamesAndBusIds(String api, GpuRuntime rt) {
        assertThat(rt.api()).isEqualTo(api);
        assertThat(rt.vendor()).isEqualTo(api.equals("cuda") ? "nvidia" : "amd");
        assertThat(rt.deviceCount()).isEqualTo(1);
        GpuDeviceInfo d = rt.devices().get(0);
        assertThat(d.name()).isEqualTo("Linkproof fake GPU 0 (test double)");
        assertThat(d.pciBusId()).isEqualTo("0000:a0:00.0");
        assertThat(d.totalBytes()).isEqualTo(8L << 30);
        assertThat(d.dmabufSupported()).isTrue();
        assertThat(rt.describe()).contains(api.equals("cuda") ? "CUDA driver API 12.8" : "HIP 6.2");
        assertThat(rt.ucxMemoryType()).isEqualTo(api.equals("cuda") ? 1 : 3);
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("runtimes")
    void copiesRoundTripThroughDeviceMemory(String api, GpuRuntime rt) throws Exception {
        long a = rt.allocate(0, 1 << 20);
        long b = rt.allocate(0, 1 << 20);
        try (Arena arena = Arena.ofConfined();
                GpuStream s = rt.openStream(0, 2)) {
            MemorySegment src = arena.allocate(1 << 20);
            MemorySegment dst = arena.allocate(1 << 20);
            for (int i = 0; i < src.byteSize(); i++) {
                src.set(ValueLayout.JAVA_BYTE, i, (byte) (i * 31 + 7));
            }
            s.copyHostToDevice(a + 4096, src.address(), 65536);
            s.copyDeviceToDevice(b, a + 4096, 65536);
            s.mark(1);
            s.await(1, 1_000_000_000L);
            s.copyDeviceToHost(dst.address(), b, 65536);
            s.synchronize(1_000_000_000L);
            assertThat(dst.asSlice(0, 65536).mismatch(src.asSlice(0, 65536))).isEqualTo(-1);
            assertThat(s.idle()).isTrue();
        } finally {
            rt.free(0, a);
            rt.free(0, b);
        }
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("runtimes")
    void aCopyOutsideAnAllocationFailsWithTheRuntimesOwnError(String api, GpuRuntime rt) throws Exception {
        long a = rt.allocate(0, 4096);
        try (Arena arena = Arena.ofConfined();
                GpuStream s = rt.openStream(0, 1)) {
            MemorySegment host = arena.allocate(8192);
            assertThatThrownBy(() -> s.copyHostToDevice(a, host.address(), 8192))
                    .isInstanceOf(GpuException.class)
                    .hasMessageContaining(
                            api.equals("cuda")
                                    ? "cuMemcpyHtoDAsync_v2(8192 bytes): CUDA_ERROR_INVALID_VALUE (invalid argument)"
                                    : "hipMemcpyAsync(HostToDevice)(8192 bytes): hipErrorInvalidValue (invalid"
                                            + " argument)");
            // A host address is no device pointer.
            assertThatThrownBy(() -> s.copyDeviceToDevice(host.address(), a, 16))
                    .isInstanceOf(GpuException.class)
                    .satisfies(e -> assertThat(((GpuException) e).code()).isEqualTo(1));
        } finally {
            rt.free(0, a);
        }
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("runtimes")
    void aMissingDeviceIsRefusedBeforeAnyCall(String api, GpuRuntime rt) {
        assertThatThrownBy(() -> rt.allocate(3, 4096))
                .isInstanceOf(GpuException.class)
                .hasMessage("no " + (api.equals("cuda") ? "CUDA" : "HIP") + " device 3 (this process sees 1)");
        assertThatThrownBy(() -> rt.openStream(0, 0)).hasMessageContaining("at least one marker");
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("runtimes")
    void ipcHandlesAreSixtyFourBytesAndOpenOnlyInAnotherProcess(String api, GpuRuntime rt) throws Exception {
        long a = rt.allocate(0, 1 << 16);
        try {
            byte[] handle = rt.exportIpc(0, a);
            assertThat(handle).hasSize(GpuRuntime.IPC_HANDLE_BYTES);
            assertThatThrownBy(() -> rt.exportIpc(0, a + 64))
                    .isInstanceOf(GpuException.class)
                    .hasMessageContaining(api.equals("cuda") ? "cuIpcGetMemHandle" : "hipIpcGetMemHandle");
            assertThatThrownBy(() -> rt.openIpc(0, handle))
                    .isInstanceOf(GpuException.class)
                    .hasMessageContaining(api.equals("cuda") ? "CUDA_ERROR_INVALID_CONTEXT" : "hipErrorInvalidContext");
            assertThatThrownBy(() -> rt.openIpc(0, new byte[12])).hasMessageContaining("has 64 bytes, this one 12");
        } finally {
            rt.free(0, a);
        }
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("runtimes")
    void exportsDeviceMemoryAsADmabufFileDescriptor(String api, GpuRuntime rt) throws Exception {
        long a = rt.allocate(0, 1 << 16);
        try {
            int fd = rt.exportDmabuf(0, a, 1 << 16);
            assertThat(fd).isGreaterThan(2);
            assertThatThrownBy(() -> rt.exportDmabuf(0, a + 1, 4096)).isInstanceOf(GpuException.class);
        } finally {
            rt.free(0, a);
        }
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("runtimes")
    void aStreamThatNeverFinishesFailsAtItsDeadline(String api, GpuRuntime rt) throws Exception {
        try (GpuStream s = rt.openStream(0, 1)) {
            s.mark(0);
            FakeGpu.setenv("FAKE_GPU_HANG", "1");
            long t0 = System.nanoTime();
            assertThatThrownBy(() -> s.await(0, 200_000_000L))
                    .isInstanceOf(GpuException.class)
                    .hasMessageContaining("did not finish its queued copies within 200 ms");
            assertThat(System.nanoTime() - t0).isBetween(190_000_000L, 5_000_000_000L);
            assertThatThrownBy(() -> s.synchronize(50_000_000L)).hasMessageContaining("within 50 ms");
        }
    }
}
