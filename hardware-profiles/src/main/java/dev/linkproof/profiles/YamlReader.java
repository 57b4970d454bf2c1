package dev.linkproof.profiles;

import dev.linkproof.profiles.YNode.Entry;
import dev.linkproof.profiles.YNode.YList;
import dev.linkproof.profiles.YNode.YMap;
import dev.linkproof.profiles.YNode.YScalar;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.snakeyaml.engine.v2.api.LoadSettings;
import org.snakeyaml.engine.v2.api.lowlevel.Compose;
import org.snakeyaml.engine.v2.exceptions.Mark;
import org.snakeyaml.engine.v2.exceptions.MarkedYamlEngineException;
import org.snakeyaml.engine.v2.exceptions.YamlEngineException;
import org.snakeyaml.engine.v2.nodes.MappingNode;
import org.snakeyaml.engine.v2.nodes.Node;
import org.snakeyaml.engine.v2.nodes.NodeTuple;
import org.snakeyaml.engine.v2.nodes.ScalarNode;
import org.snakeyaml.engine.v2.nodes.SequenceNode;
import org.snakeyaml.engine.v2.nodes.Tag;
import org.snakeyaml.engine.v2.schema.CoreSchema;

/**
 * Turns YAML text into a {@link YNode} tree with SnakeYAML Engine's compose step (nodes with start
 * marks, nothing constructed), rejecting what a profile never needs: duplicate keys, non-scalar keys,
 * more than one document, nesting deeper than {@value #MAX_DEPTH}.
 */
final class YamlReader {
    static final int MAX_DEPTH = 32;

    private YamlReader() {}

    static YNode read(String source, String text) {
        LoadSettings settings = LoadSettings.builder()
                .setLabel(source)
                // YAML 1.2 core schema: ~, null and an empty value are null (the default JSON schema
                // knows only "null"); an overlay uses null to delete a key.
                .setSchema(new CoreSchema())
                .setAllowDuplicateKeys(false)
                .setAllowRecursiveKeys(false)
                .setMaxAliasesForCollections(20)
                .setCodePointLimit(1 << 20)
                .build();
        Optional<Node> root;
        try {
            root = new Compose(settings).composeString(text);
        } catch (MarkedYamlEngineException e) {
            Location at = e.getProblemMark()
                    .map(m -> at(source, m))
                    .or(() -> e.getContextMark().map(m -> at(source, m)))
                    .orElse(new Location(source, 1, 1));
            String problem = e.getProblem();
            String context = e.getContext();
            throw new ProfileException(
                    at,
                    "YAML syntax error: " + (context == null || context.isEmpty() ? "" : context + ": ") + problem,
                    e);
        } catch (YamlEngineException e) {
            throw new ProfileException(new Location(source, 1, 1), "YAML error: " + e.getMessage(), e);
        }
        if (root.isEmpty()) {
            throw new ProfileException(new Location(source, 1, 1), "the document is empty");
        }
        return convert(source, root.get(), 0);
    }

    private static YNode convert(String source, Node node, int depth) {
        Location loc = node.getStartMark().map(m -> at(source, m)).orElse(new Location(source, 1, 1));
        if (depth > MAX_DEPTH || node.isRecursive()) {
            throw new ProfileException(loc, "nesting too deep (or a recursive alias)");
        }
        return switch (node) {
            case ScalarNode s -> new YScalar(Tag.NULL.equals(s.getTag()) ? null : s.getValue(), loc);
            case SequenceNode seq -> {
                List<YNode> items = new ArrayList<>();
                for (Node item : seq.getValue()) {
                    items.add(convert(source, item, depth + 1));
                }
                yield new YList(items, loc);
            }
            case MappingNode map -> {
                Map<String, Entry> entries = new LinkedHashMap<>();
                for (NodeTuple t : map.getValue()) {
                    Node k = t.getKeyNode();
                    Location kloc = k.getStartMark().map(m -> at(source, m)).orElse(loc);
                    if (!(k instanceof ScalarNode ks) || Tag.NULL.equals(ks.getTag())) {
                        throw new ProfileException(kloc, "a key must be a plain name");
                    }
                    String key = ks.getValue();
                    if ("<<".equals(key)) {
                        throw new ProfileException(
                                kloc, "merge keys (<<) are not supported in profiles; use 'extends'");
                    }
                    Entry previous = entries.get(key);
                    if (previous != null) {
                        throw new ProfileException(
                                kloc, "duplicate key '" + key + "' (first at " + previous.keyLocation() + ")");
                    }
                    entries.put(key, new Entry(key, kloc, convert(source, t.getValueNode(), depth + 1)));
                }
                yield new YMap(entries, loc);
            }
            default -> throw new ProfileException(loc, "unsupported YAML node " + node.getNodeType());
        };
    }

    /** SnakeYAML marks are 0-based; people and editors count from 1. */
    static Location at(String source, Mark m) {
        return new Location(source, m.getLine() + 1, m.getColumn() + 1);
    }
}
