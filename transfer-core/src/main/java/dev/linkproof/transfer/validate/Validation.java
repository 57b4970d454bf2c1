package dev.linkproof.transfer.validate;

import java.util.Optional;

/**
 * Outcome of a point's verification pass: the receiver's per-slot checksums against the owner's,
 * and what the receiver found checking its completions ({@link CompletionCheck}; none for most
 * transports) and an atomic point's counters ({@link AtomicCheck}).
 *
 * @param bytes     bytes covered by the comparison
 * @param firstBad  the first bad byte, when any slot differs
 * @param where     which rail(s) of a point that ran several failed ("rail 1 (rxe9)"); empty for one pair
 */
public record Validation(
        int slots,
        long bytes,
        int badSlots,
        Optional<Mismatch> firstBad,
        CompletionCheck completions,
        String where,
        AtomicCheck atomics) {
    /**
     * How {@link #describe()} begins exactly when the validation {@link #passed()}: a reader of the
     * text alone (a results file's {@code validation}) tells a validated point by it.
     */
    public static final String VALID = "data valid: ";

    public Validation {
        completions = completions == null ? CompletionCheck.NONE : completions;
        where = where == null ? "" : where;
        atomics = atomics == null ? AtomicCheck.NONE : atomics;
    }

    public Validation(
            int slots,
            long bytes,
            int badSlots,
            Optional<Mismatch> firstBad,
            CompletionCheck completions,
            String where) {
        this(slots, bytes, badSlots, firstBad, completions, where, AtomicCheck.NONE);
    }

    /** The validation of an atomic point: its counters' checks (the counters are its slots, 8 bytes each). */
    public static Validation ofAtomics(int slots, AtomicCheck atomics) {
        return new Validation(slots, 8L * slots, 0, Optional.empty(), CompletionCheck.NONE, "", atomics);
    }

    /** This validation with the rail(s) it failed on named. */
    public Validation at(String rails) {
        return new Validation(slots, bytes, badSlots, firstBad, completions, rails, atomics);
    }

    /** A validation of one pair. */
    public Validation(int slots, long bytes, int badSlots, Optional<Mismatch> firstBad, CompletionCheck completions) {
        this(slots, bytes, badSlots, firstBad, completions, "");
    }

    /**
     * The validation of a point whose rails each validated their own data: every slot and byte of
     * them all; where one or more failed, the first failed rail's finding (its first bad byte, its
     * completions) with the rail named, and the failed slots of all rails counted.
     *
     * @param labels each rail's name as a failure should give it ("rail 1 (rxe9)"), in rail order
     */
    public static Validation ofRails(java.util.List<String> labels, java.util.List<Validation> rails) {
        if (labels.size() != rails.size() || rails.isEmpty()) {
            throw new IllegalArgumentException(labels.size() + " labels for " + rails.size() + " rails");
        }
        int slots = 0;
        long bytes = 0;
        int bad = 0;
        Validation first = null;
        java.util.List<String> failed = new java.util.ArrayList<>();
        for (int i = 0; i < rails.size(); i++) {
            Validation v = rails.get(i);
            slots += v.slots();
            bytes += v.bytes();
            bad += v.badSlots();
            if (!v.passed()) {
                failed.add(labels.get(i));
                first = first == null ? v : first;
            }
        }
        if (first == null) {
            return new Validation(slots, bytes, 0, Optional.empty(), CompletionCheck.NONE, "");
        }
        String where = failed.size() == 1
                ? failed.get(0)
                : String.join(", ", failed) + " (" + failed.size() + " of " + rails.size() + " rails)";
        return new Validation(slots, bytes, bad, first.firstBad(), first.completions(), where, first.atomics());
    }

    /** A validation of the data alone. */
    public Validation(int slots, long bytes, int badSlots, Optional<Mismatch> firstBad) {
        this(slots, bytes, badSlots, firstBad, CompletionCheck.NONE);
    }

    public boolean passed() {
        return badSlots == 0 && completions.passed() && atomics.passed();
    }

    /**
     * Why the validation failed, as a kind: a wrong receive completion first (it fails the point even
     * when the data matched), else corrupted data; empty when it passed.
     */
    public Optional<dev.linkproof.transfer.FailureKind> failureKind() {
        if (!completions.passed()) {
            return Optional.of(dev.linkproof.transfer.FailureKind.COMPLETION_MISMATCH);
        }
        if (!atomics.passed()) {
            return Optional.of(dev.linkproof.transfer.FailureKind.ATOMIC_MISMATCH);
        }
        return badSlots == 0 ? Optional.empty() : Optional.of(dev.linkproof.transfer.FailureKind.DATA_CORRUPTION);
    }

    public String describe() {
        return where.isEmpty() ? describeData() : where + ": " + describeData();
    }

    private String describeData() {
        if (atomics.checked()) {
            // An atomic point moves no pattern: its counters are the data, and their checks the whole story.
            return atomics.passed() ? VALID + atomics.describe() : atomics.describe();
        }
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
