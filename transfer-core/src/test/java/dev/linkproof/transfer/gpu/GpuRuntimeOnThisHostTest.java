package dev.linkproof.transfer.gpu;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.linkproof.transfer.gpu.select.GpuRuntimes;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * The binding against the GPU runtime this host really has (whatever {@link GpuRuntimes#find}
 * picks, as the engine does), for a GPU runner and scripts/gpu-check.sh: GpuRuntimeTest holds the
 * bindings to a strict fake, this holds them to the vendor's driver. Only what every real driver
 * does is asserted — e.g. not that a copy a few bytes past an allocation fails, which the fake
 * enforces but a driver that rounds allocations up to its page size does not. Without a GPU runtime
 * every test is skipped with the runtime's own reason. Locally against the fake:
 * {@code LINKPROOF_GPU_RUNTIME=cuda LINKPROOF_GPU_CUDA_LIBRARY=$PWD/transfer-core/target/fake-gpu/libfakegpu.so}.
 */
@Tag("gpu")
@Timeout(60)
class GpuRuntimeOnThisHostTest {
    private static GpuRuntime rt;

    @BeforeAll
    static void findTheRuntime() {
        var available = GpuRuntimes.availability();
        assumeTrue(available.available(), available.reason());
        rt = GpuRuntimes.find().orElseThrow();
    }

    @Test
    void listsItsDevicesWithTheFactsTheProbeAndTheProfilesUse() {
        assertThat(rt.api()).isIn("cuda", "hip");
        assertThat(rt.vendor()).isEqualTo(rt.api().equals("cuda") ? "nvidia" : "amd");
        assertThat(rt.describe()).contains(rt.api().equals("cuda") ? "CUDA driver API" : "HIP");
        assertThat(rt.deviceCount()).isPositive();
        for (int i = 0; i < rt.deviceCount(); i++) {
            GpuDeviceInfo d = rt.devices().get(i);
            assertThat(d.index()).isEqualTo(i);
            assertThat(d.name()).isNotBlank();
            // lower case and domain-qualified, so it compares with /sys/bus/pci/devices names
            assertThat(d.pciBusId()).matches("[0-9a-f]{4,8}:[0-9a-f]{2}:[0-9a-f]{2}\\.[0-7]");
            assertThat(d.totalBytes()).isGreaterThan(1L << 30);
        }
    }

    @Test
    void copiesRoundTripHostToDeviceToDeviceToHost() throws Exception {
        long n = 64L << 20;
        long a = rt.allocate(0, n);
        long b = rt.allocate(0, n);
        try (Arena arena = Arena.ofConfined();
                GpuStream s = rt.openStream(0, 2)) {
            MemorySegment src = arena.allocate(n);
            MemorySegment dst = arena.allocate(n);
            for (long i = 0; i < n; i += 8) {
                src.set(ValueLayout.JAVA_LONG_UNALIGNED, i, i * 0x9E3779B97F4A7C15L);
            }
            // odd offsets and lengths: the bytes around each copy must be left alone
            MemorySegment fill = arena.allocate(n).fill((byte) 0x5A);
            s.copyHostToDevice(b, fill.address(), n);
            s.copyHostToDevice(a, src.address(), n);
            s.copyDeviceToDevice(b + 7, a + 3, n - 4099);
            s.mark(1);
            s.await(1, 10_000_000_000L);
            s.copyDeviceToHost(dst.address(), b, n);
            s.synchronize(10_000_000_000L);
            assertThat(dst.asSlice(7, n - 4099).mismatch(src.asSlice(3, n - 4099)))
                    .isEqualTo(-1);
            assertThat(dst.asSlice(0, 7).mismatch(fill.asSlice(0, 7)))
                    .as("before the copy")
                    .isEqualTo(-1);
            assertThat(dst.asSlice(7 + n - 4099).mismatch(fill.asSlice(7 + n - 4099)))
                    .as("after the copy")
                    .isEqualTo(-1);
            assertThat(s.idle()).isTrue();
        } finally {
            rt.free(0, a);
            rt.free(0, b);
        }
    }

    @Test
    void anAllocationLargerThanTheDeviceFailsWithTheRuntimesOwnError() {
        long tooMuch = rt.devices().get(0).totalBytes() * 4;
        assertThatThrownBy(() -> rt.allocate(0, tooMuch))
                .isInstanceOf(GpuException.class)
                .hasMessageContaining(rt.api().equals("cuda") ? "CUDA_ERROR_OUT_OF_MEMORY" : "hipErrorOutOfMemory")
                .satisfies(e -> assertThat(((GpuException) e).code()).isNotZero());
        assertThatThrownBy(() -> rt.allocate(rt.deviceCount(), 4096))
                .isInstanceOf(GpuException.class)
                .hasMessageContaining("(this process sees " + rt.deviceCount() + ")");
    }

    @Test
    void exportsAnIpcHandleThatOnlyAnotherProcessMayOpen() throws Exception {
        long a = rt.allocate(0, 2L << 20);
        try {
            byte[] handle = rt.exportIpc(0, a);
            assertThat(handle).hasSize(GpuRuntime.IPC_HANDLE_BYTES).isNotEqualTo(new byte[GpuRuntime.IPC_HANDLE_BYTES]);
            // the drivers refuse a process its own handles; the gpu-ipc suite opens them in the target rank
            assertThatThrownBy(() -> rt.openIpc(0, handle))
                    .isInstanceOf(GpuException.class)
                    .hasMessageContaining(rt.api().equals("cuda") ? "cuIpcOpenMemHandle" : "hipIpcOpenMemHandle");
        } finally {
            rt.free(0, a);
        }
    }

    @Test
    void exportsDeviceMemoryAsADmabufWhereTheDeviceSaysItCan() throws Exception {
        long a = rt.allocate(0, 2L << 20);
        try {
            if (rt.devices().get(0).dmabufSupported()) {
                assertThat(rt.exportDmabuf(0, a, 2L << 20)).isGreaterThan(2);
            } else {
                assertThatThrownBy(() -> rt.exportDmabuf(0, a, 2L << 20))
                        .isInstanceOf(GpuException.class)
                        .satisfies(
                                e -> assertThat(e.getMessage()).containsAnyOf("dma-buf", "GetHandleForAddressRange"));
            }
        } finally {
            rt.free(0, a);
        }
    }
}
