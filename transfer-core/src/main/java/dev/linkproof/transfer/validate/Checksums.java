package dev.linkproof.transfer.validate;

import dev.linkproof.transfer.SlotLayout;
import java.lang.foreign.MemorySegment;
import java.nio.ByteBuffer;
import java.util.zip.CRC32;
import java.util.zip.CRC32C;

/**
 * The 64-bit checksum each receiver computes per slot: CRC-32C in the high word and CRC-32 (IEEE)
 * in the low word. Both are JDK intrinsics (tens of GB/s), so checksumming a 64 MiB slot costs
 * milliseconds, and two independent polynomials make an undetected corruption vanishingly rare.
 */
public final class Checksums {
    private Checksums() {}

    public static long of(MemorySegment segment, long offset, long length) {
        CRC32C c = new CRC32C();
        CRC32 d = new CRC32();
        // ByteBuffer views are int-indexed: walk large slots in 1 GiB pieces.
        long done = 0;
        while (done < length) {
            long piece = Math.min(length - done, 1L << 30);
            ByteBuffer view = segment.asSlice(offset + done, piece).asByteBuffer();
            c.update(view.duplicate());
            d.update(view);
            done += piece;
        }
        return (c.getValue() << 32) | d.getValue();
    }

    /** One checksum per slot of {@code layout} in {@code segment}. */
    public static long[] ofSlots(MemorySegment segment, SlotLayout layout) {
        long[] sums = new long[layout.batch()];
        for (int slot = 0; slot < sums.length; slot++) {
            sums[slot] = of(segment, layout.slotOffset(slot), layout.size());
        }
        return sums;
    }

    public static String hex(long checksum) {
        return String.format("%016x", checksum);
    }
}
