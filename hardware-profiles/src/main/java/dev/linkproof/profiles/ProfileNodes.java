package dev.linkproof.profiles;

import dev.linkproof.profiles.YNode.Entry;
import dev.linkproof.profiles.YNode.YList;
import dev.linkproof.profiles.YNode.YMap;
import dev.linkproof.profiles.YNode.YScalar;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.regex.Pattern;

/**
 * A profile's YAML nodes read as the schema expects them: a mapping's keys checked before its values,
 * scalars, lists, words and transport names, each wrong shape a {@link ProfileException} at its
 * node. One place for the parser, the criteria, the loader and the merge, so every message reads alike.
 */
final class ProfileNodes {
    private static final Pattern ENV = Pattern.compile("[A-Za-z_][A-Za-z0-9_]*");
    private static final Pattern TRANSPORT_ID = Pattern.compile("[a-z0-9][a-z0-9_-]*");

    private ProfileNodes() {}

    static YMap map(YNode n, String what) {
        if (n instanceof YMap m) {
            return m;
        }
        throw new ProfileException(n.location(), what + " must be a mapping (key: value), not " + n.describe());
    }

    static YList list(YNode n, String what) {
        if (n instanceof YList l) {
            return l;
        }
        throw new ProfileException(n.location(), what + " must be a list, not " + n.describe());
    }

    static YScalar scalar(YNode n, String what) {
        if (n instanceof YScalar s && !s.isNull()) {
            return s;
        }
        throw new ProfileException(n.location(), what + " must be a single value, not " + n.describe());
    }

    /** A scalar or a list of scalars. */
    static List<YScalar> scalars(YNode n, String what) {
        if (n instanceof YList l) {
            List<YScalar> out = new ArrayList<>();
            for (YNode item : l.items()) {
                out.add(scalar(item, what + " entry"));
            }
            if (out.isEmpty()) {
                throw new ProfileException(n.location(), what + " is an empty list");
            }
            return out;
        }
        return List.of(scalar(n, what));
    }

    /** Like {@link #scalars} but a scalar may also be comma-separated ({@code write, read}), as a property value is. */
    static List<YScalar> words(YNode n, String what) {
        List<YScalar> out = new ArrayList<>();
        for (YScalar s : scalars(n, what)) {
            for (String part : s.value().split(",")) {
                if (part.isBlank()) {
                    throw new ProfileException(s.location(), "empty entry in " + what + " '" + s.value() + "'");
                }
                out.add(new YScalar(part.strip(), s.location()));
            }
        }
        return out;
    }

    static List<String> strings(YNode n, String what) {
        return scalars(n, what).stream().map(s -> s.value().strip()).toList();
    }

    static boolean isWord(YNode n, String word) {
        return n instanceof YScalar s && s.value() != null && s.value().strip().equalsIgnoreCase(word);
    }

    static Map<String, String> stringMap(YNode n, String what, boolean envNames) {
        Map<String, String> out = new LinkedHashMap<>();
        for (Entry e : map(n, what).entries().values()) {
            if (envNames && !ENV.matcher(e.key()).matches()) {
                throw new ProfileException(e.keyLocation(), "bad environment variable name '" + e.key() + "'");
            }
            out.put(e.key(), scalar(e.value(), what + "." + e.key()).value());
        }
        return out;
    }

    /**
     * The keys of one mapping, checked against what the schema allows before anything is read, so
     * the first error about a mapping is its unknown key.
     */
    static final class Fields {
        private final YMap map;
        private String what;

        Fields(YMap map, String what, List<String> allowed) {
            this.map = map;
            this.what = what;
            for (Entry e : map.entries().values()) {
                if (!allowed.contains(e.key())) {
                    throw new ProfileException(
                            e.keyLocation(),
                            "unknown key '" + e.key() + "' in " + what + suggestion(e.key(), allowed) + " (allowed: "
                                    + String.join(", ", allowed) + ")");
                }
            }
        }

        void rename(String newWhat) {
            this.what = newWhat;
        }

        Location mapLocation() {
            return map.location();
        }

        Location location(String key) {
            Entry e = map.entries().get(key);
            return e == null ? map.location() : e.keyLocation();
        }

        /** The value, absent when missing or YAML null (an overlay's null deletes a key). */
        Optional<YNode> node(String key) {
            YNode n = map.get(key);
            if (n == null || (n instanceof YScalar s && s.isNull())) {
                return Optional.empty();
            }
            return Optional.of(n);
        }

        Optional<YScalar> scalar(String key) {
            return node(key).map(n -> ProfileNodes.scalar(n, what + " key '" + key + "'"));
        }

        String requiredString(String key) {
            YScalar s =
                    scalar(key).orElseThrow(() -> new ProfileException(location(key), what + " needs '" + key + "'"));
            if (s.value().isBlank()) {
                throw new ProfileException(s.location(), what + " key '" + key + "' is empty");
            }
            return s.value().strip();
        }

        Optional<String> optionalString(String key) {
            return scalar(key).map(s -> s.value().strip());
        }

        Optional<Boolean> optionalBoolean(String key) {
            return scalar(key).map(s -> switch (s.value().strip().toLowerCase(Locale.ROOT)) {
                case "true" -> true;
                case "false" -> false;
                default ->
                    throw new ProfileException(
                            s.location(), what + " key '" + key + "' must be true or false, not '" + s.value() + "'");
            });
        }
    }

    /** ", did you mean 'min-bandwidth'?" when an allowed key is within two edits. */
    static String suggestion(String key, List<String> allowed) {
        return allowed.stream()
                .min(Comparator.comparingInt(a -> distance(key, a)))
                .filter(a -> distance(key, a) <= 2)
                .map(a -> ", did you mean '" + a + "'?")
                .orElse("");
    }

    static String suggestion(String key, Set<String> allowed) {
        return suggestion(key, List.copyOf(new LinkedHashSet<>(allowed)));
    }

    static int distance(String a, String b) {
        return EditDistance.between(a, b);
    }

    /**
     * {@code tcp}, {@code [tcp, ucx]}, {@code tcp, ucx} or, where {@code anyAllowed}, {@code any} (empty:
     * every transport). A name
     * no transport on the class path has is an error: a misspelt transport would leave the criterion
     * judging nothing, and its points passing on validation alone.
     */
    static Set<String> transports(YNode n, boolean anyAllowed, String what, Set<String> known) {
        Set<String> out = new java.util.TreeSet<>();
        for (YScalar s : words(n, what)) {
            String t = s.value().strip().toLowerCase(Locale.ROOT);
            if (anyAllowed && t.equals("any")) {
                return Set.of();
            }
            if (!TRANSPORT_ID.matcher(t).matches() || !known.contains(t)) {
                throw new ProfileException(
                        s.location(),
                        "unknown transport '" + s.value() + "'"
                                + suggestion(t, known) + " (transports on the class path: "
                                + String.join(", ", new java.util.TreeSet<>(known)) + (anyAllowed ? "; or any)" : ")"));
            }
            out.add(t);
        }
        return out;
    }
}
