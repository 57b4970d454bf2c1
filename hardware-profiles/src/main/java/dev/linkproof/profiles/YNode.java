package dev.linkproof.profiles;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * A YAML node with the location it was written at. Profiles, overlays and properties are all
 * turned into these trees, merged, and only then read into a {@link HardwareProfile}, so every
 * error points at the layer that wrote the offending value.
 */
sealed interface YNode permits YNode.YScalar, YNode.YList, YNode.YMap {
    Location location();

    /** What the node is, for messages: "a mapping", "a list", "'abc'". */
    String describe();

    /** A scalar; {@code value} is null for YAML's null ({@code ~}, {@code null}, nothing). */
    record YScalar(String value, Location location) implements YNode {
        boolean isNull() {
            return value == null;
        }

        @Override
        public String describe() {
            return value == null ? "null" : "'" + value + "'";
        }
    }

    record YList(List<YNode> items, Location location) implements YNode {
        public YList {
            items = List.copyOf(items);
        }

        @Override
        public String describe() {
            return "a list";
        }
    }

    /** A mapping with string keys in the order written. */
    record YMap(Map<String, Entry> entries, Location location) implements YNode {
        public YMap {
            entries = java.util.Collections.unmodifiableMap(new LinkedHashMap<>(entries));
        }

        YNode get(String key) {
            Entry e = entries.get(key);
            return e == null ? null : e.value();
        }

        @Override
        public String describe() {
            return "a mapping";
        }
    }

    /** One key of a mapping, with the key's own location (where "unknown key" points). */
    record Entry(String key, Location keyLocation, YNode value) {}
}
