package dev.linkproof.transfer.validate;

/**
 * What the receiving rank checked in the completions of a point, beside the data itself: for
 * two-sided verbs ops every receive completion's opcode and byte count, and for WRITE_WITH_IMM the
 * immediate each one carries (a function of point, batch and work request, so a stale, swapped or
 * corrupted immediate is caught). Transports whose target sees no completions report {@link #NONE}.
 * It travels to the initiator in the CHECKSUMS reply, beside the slot checksums.
 *
 * @param checked completions looked at
 * @param bad     completions found wrong (or missing: a short count is one more)
 * @param first   the first wrong one; null when none
 */
public record CompletionCheck(long checked, long bad, CompletionMismatch first) {
    public static final CompletionCheck NONE = new CompletionCheck(0, 0, null);

    public boolean passed() {
        return bad == 0;
    }

    public String describe() {
        if (passed()) {
            return checked + " receive completion(s) as planned";
        }
        return "completion mismatch: " + bad + " of " + checked + " receive completion(s) wrong; first at "
                + (first == null ? "an unrecorded completion" : first.describe());
    }
}
