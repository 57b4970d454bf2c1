package dev.linkproof.transfer;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class SlotLayoutTest {

    @Test
    void contiguousSlotsFollowEachOther() {
        SlotLayout l = new SlotLayout(Layout.CONTIGUOUS, 100, 4, 0);
        assertThat(l.stride()).isEqualTo(100);
        assertThat(l.slotOffset(0)).isZero();
        assertThat(l.slotOffset(1)).isEqualTo(100);
        assertThat(l.slotOffset(3)).isEqualTo(300);
        assertThat(l.regionBytes()).isEqualTo(400);
    }

    @Test
    void offsetShiftsEverySlotAndTheRegion() {
        SlotLayout l = new SlotLayout(Layout.CONTIGUOUS, 100, 4, 7);
        assertThat(l.slotOffset(0)).isEqualTo(7);
        assertThat(l.slotOffset(3)).isEqualTo(307);
        assertThat(l.regionBytes()).isEqualTo(407);
    }

    @ParameterizedTest(name = "size {0}: stride {1}")
    @CsvSource({"1, 8192", "100, 8192", "4095, 8192", "4096, 8192", "4097, 12288", "8192, 12288", "65537, 73728"})
    void stridedSlotsArePageRoundedWithAGuardPage(long size, long stride) {
        SlotLayout l = new SlotLayout(Layout.STRIDED, size, 3, 0);
        assertThat(l.stride()).isEqualTo(stride);
        assertThat(l.slotOffset(0)).isZero();
        assertThat(l.slotOffset(1)).isEqualTo(stride);
        assertThat(l.slotOffset(2)).isEqualTo(2 * stride);
        assertThat(l.regionBytes()).isEqualTo(2 * stride + size);
        for (int slot = 0; slot < 3; slot++) {
            assertThat(l.slotOffset(slot) % 4096)
                    .as("slot %d starts on a page", slot)
                    .isZero();
        }
        for (int slot = 0; slot + 1 < 3; slot++) {
            long gap = l.slotOffset(slot + 1) - (l.slotOffset(slot) + size);
            assertThat(gap).as("guard after slot %d", slot).isGreaterThanOrEqualTo(4096);
        }
    }

    @Test
    void stridedWithOffsetKeepsTheMisalignment() {
        SlotLayout l = new SlotLayout(Layout.STRIDED, 4097, 4, 5);
        assertThat(l.slotOffset(0)).isEqualTo(5);
        assertThat(l.slotOffset(3)).isEqualTo(5 + 3 * 12288);
        assertThat(l.slotOffset(3) % 4096).isEqualTo(5);
        assertThat(l.regionBytes()).isEqualTo(5 + 3 * 12288 + 4097);
    }

    @Test
    void offsetsBeyondTwoGibibytesDoNotOverflow() {
        SlotLayout l = new SlotLayout(Layout.CONTIGUOUS, 1 << 20, 4096, 0);
        assertThat(l.slotOffset(4095)).isEqualTo(4095L << 20);
        assertThat(l.regionBytes()).isEqualTo(4096L << 20);
    }

    @Test
    void slotIndexOutsideTheBatchIsRefused() {
        SlotLayout l = new SlotLayout(Layout.CONTIGUOUS, 8, 4, 0);
        assertThatThrownBy(() -> l.slotOffset(4))
                .isInstanceOf(IndexOutOfBoundsException.class)
                .hasMessage("slot 4 out of range 0..3");
        assertThatThrownBy(() -> l.slotOffset(-1))
                .isInstanceOf(IndexOutOfBoundsException.class)
                .hasMessage("slot -1 out of range 0..3");
    }

    @Test
    void singleSlotRegionIsOffsetPlusSize() {
        assertThat(new SlotLayout(Layout.STRIDED, 10, 1, 3).regionBytes()).isEqualTo(13);
        assertThat(new SlotLayout(Layout.CONTIGUOUS, 10, 1, 0).regionBytes()).isEqualTo(10);
    }
}
