package dev.linkproof.profiles;

import java.util.Collections;
import java.util.LinkedHashSet;
import java.util.Optional;
import java.util.Set;

/**
 * What a criterion asks of one entry of a point's transport settings (the point's own over the profile's
 * {@code transport.settings}), compared as exact strings: {@code UCX_TLS: tcp} (equal), {@code UCX_TLS: [shm, posix]}
 * (one of them), or {@code UCX_TLS: {not: tcp}} / {@code {not: [shm, posix]}} (anything else, or unset). The negated
 * form lets two criteria split a transport's points without overlapping: {@code UCX_TLS: shm} for one,
 * {@code UCX_TLS: {not: shm}} for every other point, those that leave {@code UCX_TLS} unset included.
 *
 * @param values the values named, at least one
 */
public record SettingMatch(Set<String> values, boolean negated) {
    public SettingMatch {
        if (values.isEmpty()) {
            throw new IllegalArgumentException("a setting match names at least one value");
        }
        values = Collections.unmodifiableSet(new LinkedHashSet<>(values));
    }

    public static SettingMatch is(String... values) {
        return new SettingMatch(Set.of(values), false);
    }

    public static SettingMatch not(String... values) {
        return new SettingMatch(Set.of(values), true);
    }

    /** Whether a point whose entry has this value (empty: the point does not set it) is covered. */
    public boolean matches(Optional<String> value) {
        if (negated) {
            return value.map(v -> !values.contains(v)).orElse(true);
        }
        return value.map(values::contains).orElse(false);
    }

    /** Whether some value (or the entry's absence) satisfies both. */
    public boolean overlaps(SettingMatch o) {
        if (!negated && !o.negated) {
            return values.stream().anyMatch(o.values::contains);
        }
        if (negated && o.negated) {
            return true; // absence satisfies both
        }
        SettingMatch positive = negated ? o : this;
        SettingMatch negative = negated ? this : o;
        return positive.values.stream().anyMatch(v -> !negative.values.contains(v));
    }

    /** "UCX_TLS=tcp", "UCX_TLS=shm|posix", "UCX_TLS≠tcp". */
    public String describe(String key) {
        return key + (negated ? "≠" : "=") + String.join("|", values);
    }
}
