package dev.linkproof.fleet.act;

import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * How many of the last runs must blame a node before it is taken out of service: {@code count} of
 * the last {@code window}, this run included (ByteRobust acts on an alert that fires twice; a node
 * that flaps once is reported as a suspect, not drained). Written {@code 2/3} or {@code 2 of 3}.
 */
public record ActAfter(int count, int window) {
    public static final ActAfter DEFAULT = new ActAfter(2, 3);
    private static final Pattern FORM = Pattern.compile("\\s*(\\d{1,3})\\s*(?:/|of)\\s*(\\d{1,3})\\s*");

    public ActAfter {
        if (count < 1 || window < count || window > 100) {
            throw new IllegalArgumentException(
                    "act after COUNT/WINDOW needs 1 <= COUNT <= WINDOW <= 100, not " + count + "/" + window);
        }
    }

    /** {@code 2/3} or {@code 2 of 3}; anything else throws naming the form. */
    public static ActAfter parse(String text) {
        Matcher m = FORM.matcher(text);
        if (!m.matches()) {
            throw new IllegalArgumentException(
                    "'" + text + "' is not COUNT/WINDOW (for example 2/3: blamed in 2 of the last 3 runs)");
        }
        return new ActAfter(Integer.parseInt(m.group(1)), Integer.parseInt(m.group(2)));
    }

    @Override
    public String toString() {
        return count + "/" + window;
    }
}
