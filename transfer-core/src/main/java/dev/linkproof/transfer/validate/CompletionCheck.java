package dev.linkproof.transfer.validate;

/**
 * What the receiving rank checked in a point's completions, beside the data, sent back in the
 * CHECKSUMS reply: for two-sided verbs ops every receive completion's opcode and byte count, and for
 * WRITE_WITH_IMM its immediate (a function of point, batch and work request, so a stale, swapped or
 * corrupted one is caught). Transports whose target sees no completions report {@link #NONE}.
 *
 * @param bad    completions found wrong (or missing: a short count is one more)
 * @param first  the first wrong one; null when none
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
