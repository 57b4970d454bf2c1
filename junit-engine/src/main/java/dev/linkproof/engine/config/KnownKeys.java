package dev.linkproof.engine.config;

import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;
import org.junit.platform.engine.ConfigurationParameters;

/**
 * The check that a run names no key Linkproof does not know: {@code -Dlinkproof.profle=cx7-400g} is a
 * typo that would otherwise run silently with the detected profile. The known keys are the
 * registry's ({@link ConfigurationKeys#ALL}); an unknown one is an error naming the nearest known one.
 */
public final class KnownKeys {
    /** The keys, and the prefixes of key families ({@code linkproof.criteria.}). */
    private static final Set<String> KEYS = new TreeSet<>();

    private static final Set<String> PREFIXES = new TreeSet<>();

    static {
        for (Key<?> k : ConfigurationKeys.ALL) {
            (k.family() ? PREFIXES : KEYS).add(k.name());
        }
    }

    private KnownKeys() {}

    public static boolean known(String key) {
        return KEYS.contains(key) || PREFIXES.stream().anyMatch(key::startsWith);
    }

    /**
     * One error per unknown {@code linkproof.*} key among the run's parameters and this JVM's system
     * properties (where {@code -D} and Surefire's forwarded properties are), in key order.
     */
    static List<String> unknown(ConfigurationParameters p) {
        Set<String> keys = new TreeSet<>(p.keySet());
        keys.addAll(System.getProperties().stringPropertyNames());
        List<String> errors = new ArrayList<>();
        for (String k : keys) {
            if (k.startsWith("linkproof.") && !known(k)) {
                errors.add("unknown configuration key " + k
                        + nearest(k).map(n -> " (did you mean " + n + "?)").orElse("")
                        + "; every key is listed in docs/configuration.md");
            }
        }
        return errors;
    }

    /** The known key closest to {@code key} by edit distance, when it is close enough to be the one meant. */
    static Optional<String> nearest(String key) {
        Collection<String> candidates = new ArrayList<>(KEYS);
        PREFIXES.forEach(p -> candidates.add(p + "…"));
        String best = null;
        int bestDistance = Integer.MAX_VALUE;
        for (String c : candidates) {
            int d = dev.linkproof.profiles.EditDistance.between(key, c);
            if (d < bestDistance) {
                best = c;
                bestDistance = d;
            }
        }
        // A third of the key's own length past "linkproof.": beyond that it is another key, not a typo.
        return bestDistance <= Math.max(2, (key.length() - "linkproof.".length()) / 3)
                ? Optional.of(best)
                : Optional.empty();
    }
}
