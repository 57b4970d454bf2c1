package dev.linkproof.transfer;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

class MemoryPlacementTest {
    @Test
    void parsesKindsAndDevices() {
        assertThat(MemoryPlacement.parse("host")).isEqualTo(MemoryPlacement.HOST);
        assertThat(MemoryPlacement.parse(" HugePage ")).isEqualTo(new MemoryPlacement(MemoryKind.HUGEPAGE, 0));
        assertThat(MemoryPlacement.parse("gpu")).isEqualTo(new MemoryPlacement(MemoryKind.GPU, 0));
        assertThat(MemoryPlacement.parse("gpu:3")).isEqualTo(new MemoryPlacement(MemoryKind.GPU, 3));
    }

    @Test
    void printsWhatItParses() {
        for (String s : new String[] {"host", "hugepage", "gpu", "gpu:1", "gpu:12"}) {
            assertThat(MemoryPlacement.parse(s).toString()).isEqualTo(s);
        }
        assertThat(MemoryPlacement.parse("gpu:0").toString()).isEqualTo("gpu");
    }

    @Test
    void refusesWhatItCannotParse() {
        assertThatThrownBy(() -> MemoryPlacement.parse("ram")).hasMessageContaining("unknown memory kind 'ram'");
        assertThatThrownBy(() -> MemoryPlacement.parse("host:1"))
                .hasMessageContaining("only gpu memory takes a device index");
        assertThatThrownBy(() -> MemoryPlacement.parse("gpu:x")).hasMessageContaining("bad device index in 'gpu:x'");
        assertThatThrownBy(() -> MemoryPlacement.parse("gpu:-1")).hasMessageContaining("device index must be >= 0");
        assertThatThrownBy(() -> new MemoryPlacement(null, 0)).hasMessageContaining("memory kind is required");
    }
}
