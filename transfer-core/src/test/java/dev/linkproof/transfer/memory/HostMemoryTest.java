package dev.linkproof.transfer.memory;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.linkproof.transfer.MemoryKind;
import dev.linkproof.transfer.MemoryPlacement;
import java.lang.foreign.ValueLayout;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class HostMemoryTest {

    @ParameterizedTest(name = "{0} bytes")
    @ValueSource(longs = {1, 7, 4095, 4096, 4097, 1 << 20, (1 << 20) + 3})
    void pageAlignedBuffersArePageAlignedAndExactlySized(long bytes) {
        try (Buffer b = HostMemory.pageAligned(bytes)) {
            assertThat(b.segment().address() % HostMemory.PAGE).isZero();
            assertThat(b.size()).isEqualTo(bytes);
            assertThat(b.placement()).isEqualTo(MemoryPlacement.HOST);
            assertThat(b.segment().get(ValueLayout.JAVA_BYTE, 0))
                    .as("arena memory starts zeroed")
                    .isZero();
            b.segment().set(ValueLayout.JAVA_BYTE, bytes - 1, (byte) 9);
            assertThat(b.segment().get(ValueLayout.JAVA_BYTE, bytes - 1)).isEqualTo((byte) 9);
        }
    }

    @Test
    void closeIsIdempotentAndFreesTheMemory() {
        Buffer b = HostMemory.pageAligned(64);
        b.close();
        b.close();
        assertThatThrownBy(() -> b.segment().get(ValueLayout.JAVA_BYTE, 0)).isInstanceOf(IllegalStateException.class);
    }

    @Test
    void nonPositiveSizesAreRefused() {
        assertThatThrownBy(() -> HostMemory.pageAligned(0))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("was 0");
        assertThatThrownBy(() -> HostMemory.pageAligned(-4)).isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void allocateByPlacement() {
        try (Buffer b = HostMemory.allocate(MemoryPlacement.HOST, 100)) {
            assertThat(b.placement().kind()).isEqualTo(MemoryKind.HOST);
            assertThat(b.size()).isEqualTo(100);
        }
        assertThatThrownBy(() -> HostMemory.allocate(new MemoryPlacement(MemoryKind.GPU, 0), 100))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("GPU runtime");
    }

    @Test
    void hugepagesUnavailableSaysWhyFromProcMeminfo() {
        Optional<String> why = HostMemory.hugepagesUnavailable();
        assumeTrue(why.isPresent(), "this host has free huge pages");
        assertThat(why.get()).contains("/proc/meminfo");
        assertThatThrownBy(() -> HostMemory.hugepages(4096))
                .isInstanceOf(IllegalStateException.class)
                .hasMessageStartingWith("hugepages unavailable: ")
                .hasMessageContaining("/proc/meminfo");
        assertThatThrownBy(() -> HostMemory.allocate(new MemoryPlacement(MemoryKind.HUGEPAGE, 0), 4096))
                .isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("/proc/meminfo");
    }

    @Test
    void hugepagesWhereTheHostHasThem() {
        assumeTrue(HostMemory.hugepagesUnavailable().isEmpty(), "this host reserves no free huge pages");
        try (Buffer b = HostMemory.hugepages(4097)) {
            assertThat(b.size()).isEqualTo(4097);
            assertThat(b.segment().address() % HostMemory.hugepageSize()).isZero();
            assertThat(b.placement().kind()).isEqualTo(MemoryKind.HUGEPAGE);
            b.segment().set(ValueLayout.JAVA_BYTE, 4096, (byte) 1);
        }
    }

    @Test
    void hugepageSizeIsReadFromTheKernel() {
        long size = HostMemory.hugepageSize();
        assertThat(size).isPositive();
        assertThat(Long.bitCount(size)).as("a power of two").isEqualTo(1);
    }
}
