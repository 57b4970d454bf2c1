package dev.linkproof.profiles;

import dev.linkproof.profiles.YNode.Entry;
import dev.linkproof.profiles.YNode.YMap;
import dev.linkproof.profiles.YNode.YScalar;
import dev.linkproof.transfer.spi.Transports;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Supplier;

/**
 * The profiles shipped as resources ({@code dev/linkproof/profiles/<id>.yaml}, listed in
 * {@code dev/linkproof/profiles/builtin.list}), and the resolution of {@code extends} chains among
 * them. A built-in profile may extend another: the GPU profiles extend their NIC's profile and add
 * GPU-memory criteria.
 */
public final class BuiltinProfiles {
    public static final String RESOURCE_DIR = "dev/linkproof/profiles/";
    public static final String INDEX = RESOURCE_DIR + "builtin.list";

    private final Map<String, String> texts;
    private final Map<String, HardwareProfile> parsed = new ConcurrentHashMap<>();
    /** The ids a profile's {@code transport:} may name: the run's transports, read when a profile is first parsed. */
    private final Supplier<Set<String>> transports;

    private BuiltinProfiles(Map<String, String> texts, Supplier<Set<String>> transports) {
        this.texts = texts;
        this.transports = transports;
    }

    /** The profiles shipped in this jar, checked against the transports on the class path, discovered once when first needed. */
    public static BuiltinProfiles standard() {
        return new BuiltinProfiles(shipped(), onClassPath());
    }

    /** The profiles shipped in this jar, checked against the run's {@code transports}. */
    public static BuiltinProfiles standard(Transports transports) {
        return new BuiltinProfiles(shipped(), transports::ids);
    }

    private static Map<String, String> shipped() {
        Map<String, String> texts = new LinkedHashMap<>();
        ClassLoader cl = BuiltinProfiles.class.getClassLoader();
        String index = resource(cl, INDEX).orElseThrow(() -> new IllegalStateException("missing resource " + INDEX));
        for (String line : index.split("\n")) {
            String id = line.strip();
            if (id.isEmpty() || id.startsWith("#")) {
                continue;
            }
            String res = RESOURCE_DIR + id + ".yaml";
            texts.put(id, resource(cl, res).orElseThrow(() -> new IllegalStateException("missing resource " + res)));
        }
        return texts;
    }

    /** A set of profiles given as id → YAML text (tests, or a harness with its own set), as {@link #standard()} checks them. */
    public static BuiltinProfiles of(Map<String, String> texts) {
        return new BuiltinProfiles(new LinkedHashMap<>(texts), onClassPath());
    }

    /** The ids of the transports on the class path, discovered at the first call and kept. */
    private static Supplier<Set<String>> onClassPath() {
        return new Supplier<>() {
            private Set<String> ids;

            @Override
            public synchronized Set<String> get() {
                if (ids == null) {
                    ids = Transports.discover().ids();
                }
                return ids;
            }
        };
    }

    /** The ids a profile's {@code transport:} may name. */
    Set<String> transports() {
        return transports.get();
    }

    public List<String> ids() {
        return List.copyOf(texts.keySet());
    }

    public boolean contains(String id) {
        return texts.containsKey(id);
    }

    /** The YAML as shipped. */
    public Optional<String> text(String id) {
        return Optional.ofNullable(texts.get(id));
    }

    /** A built-in profile, with its {@code extends} chain resolved. */
    public HardwareProfile profile(String id) {
        if (!contains(id)) {
            throw new IllegalArgumentException("no built-in profile '" + id + "'");
        }
        return parsed.computeIfAbsent(id, k -> {
            Resolved r = resolve(k);
            return ProfileParser.parse(r.tree(), r.layers(), transports());
        });
    }

    /** Every built-in profile, in index order. */
    public List<HardwareProfile> all() {
        return ids().stream().map(this::profile).toList();
    }

    /** Source label of a built-in, as locations print it. */
    static String label(String id) {
        return "built-in " + RESOURCE_DIR + id + ".yaml";
    }

    Resolved resolve(String id) {
        return resolve(id, new ArrayDeque<>());
    }

    private Resolved resolve(String id, Deque<String> chain) {
        YNode tree = YamlReader.read(label(id), texts.get(id));
        return resolveTree(tree, "built-in " + id, chain, id);
    }

    /**
     * Resolves a tree's {@code extends} against these built-ins: the tree is laid over the profile it
     * extends. {@code chain} holds the built-ins being resolved below this one; {@code self} is the
     * tree's own built-in id, or null for a file.
     */
    Resolved resolveTree(YNode tree, String layer, Deque<String> chain, String self) {
        if (!(tree instanceof YMap m) || !m.entries().containsKey("extends")) {
            return new Resolved(tree, List.of(layer));
        }
        YScalar s = ProfileNodes.scalar(m.entries().get("extends").value(), "extends");
        String base = s.value().strip();
        if (!contains(base)) {
            throw new ProfileException(
                    s.location(),
                    "extends '" + base + "', which is not a built-in profile" + ProfileNodes.suggestion(base, ids())
                            + " (built-ins: " + String.join(", ", ids()) + ")");
        }
        List<String> seen = new ArrayList<>(chain);
        if (self != null) {
            seen.add(self);
        }
        if (seen.contains(base)) {
            throw new ProfileException(s.location(), "extends chain loops: " + String.join(" → ", seen) + " → " + base);
        }
        Resolved lower = resolve(base, new ArrayDeque<>(seen));
        Map<String, Entry> rest = new LinkedHashMap<>(m.entries());
        rest.remove("extends");
        YNode merged = TreeMerge.merge(lower.tree(), new YMap(rest, m.location()), false);
        List<String> layers = new ArrayList<>(lower.layers());
        layers.add(layer);
        return new Resolved(merged, layers);
    }

    record Resolved(YNode tree, List<String> layers) {}

    private static Optional<String> resource(ClassLoader cl, String name) {
        try (InputStream in = cl.getResourceAsStream(name)) {
            return in == null ? Optional.empty() : Optional.of(new String(in.readAllBytes(), StandardCharsets.UTF_8));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
