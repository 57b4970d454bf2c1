package dev.linkproof.transfer.validate;

import java.util.Optional;

/**
 * Outcome of a point's verification pass: the receiver's per-slot checksums against the owner's.
 *
 * @param slots       slots compared
 * @param bytes       bytes covered by the comparison
 * @param badSlots    number of slots whose checksums differ
 * @param firstBad    the first bad byte, when any slot differs
 */
public record Validation(int slots, long bytes, int badSlots, Optional<Mismatch> firstBad) {
    public boolean passed() {
        return badSlots == 0;
    }

    public String describe() {
        if (passed()) {
            return "data valid: " + slots + " slot(s), " + bytes + " bytes, checksums match";
        }
        return "data corruption: " + badSlots + " of " + slots + " slot(s) differ; first at "
                + firstBad.map(Mismatch::describe).orElse("an unlocated byte");
    }
}
