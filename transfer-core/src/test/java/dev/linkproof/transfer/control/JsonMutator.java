package dev.linkproof.transfer.control;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ContainerNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.function.Predicate;

/**
 * Malformed control-message bodies for fuzz tests: a valid body with one field somewhere in it
 * replaced by a hostile value (null, a wrong type, zero, negative, huge, a long string), removed, or
 * joined by an unknown one; or, one time in eight, the whole body truncated, emptied, replaced by
 * random bytes or by JSON of the wrong shape. Driven by the caller's seeded {@link Random}.
 */
public final class JsonMutator {
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final JsonNodeFactory NODES = JsonNodeFactory.instance;

    /** A mutated body and what was done to it (for the failure message). */
    public record Mutation(byte[] body, String description) {}

    private JsonMutator() {}

    public static Mutation mutate(byte[] valid, Random random) throws IOException {
        return mutate(valid, random, path -> true);
    }

    /** As {@link #mutate(byte[], Random)}, touching only the fields whose dotted path {@code mutable} accepts. */
    public static Mutation mutate(byte[] valid, Random random, Predicate<String> mutable) throws IOException {
        if (random.nextInt(8) == 0) {
            byte[] body = wholeBody(valid, random);
            return new Mutation(body, "whole body -> " + preview(body));
        }
        JsonNode tree = JSON.readTree(valid);
        String what = mutateField(tree, random, mutable);
        return new Mutation(JSON.writeValueAsBytes(tree), what);
    }

    private static String mutateField(JsonNode tree, Random random, Predicate<String> mutable) {
        List<String> paths = new ArrayList<>();
        List<ContainerNode<?>> parents = new ArrayList<>();
        List<Object> keys = new ArrayList<>();
        collect(tree, "", paths, parents, keys);
        // Chosen among the paths in sorted order, not as the body lists them: a peer serializes its
        // maps (an endpoint from Map.of) in an order that changes from JVM to JVM, and a seed must
        // pick the same field on every run for a failure to replay.
        List<Integer> candidates = new ArrayList<>();
        for (int i = 0; i < paths.size(); i++) {
            if (mutable.test(paths.get(i))) {
                candidates.add(i);
            }
        }
        if (candidates.isEmpty()) {
            return "nothing (no fields)";
        }
        candidates.sort(Comparator.comparing(paths::get));
        int k = candidates.get(random.nextInt(candidates.size()));
        ContainerNode<?> parent = parents.get(k);
        Object key = keys.get(k);
        int action = random.nextInt(10);
        if (action == 0 && parent instanceof ObjectNode o) {
            o.remove((String) key);
            return "'" + paths.get(k) + "' removed";
        }
        if (action == 1 && parent instanceof ObjectNode o) {
            o.put("fuzzExtra", 1);
            return "an unknown field beside '" + paths.get(k) + "'";
        }
        JsonNode value = hostile(random);
        if (parent instanceof ObjectNode o) {
            o.set((String) key, value);
        } else {
            ((ArrayNode) parent).set((Integer) key, value);
        }
        return "'" + paths.get(k) + "' = " + preview(value.toString().getBytes(StandardCharsets.UTF_8));
    }

    private static void collect(
            JsonNode node, String path, List<String> paths, List<ContainerNode<?>> parents, List<Object> keys) {
        if (node instanceof ObjectNode o) {
            for (Map.Entry<String, JsonNode> e : o.properties()) {
                String p = path.isEmpty() ? e.getKey() : path + "." + e.getKey();
                paths.add(p);
                parents.add(o);
                keys.add(e.getKey());
                collect(e.getValue(), p, paths, parents, keys);
            }
        } else if (node instanceof ArrayNode a) {
            for (int i = 0; i < a.size(); i++) {
                String p = path + "[" + i + "]";
                paths.add(p);
                parents.add(a);
                keys.add(i);
                collect(a.get(i), p, paths, parents, keys);
            }
        }
    }

    private static JsonNode hostile(Random random) {
        return switch (random.nextInt(14)) {
            case 0 -> NODES.nullNode();
            case 1 -> NODES.numberNode(0);
            case 2 -> NODES.numberNode(-1);
            case 3 -> NODES.numberNode(Long.MAX_VALUE);
            case 4 -> NODES.numberNode(Long.MIN_VALUE);
            case 5 -> NODES.numberNode((long) Integer.MAX_VALUE + 1);
            case 6 -> NODES.numberNode(1L << 40);
            case 7 -> NODES.numberNode(1e300);
            case 8 -> NODES.textNode("x");
            case 9 -> NODES.textNode("");
            case 10 -> NODES.textNode("z".repeat(20_000));
            case 11 -> NODES.booleanNode(true);
            case 12 -> NODES.objectNode().put("a", 1);
            default -> NODES.arrayNode().add(1).add("b");
        };
    }

    private static byte[] wholeBody(byte[] valid, Random random) {
        return switch (random.nextInt(6)) {
            case 0 -> Arrays.copyOf(valid, random.nextInt(Math.max(1, valid.length)));
            case 1 -> new byte[0];
            case 2 -> {
                byte[] b = new byte[1 + random.nextInt(200)];
                random.nextBytes(b);
                yield b;
            }
            case 3 -> "null".getBytes(StandardCharsets.UTF_8);
            case 4 -> "[1,2,3]".getBytes(StandardCharsets.UTF_8);
            default -> "\"a string\"".getBytes(StandardCharsets.UTF_8);
        };
    }

    private static String preview(byte[] body) {
        String s = new String(body, StandardCharsets.UTF_8);
        return s.length() > 60 ? s.substring(0, 60) + "... (" + s.length() + " chars)" : s;
    }
}
