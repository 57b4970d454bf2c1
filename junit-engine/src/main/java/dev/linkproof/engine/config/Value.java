package dev.linkproof.engine.config;

import dev.linkproof.transfer.Units;
import dev.linkproof.transfer.control.HostPort;
import dev.linkproof.transfer.control.Messages;
import java.nio.file.InvalidPathException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.OptionalInt;
import java.util.function.Function;

/**
 * The type of a key's value: how the value is written (the {@code form} the configuration reference
 * shows) and how it is parsed. A parser throws {@link IllegalArgumentException} with what is wrong
 * ("must be true or false"); {@link Key#read} puts the key and the value in front of it, so every
 * error reads {@code key=value must be …} whichever type made it.
 *
 * @param form   how the value is written, as the reference's Value column shows it
 * @param parser the stripped, non-empty text to a value
 */
public record Value<T>(String form, Function<String, T> parser) {

    /** The longest deadline a key may set: the agent refuses a longer progress deadline, and socket timeouts are int milliseconds. */
    public static final Duration MAX_DEADLINE = Duration.ofMillis(Messages.Hello.MAX_PROGRESS_TIMEOUT_MILLIS);

    /** Any text; the key's reader decides what it means. */
    public static Value<String> text(String form) {
        return new Value<>(form, v -> v);
    }

    /** A file system path. */
    public static Value<Path> path(String form) {
        return new Value<>(form, v -> {
            try {
                return Path.of(v);
            } catch (InvalidPathException e) {
                throw new IllegalArgumentException("is not a path: " + e.getMessage());
            }
        });
    }

    /**
     * {@code host:port} ({@link HostPort}: IPv6 in brackets), {@code defaultPort} where the port is left
     * out, a port from {@code minPort}; {@code hint} ends the error ("; the agent prints its port ...").
     */
    public static Value<HostPort> hostPort(int defaultPort, int minPort, String hint) {
        return new Value<>("`host:port`", v -> {
            try {
                return HostPort.parse(v, OptionalInt.of(defaultPort), minPort);
            } catch (IllegalArgumentException e) {
                // HostPort's message begins with the quoted value, which the key's reader already gives.
                String quoted = "'" + v + "' ";
                String why =
                        e.getMessage().startsWith(quoted) ? e.getMessage().substring(quoted.length()) : e.getMessage();
                throw new IllegalArgumentException(why + hint, e);
            }
        });
    }

    /** {@code true} or {@code false}, nothing else: "yes" would otherwise read as false without a word. */
    public static Value<Boolean> bool() {
        return new Value<>("`true` \\| `false`", v -> switch (v.toLowerCase(Locale.ROOT)) {
            case "true" -> true;
            case "false" -> false;
            default -> throw new IllegalArgumentException("must be true or false");
        });
    }

    /** A whole number in [min, max]. */
    public static Value<Integer> whole(int min, int max) {
        return new Value<>(min + "–" + max, v -> {
            try {
                int n = Integer.parseInt(v);
                if (n >= min && n <= max) {
                    return n;
                }
            } catch (NumberFormatException e) {
                // reported below, with the range
            }
            throw new IllegalArgumentException("must be a whole number from " + min + " to " + max);
        });
    }

    /** A whole number; its range is checked where it is used (the fleet's settings check theirs together). */
    public static Value<Integer> whole() {
        return new Value<>("a whole number", v -> {
            try {
                return Integer.parseInt(v);
            } catch (NumberFormatException e) {
                throw new IllegalArgumentException("is not a whole number");
            }
        });
    }

    /** A number; its range is checked where it is used. */
    public static Value<Double> number() {
        return new Value<>("a number", v -> {
            try {
                return Double.parseDouble(v);
            } catch (NumberFormatException e) {
                throw new IllegalArgumentException("is not a number");
            }
        });
    }

    /** A number in (0, max]. */
    public static Value<Double> positive(double max) {
        String range = "(0, " + (max == Math.rint(max) ? String.valueOf((long) max) : String.valueOf(max)) + "]";
        return new Value<>("a number in " + range, v -> {
            try {
                double d = Double.parseDouble(v);
                if (d > 0 && d <= max) {
                    return d;
                }
            } catch (NumberFormatException e) {
                // reported below, with the range
            }
            throw new IllegalArgumentException("must be a number in " + range);
        });
    }

    /**
     * A duration in the one grammar of engine and command line ({@link Units#parseDuration}), at most
     * {@link #MAX_DEADLINE}: {@code PT1000H} would wrap a socket timeout to a negative one and fail
     * far from the key that set it. {@code limit} names the bound in the error ("the agent accepts").
     */
    public static Value<Duration> deadline(String limit) {
        return new Value<>("a duration ≤ 1h", v -> {
            Duration d;
            try {
                d = Units.parseDuration(v);
            } catch (IllegalArgumentException e) {
                throw new IllegalArgumentException("is not a duration (e.g. 10s, 500ms, PT1M)");
            }
            if (d.toMillis() > MAX_DEADLINE.toMillis()) {
                throw new IllegalArgumentException("is more than " + limit + " (" + MAX_DEADLINE + ")");
            }
            return d;
        });
    }

    /**
     * One of a few words, each with what it means; the error lists them in the order given, the
     * reference's Value column too.
     */
    @SafeVarargs
    public static <T> Value<T> oneOf(Choice<T>... choices) {
        Map<String, Choice<T>> byWord = new LinkedHashMap<>();
        List<String> words = new ArrayList<>();
        List<String> explained = new ArrayList<>();
        for (Choice<T> c : choices) {
            byWord.put(c.word(), c);
            words.add("`" + c.word() + "`");
            explained.add(c.word() + (c.meaning().isEmpty() ? "" : " (" + c.meaning() + ")"));
        }
        int last = explained.size() - 1;
        String must = last == 0
                ? explained.get(0)
                : String.join(", ", explained.subList(0, last)) + " or " + explained.get(last);
        return new Value<>(String.join(" \\| ", words), v -> {
            Choice<T> c = byWord.get(v.toLowerCase(Locale.ROOT));
            if (c == null) {
                throw new IllegalArgumentException("must be " + must);
            }
            return c.value();
        });
    }

    /** A word of {@link #oneOf}, what it stands for, and what it means in an error ("" for nothing more than the word). */
    public record Choice<T>(String word, T value, String meaning) {}

    /** The same form, another parser: a type whose values a reader maps further ({@code all} → 0 rails). */
    public static <T> Value<T> of(String form, Function<String, T> parser) {
        return new Value<>(form, parser);
    }
}
