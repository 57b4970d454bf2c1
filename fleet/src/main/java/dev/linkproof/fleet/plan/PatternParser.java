package dev.linkproof.fleet.plan;

import dev.linkproof.fleet.FleetConfigurationException;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.OptionalLong;

/**
 * The value of {@code linkproof.fleet.pattern}: a name, then its arguments after colons ({@link #VALID} lists every
 * form; docs/fleet.md, "Patterns", says what each does).
 * <pre>
 *   pairwise    ring    random-k:3:seed=7    incast:lpn1:batch=8    fan-out:batch=8
 *   file:/path/pairs.txt  (the rest of the value is the path, colons and all)
 * </pre>
 * A bad value is an error that quotes it, says what is wrong and lists the valid forms.
 */
public final class PatternParser {
    /** The configuration key whose value this parses. */
    public static final String KEY = "linkproof.fleet.pattern";
    /** Every valid form, as listed in errors. */
    public static final String VALID = "pairwise, ring, random-k:<k>[:seed=<n>], incast[:<node>][:batch=<n>], "
            + "fan-out[:<node>][:batch=<n>], file:<path>";

    private PatternParser() {}

    public static Pattern parse(String value) {
        if (value == null || value.isBlank()) {
            throw bad(String.valueOf(value), "no pattern given");
        }
        String v = value.strip();
        int colon = v.indexOf(':');
        String name = colon < 0 ? v : v.substring(0, colon);
        String rest = colon < 0 ? "" : v.substring(colon + 1);
        if (name.equals("file")) {
            if (rest.isBlank()) {
                throw bad(v, "file: needs the pair file's path");
            }
            return new PairFile(Path.of(rest.strip()));
        }
        List<String> args = colon < 0 ? List.of() : Arrays.asList(rest.split(":", -1));
        return switch (name) {
            case "pairwise" -> noArguments(v, args, new Pairwise());
            case "ring" -> noArguments(v, args, new Ring());
            case "random-k" -> randomK(v, args);
            case "incast" -> {
                Star s = star(v, args);
                yield new Incast(s.node(), s.batch());
            }
            case "fan-out" -> {
                Star s = star(v, args);
                yield new FanOut(s.node(), s.batch());
            }
            default -> throw bad(v, "unknown pattern '" + name + "'");
        };
    }

    private static Pattern noArguments(String v, List<String> args, Pattern p) {
        if (!args.isEmpty()) {
            throw bad(v, p.spec() + " takes no arguments");
        }
        return p;
    }

    private static Pattern randomK(String v, List<String> args) {
        if (args.isEmpty() || args.getFirst().isBlank() || args.getFirst().contains("=")) {
            throw bad(v, "random-k needs k, the partners per node (random-k:3)");
        }
        int k = positive(v, "k", args.getFirst());
        OptionalLong seed = OptionalLong.empty();
        for (String option : args.subList(1, args.size())) {
            String[] kv = option.split("=", 2);
            if (kv.length != 2 || !kv[0].equals("seed")) {
                throw bad(v, "random-k takes only seed=<n>, not '" + option + "'");
            }
            if (seed.isPresent()) {
                throw bad(v, "seed is given twice");
            }
            try {
                seed = OptionalLong.of(Long.parseLong(kv[1]));
            } catch (NumberFormatException e) {
                throw bad(v, "seed '" + kv[1] + "' is not a whole number");
            }
        }
        return new RandomK(k, seed.orElse(RandomK.DEFAULT_SEED));
    }

    private record Star(Optional<String> node, OptionalInt batch) {}

    private static Star star(String v, List<String> args) {
        Optional<String> node = Optional.empty();
        OptionalInt batch = OptionalInt.empty();
        for (int i = 0; i < args.size(); i++) {
            String a = args.get(i);
            if (a.isBlank()) {
                throw bad(v, "an empty argument between colons");
            }
            if (!a.contains("=")) {
                if (i != 0) {
                    throw bad(v, "the node comes first, '" + a + "' is out of place");
                }
                node = Optional.of(a.strip());
            } else if (a.startsWith("batch=") && batch.isEmpty()) {
                batch = OptionalInt.of(positive(v, "batch", a.substring("batch=".length())));
            } else {
                throw bad(v, "'" + a + "' is not batch=<n> (once)");
            }
        }
        return new Star(node, batch);
    }

    private static int positive(String v, String what, String text) {
        try {
            int n = Integer.parseInt(text.strip());
            if (n >= 1) {
                return n;
            }
        } catch (NumberFormatException e) {
            // reported below, with the value
        }
        throw bad(v, what + " '" + text + "' is not a whole number of at least 1");
    }

    private static FleetConfigurationException bad(String value, String problem) {
        return new FleetConfigurationException(KEY + "=" + value + ": " + problem + "; valid: " + VALID);
    }
}
