package dev.linkproof.transfer.validate;

import dev.linkproof.transfer.SlotLayout;
import dev.linkproof.transfer.TransferSpec;
import java.lang.foreign.MemorySegment;

/** Writes and checks one generation of the pattern over every slot of a point's buffer. */
public final class SlotPatterns {
    private SlotPatterns() {}

    public static void fill(MemorySegment segment, TransferSpec spec, int rank, int generation) {
        long hash = Pattern.pointHash(spec.pointId());
        SlotLayout slots = spec.slots();
        for (int slot = 0; slot < spec.batch(); slot++) {
            Pattern.fill(segment, slots.slotOffset(slot), spec.size(), Pattern.seed(rank, hash, slot, generation));
        }
    }

    /**
     * Locates the first byte of {@code slot} that is not the pattern {@code rank} wrote in
     * {@code generation}; empty when the slot is intact.
     */
    public static java.util.Optional<Mismatch> locate(
            MemorySegment segment, TransferSpec spec, int slot, int rank, int generation) {
        long seed = Pattern.seed(rank, Pattern.pointHash(spec.pointId()), slot, generation);
        long start = spec.slots().slotOffset(slot);
        long at = Pattern.firstMismatch(segment, start, spec.size(), seed);
        if (at < 0) {
            return java.util.Optional.empty();
        }
        return java.util.Optional.of(new Mismatch(
                slot,
                at,
                Pattern.byteAt(seed, at) & 0xFF,
                segment.get(java.lang.foreign.ValueLayout.JAVA_BYTE, start + at) & 0xFF));
    }
}
