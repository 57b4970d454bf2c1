package dev.linkproof.conformance.fleet;

import io.fabric8.zjsonpatch.JsonPatch;
import io.fabric8.zjsonpatch.JsonPatchException;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.regex.Pattern;
import org.snakeyaml.engine.v2.api.Load;
import org.snakeyaml.engine.v2.api.LoadSettings;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * Renders a kustomization by kustomize v5's rules for the subset the Kubernetes kit keeps to, so CI checks the kit
 * without kustomize: {@code resources} (in order; one id twice is an error), then {@code components} applied in order
 * to what has accumulated (so a component's patch sees the base's objects), then {@code patches} (JSON 6902 with a
 * {@code target} whose kind and name are anchored regular expressions; a target selecting nothing is legal but kept in
 * {@link Rendered#unmatched} for the kit's checks to refuse), {@code namespace} (also on a (Cluster)RoleBinding
 * subject that is one of the build's ServiceAccounts) and {@code images}. Anything else is refused
 * ({@link OutsideSubset}, naming the file); KubernetesKitTest compares the output with {@code kubectl kustomize}'s.
 */
final class KustomizeSubset {
    static final Set<String> FIELDS =
            Set.of("apiVersion", "kind", "resources", "components", "patches", "namespace", "images");
    /** The kinds of objects kustomize leaves without a namespace (those the kit could use). */
    static final Set<String> CLUSTER_SCOPED = Set.of(
            "Namespace",
            "Node",
            "ClusterRole",
            "ClusterRoleBinding",
            "PersistentVolume",
            "StorageClass",
            "CustomResourceDefinition",
            "PriorityClass",
            "RuntimeClass",
            "IngressClass",
            "ValidatingWebhookConfiguration",
            "MutatingWebhookConfiguration",
            "APIService");

    private static final JsonMapper JSON = JsonMapper.builder().build();

    /** The objects, in kustomize's accumulation order, and the patches whose target selected nothing. */
    record Rendered(List<Map<String, Object>> objects, List<String> unmatched) {}

    /** A kustomization that uses what the subset does not cover, or breaks kustomize's rules. */
    static final class OutsideSubset extends RuntimeException {
        OutsideSubset(String message) {
            super(message);
        }
    }

    private final List<String> unmatched = new ArrayList<>();

    private KustomizeSubset() {}

    /** Builds the Kustomization in {@code dir}, as {@code kubectl kustomize dir} does. */
    static Rendered build(Path dir) {
        KustomizeSubset k = new KustomizeSubset();
        List<Map<String, Object>> objects =
                k.kustomization(dir.toAbsolutePath().normalize(), "Kustomization", new ArrayList<>());
        return new Rendered(objects, List.copyOf(k.unmatched));
    }

    /** Reads every YAML document of a file; the empty ones are skipped. */
    @SuppressWarnings("unchecked")
    static List<Map<String, Object>> documents(String yaml, String what) {
        List<Map<String, Object>> docs = new ArrayList<>();
        for (Object doc : new Load(LoadSettings.builder().build()).loadAllFromString(yaml)) {
            if (doc == null) {
                continue;
            }
            if (!(doc instanceof Map<?, ?> m)) {
                throw new OutsideSubset(what + ": a document that is not a mapping: " + doc);
            }
            docs.add((Map<String, Object>) m);
        }
        return docs;
    }

    /**
     * Accumulates {@code dir}'s kustomization into {@code acc} (a Component) or into a fresh list (a
     * Kustomization), and returns the result.
     */
    private List<Map<String, Object>> kustomization(Path dir, String kind, List<Map<String, Object>> acc) {
        Path file = dir.resolve("kustomization.yaml");
        if (!Files.isRegularFile(file)) {
            throw new OutsideSubset(dir + ": no kustomization.yaml (the subset reads that name only)");
        }
        Map<String, Object> k = map(one(read(file), file), file.toString());
        for (String key : k.keySet()) {
            if (!FIELDS.contains(key)) {
                throw new OutsideSubset(file + ": '" + key + "' is outside the kustomize subset the kit keeps to ("
                        + String.join(", ", FIELDS.stream().sorted().toList())
                        + "; patches as JSON 6902 with a target)");
            }
        }
        String actual = (String) k.getOrDefault("kind", "Kustomization");
        if (!actual.equals(kind)) {
            throw new OutsideSubset(file + ": a " + actual + " where a " + kind
                    + " is expected (resources are Kustomizations, components Components)");
        }
        for (String r : strings(k.get("resources"), file + ": resources")) {
            Path p = resolve(dir, r, file);
            if (Files.isDirectory(p)) {
                add(acc, kustomization(p, "Kustomization", new ArrayList<>()), p);
            } else {
                add(acc, documents(read(p), p.toString()), p);
            }
        }
        for (String c : strings(k.get("components"), file + ": components")) {
            Path p = resolve(dir, c, file);
            if (!Files.isDirectory(p)) {
                throw new OutsideSubset(file + ": component " + c + " is not a directory");
            }
            kustomization(p, "Component", acc);
        }
        // kustomize's transformer order: patches, namespace, …, images.
        for (Object patch : list(k.get("patches"), file + ": patches")) {
            patch(dir, map(patch, file + ": a patch"), file, acc);
        }
        if (k.get("namespace") != null) {
            namespace(String.valueOf(k.get("namespace")), acc);
        }
        for (Object image : list(k.get("images"), file + ": images")) {
            image(map(image, file + ": an image"), file, acc);
        }
        return acc;
    }

    private static void add(List<Map<String, Object>> acc, List<Map<String, Object>> more, Path from) {
        Set<String> ids = new LinkedHashSet<>();
        acc.forEach(o -> ids.add(id(o)));
        for (Map<String, Object> o : more) {
            if (!ids.add(id(o))) {
                throw new OutsideSubset(
                        from + ": " + id(o) + " is already in the build (kustomize refuses an id twice)");
            }
            acc.add(o);
        }
    }

    /** kustomize's resource id: group, kind, namespace and name. */
    static String id(Map<String, Object> o) {
        Map<String, Object> meta = map(o.get("metadata"), kindName(o) + ": metadata");
        return group(o) + "/" + o.get("kind") + "/" + meta.getOrDefault("namespace", "") + "/" + meta.get("name");
    }

    private static String group(Map<String, Object> o) {
        String apiVersion = String.valueOf(o.get("apiVersion"));
        return apiVersion.contains("/") ? apiVersion.substring(0, apiVersion.indexOf('/')) : "";
    }

    private static String version(Map<String, Object> o) {
        String apiVersion = String.valueOf(o.get("apiVersion"));
        return apiVersion.substring(apiVersion.indexOf('/') + 1);
    }

    private static String kindName(Map<String, Object> o) {
        Object meta = o.get("metadata");
        return o.get("kind") + "/" + (meta instanceof Map<?, ?> m ? m.get("name") : "?");
    }

    private void patch(Path dir, Map<String, Object> p, Path file, List<Map<String, Object>> acc) {
        for (String key : p.keySet()) {
            if (!Set.of("path", "patch", "target").contains(key)) {
                throw new OutsideSubset(
                        file + ": a patch's '" + key + "' is outside the subset (path or patch, and target)");
            }
        }
        if ((p.get("path") == null) == (p.get("patch") == null)) {
            throw new OutsideSubset(file + ": a patch needs exactly one of path and patch");
        }
        String where = p.get("path") != null
                ? dir.resolve(String.valueOf(p.get("path"))).normalize().toString()
                : file + ": inline patch";
        String text = p.get("path") != null
                ? read(resolve(dir, String.valueOf(p.get("path")), file))
                : String.valueOf(p.get("patch"));
        Object ops = new Load(LoadSettings.builder().build()).loadFromString(text);
        if (!(ops instanceof List<?>)) {
            throw new OutsideSubset(
                    where + ": not a list of JSON 6902 operations (a strategic-merge patch is outside the subset)");
        }
        if (p.get("target") == null) {
            throw new OutsideSubset(where + ": a JSON 6902 patch needs a target");
        }
        Map<String, Object> target = map(p.get("target"), where + ": target");
        for (String key : target.keySet()) {
            if (!Set.of("group", "version", "kind", "name", "labelSelector").contains(key)) {
                throw new OutsideSubset(where + ": target's '" + key
                        + "' is outside the subset (group, version, kind, name, labelSelector)");
            }
        }
        JsonNode patch = JSON.valueToTree(ops);
        boolean matched = false;
        for (int i = 0; i < acc.size(); i++) {
            Map<String, Object> o = acc.get(i);
            if (!selects(target, o, where)) {
                continue;
            }
            matched = true;
            try {
                @SuppressWarnings("unchecked")
                Map<String, Object> patched =
                        JSON.convertValue(JsonPatch.apply(patch, JSON.valueToTree(o)), LinkedHashMap.class);
                acc.set(i, patched);
            } catch (JsonPatchException | IllegalArgumentException e) {
                throw new OutsideSubset(where + ": cannot apply to " + kindName(o) + ": " + e.getMessage());
            }
        }
        if (!matched) {
            unmatched.add(where + " (target " + target + ")");
        }
    }

    private static boolean selects(Map<String, Object> target, Map<String, Object> o, String where) {
        if (target.containsKey("group") && !String.valueOf(target.get("group")).equals(group(o))) {
            return false;
        }
        if (target.containsKey("version")
                && !String.valueOf(target.get("version")).equals(version(o))) {
            return false;
        }
        if (target.containsKey("kind")
                && !Pattern.matches(String.valueOf(target.get("kind")), String.valueOf(o.get("kind")))) {
            return false;
        }
        Map<String, Object> meta = map(o.get("metadata"), kindName(o) + ": metadata");
        if (target.containsKey("name")
                && !Pattern.matches(String.valueOf(target.get("name")), String.valueOf(meta.get("name")))) {
            return false;
        }
        if (target.containsKey("labelSelector")) {
            Map<String, Object> labels =
                    meta.get("labels") instanceof Map<?, ?> ? map(meta.get("labels"), "labels") : Map.of();
            for (String term : String.valueOf(target.get("labelSelector")).split(",")) {
                String[] kv = term.strip().split("=", -1);
                if (kv.length != 2 || kv[0].endsWith("!")) {
                    throw new OutsideSubset(
                            where + ": labelSelector term '" + term + "' is outside the subset (key=value terms only)");
                }
                if (!kv[1].strip().equals(String.valueOf(labels.get(kv[0].strip())))) {
                    return false;
                }
            }
        }
        return true;
    }

    private static void namespace(String ns, List<Map<String, Object>> acc) {
        Set<String> serviceAccounts = new LinkedHashSet<>();
        acc.stream()
                .filter(o -> "ServiceAccount".equals(o.get("kind")))
                .forEach(o -> serviceAccounts.add(
                        String.valueOf(map(o.get("metadata"), "metadata").get("name"))));
        for (Map<String, Object> o : acc) {
            if (!CLUSTER_SCOPED.contains(String.valueOf(o.get("kind")))) {
                map(o.get("metadata"), kindName(o) + ": metadata").put("namespace", ns);
            }
            if (List.of("RoleBinding", "ClusterRoleBinding").contains(o.get("kind")) && o.get("subjects") != null) {
                for (Object s : list(o.get("subjects"), kindName(o) + ": subjects")) {
                    Map<String, Object> subject = map(s, "subject");
                    Object was = subject.get("namespace");
                    if (serviceAccounts.contains(String.valueOf(subject.get("name")))
                            && (was == null || "default".equals(was))) {
                        subject.put("namespace", ns);
                    }
                }
            }
        }
    }

    private static void image(Map<String, Object> image, Path file, List<Map<String, Object>> acc) {
        for (String key : image.keySet()) {
            if (!Set.of("name", "newName", "newTag", "digest").contains(key)) {
                throw new OutsideSubset(
                        file + ": an image's '" + key + "' is outside the subset (name, newName, newTag, digest)");
            }
        }
        String name = String.valueOf(image.get("name"));
        acc.forEach(o -> retag(o, name, image));
    }

    /** Every container's image under {@code node} whose name is {@code name}, given the knob's new parts. */
    private static void retag(Object node, String name, Map<String, Object> knob) {
        if (node instanceof Map<?, ?> m) {
            for (Map.Entry<?, ?> e : m.entrySet()) {
                if (("containers".equals(e.getKey()) || "initContainers".equals(e.getKey()))
                        && e.getValue() instanceof List<?> containers) {
                    for (Object c : containers) {
                        if (c instanceof Map<?, ?> container && container.get("image") instanceof String ref) {
                            String next = retagged(ref, name, knob);
                            @SuppressWarnings("unchecked")
                            Map<String, Object> writable = (Map<String, Object>) container;
                            writable.put("image", next);
                        }
                    }
                }
                retag(e.getValue(), name, knob);
            }
        } else if (node instanceof List<?> l) {
            l.forEach(x -> retag(x, name, knob));
        }
    }

    static String retagged(String ref, String name, Map<String, Object> knob) {
        String digest = null;
        String rest = ref;
        if (rest.contains("@")) {
            digest = rest.substring(rest.indexOf('@') + 1);
            rest = rest.substring(0, rest.indexOf('@'));
        }
        String tag = null;
        int colon = rest.lastIndexOf(':');
        if (colon > rest.lastIndexOf('/')) {
            tag = rest.substring(colon + 1);
            rest = rest.substring(0, colon);
        }
        if (!rest.equals(name)) {
            return ref;
        }
        String newName = knob.get("newName") != null ? String.valueOf(knob.get("newName")) : rest;
        if (knob.get("digest") != null) {
            return newName + "@" + knob.get("digest");
        }
        if (knob.get("newTag") != null) {
            return newName + ":" + knob.get("newTag");
        }
        return newName + (tag != null ? ":" + tag : "") + (digest != null ? "@" + digest : "");
    }

    private static Path resolve(Path dir, String entry, Path file) {
        if (entry.contains("://") || entry.startsWith("github.com/") || entry.contains("?ref=")) {
            throw new OutsideSubset(file + ": remote resource " + entry + " is outside the subset");
        }
        Path p = dir.resolve(entry).normalize();
        if (!Files.exists(p)) {
            throw new OutsideSubset(file + ": " + entry + " does not exist (" + p + ")");
        }
        return p;
    }

    private static String read(Path p) {
        try {
            return Files.readString(p);
        } catch (IOException e) {
            throw new OutsideSubset(p + ": cannot be read: " + e.getMessage());
        }
    }

    private static Map<String, Object> one(String yaml, Path file) {
        List<Map<String, Object>> docs = documents(yaml, file.toString());
        if (docs.size() != 1) {
            throw new OutsideSubset(file + ": " + docs.size() + " documents, not one kustomization");
        }
        return docs.getFirst();
    }

    @SuppressWarnings("unchecked")
    static Map<String, Object> map(Object o, String what) {
        if (!(o instanceof Map<?, ?>)) {
            throw new OutsideSubset(what + ": not a mapping: " + o);
        }
        return (Map<String, Object>) o;
    }

    @SuppressWarnings("unchecked")
    static List<Object> list(Object o, String what) {
        if (o == null) {
            return List.of();
        }
        if (!(o instanceof List<?>)) {
            throw new OutsideSubset(what + ": not a list: " + o);
        }
        return (List<Object>) o;
    }

    private static List<String> strings(Object o, String what) {
        return list(o, what).stream().map(String::valueOf).toList();
    }
}
