package dev.linkproof.transfer.atomic;

import dev.linkproof.transfer.Op;
import dev.linkproof.transfer.validate.AtomicCheck;
import dev.linkproof.transfer.validate.AtomicMismatch;
import dev.linkproof.transfer.validate.AtomicMismatch.Check;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/** The counters of an atomic point against its {@link AtomicPlan}. */
public final class AtomicChecks {
    private AtomicChecks() {}

    /**
     * @param finals  every counter's value on the target after the last op
     * @param fetched per counter, the values its verification ops returned, in the order they ran
     */
    public static AtomicCheck check(AtomicPlan plan, long[] finals, long[][] fetched) {
        if (finals.length != fetched.length) {
            throw new IllegalArgumentException(finals.length + " final values for " + fetched.length + " counters");
        }
        long first = plan.opsBeforeVerification();
        int bad = 0;
        List<AtomicMismatch> firstBad = List.of();
        for (int slot = 0; slot < finals.length; slot++) {
            List<AtomicMismatch> found = new ArrayList<>();
            long expectedFinal = plan.after(slot, plan.opsPerCounter());
            if (finals[slot] != expectedFinal) {
                found.add(
                        new AtomicMismatch(slot, Check.FINAL_VALUE, expectedFinal, finals[slot], -1, plan.step(slot)));
            }
            if (plan.op() == Op.FETCH_ADD) {
                // Each fetch-add returns the value before its own add: over the verification ops the
                // returned values are exactly after(first), after(first + 1), ... each once, in whatever
                // order the ops ran. Sorted by op count (step is odd, so the count is recoverable).
                long[] counts = new long[fetched[slot].length];
                long inverse = inverse(plan.step(slot));
                long start = plan.start(slot);
                for (int v = 0; v < counts.length; v++) {
                    counts[v] = (fetched[slot][v] - start) * inverse;
                }
                Integer[] idx = new Integer[counts.length];
                for (int v = 0; v < counts.length; v++) {
                    idx[v] = v;
                }
                Arrays.sort(idx, (a, b) -> Long.compareUnsigned(counts[a], counts[b]));
                for (int v = 0; v < idx.length; v++) {
                    long expected = plan.after(slot, first + v);
                    long got = fetched[slot][idx[v]];
                    if (got != expected) {
                        found.add(new AtomicMismatch(slot, Check.FETCHED, expected, got, v, plan.step(slot)));
                        break;
                    }
                }
            } else {
                for (int v = 0; v < fetched[slot].length; v++) {
                    long expected = plan.after(slot, first + v);
                    if (fetched[slot][v] != expected) {
                        found.add(new AtomicMismatch(
                                slot, Check.SWAP_OLD_VALUE, expected, fetched[slot][v], v, plan.step(slot)));
                        break;
                    }
                }
            }
            if (!found.isEmpty()) {
                if (bad++ == 0) {
                    firstBad = found;
                }
            }
        }
        return new AtomicCheck(finals.length, plan.opsPerCounter(), bad, firstBad);
    }

    /** The multiplicative inverse of an odd number modulo 2^64 (Newton's iteration: each step doubles the good bits). */
    static long inverse(long odd) {
        long x = odd;
        for (int i = 0; i < 5; i++) {
            x *= 2 - odd * x;
        }
        return x;
    }
}
