package dev.linkproof.transfer.gpu;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.linkproof.transfer.MemoryKind;
import dev.linkproof.transfer.gpu.cuda.CudaRuntime;
import java.lang.foreign.ValueLayout;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/** Device memory seen through its host copy: what is pushed is what comes back, and nothing else. */
class GpuBufferTest {
    private static GpuRuntime rt;

    @BeforeAll
    static void load() throws Exception {
        rt = CudaRuntime.load(FakeGpu.cuda().toString());
    }

    @Test
    void pushedBytesComeBackAndUnpushedOnesDoNot() throws Exception {
        try (GpuBuffer b = GpuBuffer.allocate(rt, 0, 10_000)) {
            assertThat(b.size()).isEqualTo(10_000);
            assertThat(b.placement().kind()).isEqualTo(MemoryKind.GPU);
            assertThat(b.hostViewIsCopy()).isTrue();
            assertThat(b.segment().address() % 4096).isZero();
            b.segment().fill((byte) 0x11);
            b.pushHostView();
            b.segment().fill((byte) 0x22);
            b.pushHostView(100, 50); // only bytes 100..149 reach the device as 0x22
            b.segment().fill((byte) 0);
            b.pullHostView();
            assertThat(b.segment().get(ValueLayout.JAVA_BYTE, 99)).isEqualTo((byte) 0x11);
            assertThat(b.segment().get(ValueLayout.JAVA_BYTE, 100)).isEqualTo((byte) 0x22);
            assertThat(b.segment().get(ValueLayout.JAVA_BYTE, 149)).isEqualTo((byte) 0x22);
            assertThat(b.segment().get(ValueLayout.JAVA_BYTE, 150)).isEqualTo((byte) 0x11);
            assertThat(b.segment().get(ValueLayout.JAVA_BYTE, 9_999)).isEqualTo((byte) 0x11);
        }
    }

    @Test
    void rangesOutsideTheBufferAndUseAfterCloseAreRefused() throws Exception {
        GpuBuffer b = GpuBuffer.allocate(rt, 0, 4096);
        assertThatThrownBy(() -> b.pushHostView(4000, 200))
                .isInstanceOf(IndexOutOfBoundsException.class)
                .hasMessageContaining("outside the buffer of 4096 bytes");
        assertThatThrownBy(() -> b.pullHostView(-1, 2)).isInstanceOf(IndexOutOfBoundsException.class);
        b.close();
        b.close();
        assertThatThrownBy(b::pushHostView).hasMessageContaining("already freed");
        assertThatThrownBy(() -> GpuBuffer.allocate(rt, 0, 0)).hasMessageContaining("must be positive");
        assertThatThrownBy(() -> GpuBuffer.allocate(rt, 0, 64L << 30))
                .isInstanceOf(GpuException.class)
                .hasMessageContaining("cuMemAlloc_v2(68719476736 bytes on device 0): CUDA_ERROR_OUT_OF_MEMORY");
    }
}
