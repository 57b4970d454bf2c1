package dev.linkproof.transfer.validate;

import java.util.Locale;

/**
 * The first counter of an atomic point found wrong, and by which check.
 *
 * @param expected  what the plan says (the counter's value, or the value an op should have fetched)
 * @param found     what the target's counter holds, or what the op fetched
 * @param op        the op's index among the counter's verification ops (0-based) for
 *                  {@link Check#FETCHED} and {@link Check#SWAP_OLD_VALUE}; -1 for {@link Check#FINAL_VALUE}
 * @param step      what one op moves the counter by, so a difference reads as a number of ops
 */
public record AtomicMismatch(int slot, Check check, long expected, long found, int op, long step) {
    /** The checks an atomic point's counters go through. */
    public enum Check {
        /** The counter's value after every op of the point: its start plus every add, or the chain's last link. */
        FINAL_VALUE,
        /** The values fetch-adds returned: exactly start + k·addend, each once (sorted), for the verification ops. */
        FETCHED,
        /** The old value a compare-and-swap returned: the chain's previous link. */
        SWAP_OLD_VALUE
    }

    public String describe() {
        return switch (check) {
            case FINAL_VALUE ->
                String.format(
                        Locale.ROOT,
                        "counter %d (slot %d): final value 0x%016x, expected 0x%016x (%s)",
                        slot,
                        slot,
                        found,
                        expected,
                        difference());
            case FETCHED ->
                String.format(
                        Locale.ROOT,
                        "counter %d (slot %d): fetch-add values are not start + k·addend each once: the %s value"
                                + " fetched is 0x%016x, expected 0x%016x (a lost or doubled atomic)",
                        slot,
                        slot,
                        ordinal(op),
                        found,
                        expected);
            case SWAP_OLD_VALUE ->
                String.format(
                        Locale.ROOT,
                        "counter %d (slot %d): compare-and-swap %d of the verification returned old value 0x%016x,"
                                + " expected 0x%016x (the chain broke: a lost or doubled atomic)",
                        slot,
                        slot,
                        op,
                        found,
                        expected);
        };
    }

    /** "short by 1 op (step 0x2b)" where the difference is a whole number of steps (in either direction), else the raw difference. */
    private String difference() {
        long diff = found - expected;
        for (long ops = 1; ops <= 1 << 20; ops++) {
            if (diff == ops * step) {
                return "over by " + ops + (ops == 1 ? " op" : " ops") + " of step " + step;
            }
            if (diff == -ops * step) {
                return "short by " + ops + (ops == 1 ? " op" : " ops") + " of step " + step;
            }
        }
        return "off by " + diff + ", not a whole number of steps " + step + " (a torn or foreign write?)";
    }

    private static String ordinal(int k) {
        int n = k + 1;
        String suffix = n % 100 >= 11 && n % 100 <= 13
                ? "th"
                : switch (n % 10) {
                    case 1 -> "st";
                    case 2 -> "nd";
                    case 3 -> "rd";
                    default -> "th";
                };
        return n + suffix + " smallest";
    }
}
