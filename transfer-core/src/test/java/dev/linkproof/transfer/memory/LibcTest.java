package dev.linkproof.transfer.memory;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import org.junit.jupiter.api.Test;

class LibcTest {
    @Test
    void anonymousMappingsArePageAlignedWritableAndUnmap() {
        MemorySegment m = Libc.mmapAnonymous(3 * 4096, 0);
        assertThat(m.byteSize()).isEqualTo(3 * 4096);
        assertThat(m.address() % 4096).isZero();
        assertThat(m.get(ValueLayout.JAVA_BYTE, 4096)).isZero();
        m.set(ValueLayout.JAVA_BYTE, 3 * 4096 - 1, (byte) 7);
        assertThat(m.get(ValueLayout.JAVA_BYTE, 3 * 4096 - 1)).isEqualTo((byte) 7);
        Libc.munmap(m);
    }

    @Test
    void aFailedMmapQuotesErrno() {
        assumeTrue(HostMemory.hugepagesUnavailable().isPresent(), "this host has huge pages, so MAP_HUGETLB succeeds");
        assertThatThrownBy(() -> Libc.mmapAnonymous(HostMemory.hugepageSize(), Libc.MAP_HUGETLB))
                .isInstanceOf(OutOfMemoryError.class)
                .hasMessageStartingWith("mmap of " + HostMemory.hugepageSize() + " bytes failed: ")
                .hasMessageContaining("(errno ");
    }

    @Test
    void strerrorNamesTheError() {
        assertThat(Libc.strerror(2)).isEqualTo("No such file or directory");
        assertThat(Libc.strerror(12)).isEqualTo("Cannot allocate memory");
    }
}
