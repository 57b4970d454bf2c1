package dev.linkproof.transfer.validate;

import static org.assertj.core.api.Assertions.assertThat;

import dev.linkproof.transfer.Layout;
import dev.linkproof.transfer.SlotLayout;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

class ChecksumsTest {
    private final Arena arena = Arena.ofConfined();

    @AfterEach
    void free() {
        arena.close();
    }

    @Test
    void isCrc32cHighAndCrc32Low() {
        // The standard check values of both polynomials over "123456789".
        MemorySegment s = arena.allocateFrom("123456789", StandardCharsets.US_ASCII);
        assertThat(Checksums.of(s, 0, 9)).isEqualTo(0xE3069283_CBF43926L);
        assertThat(Checksums.hex(Checksums.of(s, 0, 9))).isEqualTo("e3069283cbf43926");
    }

    @Test
    void checksumCoversExactlyTheGivenRange() {
        MemorySegment s = arena.allocate(32);
        s.asSlice(4, 9).copyFrom(MemorySegment.ofArray("123456789".getBytes(StandardCharsets.US_ASCII)));
        assertThat(Checksums.of(s, 4, 9)).isEqualTo(0xE3069283_CBF43926L);
        s.set(ValueLayout.JAVA_BYTE, 3, (byte) 1);
        s.set(ValueLayout.JAVA_BYTE, 13, (byte) 1);
        assertThat(Checksums.of(s, 4, 9)).isEqualTo(0xE3069283_CBF43926L);
    }

    @Test
    void changesWhenAnySingleByteOrBitFlips() {
        int length = 4099;
        MemorySegment s = arena.allocate(length + 1);
        Pattern.fill(s, 1, length, Pattern.seed(0, 1, 0, 0));
        long clean = Checksums.of(s, 1, length);
        assertThat(Checksums.of(s, 1, length)).isEqualTo(clean);
        for (long i : new long[] {0, 1, 7, 8, 2048, 4095, 4096, 4097, 4098}) {
            for (int mask : new int[] {0x01, 0x80, 0xFF}) {
                flip(s, 1 + i, mask);
                assertThat(Checksums.of(s, 1, length))
                        .as("byte %d mask %x", i, mask)
                        .isNotEqualTo(clean);
                flip(s, 1 + i, mask);
            }
        }
        assertThat(Checksums.of(s, 1, length)).isEqualTo(clean);
    }

    @Test
    void changesWhenTwoBytesSwap() {
        MemorySegment s = arena.allocate(64);
        Pattern.fill(s, 0, 64, Pattern.seed(0, 2, 0, 0));
        long clean = Checksums.of(s, 0, 64);
        byte a = s.get(ValueLayout.JAVA_BYTE, 10);
        byte b = s.get(ValueLayout.JAVA_BYTE, 11);
        assertThat(a).isNotEqualTo(b);
        s.set(ValueLayout.JAVA_BYTE, 10, b);
        s.set(ValueLayout.JAVA_BYTE, 11, a);
        assertThat(Checksums.of(s, 0, 64)).isNotEqualTo(clean);
    }

    @Test
    void oneChecksumPerSlotAndOnlyTheCorruptSlotChanges() {
        SlotLayout layout = new SlotLayout(Layout.STRIDED, 1000, 4, 3);
        MemorySegment s = arena.allocate(layout.regionBytes());
        for (int slot = 0; slot < 4; slot++) {
            Pattern.fill(s, layout.slotOffset(slot), 1000, Pattern.seed(0, 9, slot, 0));
        }
        long[] clean = Checksums.ofSlots(s, layout);
        assertThat(clean).hasSize(4).doesNotHaveDuplicates();

        flip(s, layout.slotOffset(2) + 999, 0x04);
        long[] after = Checksums.ofSlots(s, layout);
        assertThat(after[0]).isEqualTo(clean[0]);
        assertThat(after[1]).isEqualTo(clean[1]);
        assertThat(after[2]).isNotEqualTo(clean[2]);
        assertThat(after[3]).isEqualTo(clean[3]);
        flip(s, layout.slotOffset(2) + 999, 0x04);

        // the guard bytes between strided slots are no slot's business
        flip(s, layout.slotOffset(1) + 1000, 0xFF);
        flip(s, 0, 0xFF);
        assertThat(Checksums.ofSlots(s, layout)).isEqualTo(clean);
    }

    @Test
    void hexIsSixteenDigitsZeroPadded() {
        assertThat(Checksums.hex(1)).isEqualTo("0000000000000001");
        assertThat(Checksums.hex(-1)).isEqualTo("ffffffffffffffff");
        assertThat(Checksums.hex(0)).isEqualTo("0000000000000000");
    }

    private static void flip(MemorySegment s, long at, int mask) {
        s.set(ValueLayout.JAVA_BYTE, at, (byte) (s.get(ValueLayout.JAVA_BYTE, at) ^ mask));
    }
}
