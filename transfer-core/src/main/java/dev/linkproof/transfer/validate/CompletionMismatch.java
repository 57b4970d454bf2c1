package dev.linkproof.transfer.validate;

import java.util.Locale;

/**
 * The first completion the receiving rank found wrong: a field of one work completion that differs
 * from what the plan says it must carry, or the completions that never came ({@link #COUNT}).
 *
 * @param slot         the slot the work request's data starts in; -1 when no single completion is meant
 * @param batch        0-based over the whole point (warmup, timed loop, verification pass)
 * @param workRequest  index within the batch, counted queue pair by queue pair
 * @param found        what the completion said; for {@link #IMMEDIATE}, -1 when it carried none
 */
public record CompletionMismatch(
        int slot, long batch, int queuePair, int workRequest, String field, long expected, long found) {
    public static final String IMMEDIATE = "immediate";
    public static final String OPCODE = "opcode";
    public static final String BYTE_LEN = "byte_len";
    public static final String STATUS = "status";
    /** Fewer completions arrived than the initiator's batches need (the receiver stopped or the deadline passed). */
    public static final String COUNT = "completions";

    public String describe() {
        if (field.equals(COUNT)) {
            return String.format(
                    Locale.ROOT,
                    "%d of %d receive completions arrived (the rest did not come within the deadline)",
                    found,
                    expected);
        }
        String value;
        if (field.equals(IMMEDIATE)) {
            value = found < 0
                    ? String.format(
                            Locale.ROOT, "expected 0x%08x, found none (the completion carries no immediate)", expected)
                    : String.format(Locale.ROOT, "expected 0x%08x, found 0x%08x", expected, found);
        } else {
            value = String.format(Locale.ROOT, "expected %d, found %d", expected, found);
        }
        return String.format(
                Locale.ROOT,
                "slot %d (batch %d, QP %d, work request %d): %s %s",
                slot,
                batch,
                queuePair,
                workRequest,
                field,
                value);
    }
}
