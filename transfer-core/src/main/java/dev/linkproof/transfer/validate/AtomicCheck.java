package dev.linkproof.transfer.validate;

import java.util.List;
import java.util.stream.Collectors;

/**
 * What the checks of an atomic point's counters found ({@link AtomicMismatch.Check}); points of
 * other ops report {@link #NONE}.
 *
 * @param ops    atomics per counter the final values account for (every op of the point)
 * @param bad    counters found wrong by at least one check
 * @param first  every failed check of the first wrong counter (lowest slot), in check order; empty
 *               when none
 */
public record AtomicCheck(int counters, long ops, int bad, List<AtomicMismatch> first) {
    public static final AtomicCheck NONE = new AtomicCheck(0, 0, 0, List.of());

    public AtomicCheck {
        first = first == null ? List.of() : List.copyOf(first);
    }

    public boolean passed() {
        return bad == 0;
    }

    public boolean checked() {
        return counters > 0;
    }

    public String describe() {
        if (passed()) {
            return counters + " counter(s) exact after " + ops + " atomic(s) each";
        }
        return "atomic mismatch: " + bad + " of " + counters + " counter(s) wrong; first: "
                + (first.isEmpty()
                        ? "an unrecorded counter"
                        : first.stream().map(AtomicMismatch::describe).collect(Collectors.joining("; ")));
    }
}
