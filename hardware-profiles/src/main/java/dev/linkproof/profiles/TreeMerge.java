package dev.linkproof.profiles;

import dev.linkproof.profiles.YNode.Entry;
import dev.linkproof.profiles.YNode.YList;
import dev.linkproof.profiles.YNode.YMap;
import dev.linkproof.profiles.YNode.YScalar;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Lays one profile tree over another. Mappings merge key by key, recursively; a YAML null in the
 * upper layer deletes the key below; any other value replaces it. The top-level {@code criteria}
 * list merges by {@code name}: an upper entry with a name the lower layer has is merged into that
 * entry, a new name is appended (unless the layer may only change existing criteria, as properties).
 */
final class TreeMerge {
    private TreeMerge() {}

    static YNode merge(YNode lower, YNode upper, boolean criteriaMustExist) {
        if (!(lower instanceof YMap l) || !(upper instanceof YMap u)) {
            return upper;
        }
        return mergeMaps(l, u, true, criteriaMustExist);
    }

    private static YMap mergeMaps(YMap lower, YMap upper, boolean top, boolean criteriaMustExist) {
        Map<String, Entry> out = new LinkedHashMap<>(lower.entries());
        for (Entry e : upper.entries().values()) {
            Entry below = out.get(e.key());
            if (e.value() instanceof YScalar s && s.isNull()) {
                out.remove(e.key());
            } else if (below == null) {
                if (top && e.key().equals("criteria") && criteriaMustExist) {
                    // Properties may only change criteria the profile has; it has none.
                    mergeCriteria(
                            new YList(List.of(), lower.location()), ProfileNodes.list(e.value(), "criteria"), true);
                }
                out.put(e.key(), e);
            } else if (top
                    && e.key().equals("criteria")
                    && below.value() instanceof YList bl
                    && e.value() instanceof YList ul) {
                out.put(e.key(), new Entry(e.key(), below.keyLocation(), mergeCriteria(bl, ul, criteriaMustExist)));
            } else if (below.value() instanceof YMap bm && e.value() instanceof YMap um) {
                out.put(e.key(), new Entry(e.key(), below.keyLocation(), mergeMaps(bm, um, false, false)));
            } else {
                out.put(e.key(), e);
            }
        }
        return new YMap(out, lower.location());
    }

    private static YList mergeCriteria(YList lower, YList upper, boolean mustExist) {
        List<YNode> items = new ArrayList<>(lower.items());
        List<String> names = new ArrayList<>();
        for (YNode item : items) {
            names.add(nameOf(item));
        }
        for (YNode item : upper.items()) {
            YMap m = ProfileNodes.map(item, "a criterion");
            String name = nameOf(m);
            if (name == null) {
                throw new ProfileException(
                        m.location(),
                        "a criterion in an overlay needs a 'name', to say which "
                                + "criterion it changes or that it adds a new one");
            }
            int at = names.indexOf(name);
            if (at >= 0) {
                items.set(at, mergeMaps(ProfileNodes.map(items.get(at), "a criterion"), m, false, false));
            } else if (mustExist) {
                throw new ProfileException(
                        m.location(),
                        "the profile has no criterion '" + name + "'"
                                + ProfileNodes.suggestion(
                                        name,
                                        names.stream().filter(n -> n != null).toList())
                                + (names.isEmpty()
                                        ? " (it has none)"
                                        : " (it has: "
                                                + String.join(
                                                        ", ",
                                                        names.stream()
                                                                .filter(n -> n != null)
                                                                .toList()) + ")")
                                + "; properties change criteria, an overlay file can add them");
            } else {
                items.add(m);
                names.add(name);
            }
        }
        return new YList(items, lower.location());
    }

    private static String nameOf(YNode item) {
        if (item instanceof YMap m && m.get("name") instanceof YScalar s && !s.isNull()) {
            return s.value().strip();
        }
        return null;
    }
}
