package dev.linkproof.transfer.validate;

import java.util.Optional;

/**
 * Outcome of a point's verification pass: the receiver's per-slot checksums against the owner's,
 * and what the receiver found checking its completions ({@link CompletionCheck}; none for most
 * transports).
 *
 * @param slots       slots compared
 * @param bytes       bytes covered by the comparison
 * @param badSlots    number of slots whose checksums differ
 * @param firstBad    the first bad byte, when any slot differs
 * @param completions the receiving rank's completion check
 */
public record Validation(int slots, long bytes, int badSlots, Optional<Mismatch> firstBad, CompletionCheck completions) {
    /**
     * How {@link #describe()} begins exactly when the validation {@link #passed()}: a reader of the
     * text alone (a results file's {@code validation}) tells a validated point by it.
     */
    public static final String VALID = "data valid: ";

    public Validation {
        completions = completions == null ? CompletionCheck.NONE : completions;
    }

    /** A validation of the data alone. */
    public Validation(int slots, long bytes, int badSlots, Optional<Mismatch> firstBad) {
        this(slots, bytes, badSlots, firstBad, CompletionCheck.NONE);
    }

    public boolean passed() {
        return badSlots == 0 && completions.passed();
    }

    /**
     * Why the validation failed, as a kind: a wrong receive completion first (it fails the point even
     * when the data matched), else corrupted data; empty when it passed.
     */
    public Optional<dev.linkproof.transfer.FailureKind> failureKind() {
        if (!completions.passed()) {
            return Optional.of(dev.linkproof.transfer.FailureKind.COMPLETION_MISMATCH);
        }
        return badSlots == 0 ? Optional.empty() : Optional.of(dev.linkproof.transfer.FailureKind.DATA_CORRUPTION);
    }

    public String describe() {
        String data = badSlots == 0
                ? VALID + slots + " slot(s), " + bytes + " bytes, checksums match"
                : "data corruption: " + badSlots + " of " + slots + " slot(s) differ; first at "
                        + firstBad.map(Mismatch::describe).orElse("an unlocated byte");
        if (completions.checked() == 0 && completions.passed()) {
            return data;
        }
        if (!completions.passed()) {
            // The completion failure first: it is why the point failed even when the data matched.
            return completions.describe() + (badSlots == 0 ? " (" + data + ")" : "; " + data);
        }
        return data + "; " + completions.describe();
    }
}
