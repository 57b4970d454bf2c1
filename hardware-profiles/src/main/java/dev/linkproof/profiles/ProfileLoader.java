package dev.linkproof.profiles;

import dev.linkproof.profiles.YNode.Entry;
import dev.linkproof.profiles.YNode.YList;
import dev.linkproof.profiles.YNode.YMap;
import dev.linkproof.profiles.YNode.YScalar;
import dev.linkproof.transfer.probe.HardwareProbe;
import dev.linkproof.transfer.probe.ProbeReport;
import dev.linkproof.transfer.spi.Transports;
import java.io.IOException;
import java.nio.charset.MalformedInputException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import java.util.function.Supplier;

/**
 * Assembles the run's profile with DCGM-diagnostics-style precedence, lowest first: a built-in profile (by id, or
 * matched against the probe with {@code linkproof.profile=auto}); a profile file ({@code linkproof.profile=path}),
 * laid over the built-in it {@code extends:}, else alone; overlay files ({@code linkproof.profile.overlay}), in
 * order; properties {@code linkproof.criteria.<name>.<key>=<value>}. Each layer is merged as a YAML tree
 * ({@link TreeMerge}) and the result parsed once, so an error names the file, line and column (or the property)
 * that wrote the bad value. Call it once per run; nothing here depends on JUnit.
 */
public final class ProfileLoader {
    private final Map<String, String> properties;
    private final BuiltinProfiles builtins;

    public ProfileLoader(Map<String, String> properties) {
        this(properties, BuiltinProfiles.standard());
    }

    /** A loader for a run that discovered its {@code transports}: what a profile's {@code transport:} may name. */
    public ProfileLoader(Map<String, String> properties, Transports transports) {
        this(properties, BuiltinProfiles.standard(transports));
    }

    public ProfileLoader(Map<String, String> properties, BuiltinProfiles builtins) {
        this.properties = Map.copyOf(properties);
        this.builtins = builtins;
    }

    public BuiltinProfiles builtins() {
        return builtins;
    }

    /** A probe of the directory {@code linkproof.probe.root} names (default {@code /}), taken when first asked for. */
    public Supplier<ProbeReport> probe() {
        Path root = Path.of(properties.getOrDefault(ProfileProperties.PROBE_ROOT, "/"));
        return new Supplier<>() {
            private ProbeReport report;

            @Override
            public synchronized ProbeReport get() {
                if (report == null) {
                    report = new HardwareProbe(root).probe();
                }
                return report;
            }
        };
    }

    /** Loads with the probe {@link #probe()} takes. */
    public LoadedProfile load() {
        return load(probe());
    }

    /**
     * Chooses and assembles the profile. {@code probe} is only called for {@code auto}.
     *
     * @throws ProfileException for any problem in any layer, with its location
     */
    public LoadedProfile load(Supplier<ProbeReport> probe) {
        checkPropertyNames();
        String selection = properties
                .getOrDefault(ProfileProperties.PROFILE, ProfileProperties.AUTO)
                .strip();
        Location selAt = Location.property(ProfileProperties.PROFILE);
        YNode tree;
        List<String> layers = new ArrayList<>();
        Optional<MatchReport> match = Optional.empty();
        String how;
        if (selection.isEmpty() || selection.equalsIgnoreCase(ProfileProperties.AUTO)) {
            MatchReport report = ProfileMatcher.select(builtins.all(), probe.get());
            String id = report.selected()
                    .orElseThrow(() -> new ProfileException(
                            selAt,
                            "no built-in profile matches this host and none is a fallback:\n" + report.explain()));
            BuiltinProfiles.Resolved r = builtins.resolve(id);
            tree = r.tree();
            layers.addAll(r.layers());
            match = Optional.of(report);
            how = "auto";
        } else if (builtins.contains(selection)) {
            BuiltinProfiles.Resolved r = builtins.resolve(selection);
            tree = r.tree();
            layers.addAll(r.layers());
            how = "built-in " + selection;
        } else if (looksLikePath(selection)) {
            Path file = Path.of(selection);
            YNode fileTree = read(file, selAt);
            BuiltinProfiles.Resolved r = builtins.resolveTree(fileTree, "file " + file, new ArrayDeque<>(), null);
            tree = r.tree();
            layers.addAll(r.layers());
            how = "file " + file;
        } else {
            throw new ProfileException(
                    selAt,
                    "'" + selection + "' is neither a built-in profile"
                            + ProfileNodes.suggestion(selection, builtins.ids()) + " (built-ins: "
                            + String.join(", ", builtins.ids())
                            + ") nor a path to a .yaml file, nor auto");
        }

        String overlays = properties.getOrDefault(ProfileProperties.OVERLAY, "").strip();
        if (!overlays.isEmpty()) {
            for (String part : overlays.split(",")) {
                if (part.isBlank()) {
                    continue;
                }
                Path file = Path.of(part.strip());
                YNode overlay = read(file, Location.property(ProfileProperties.OVERLAY));
                YMap om = ProfileNodes.map(overlay, "an overlay");
                for (String forbidden : List.of("id", "extends")) {
                    Entry e = om.entries().get(forbidden);
                    if (e != null) {
                        throw new ProfileException(
                                e.keyLocation(),
                                "an overlay cannot set '" + forbidden
                                        + "': it changes the chosen profile, it does not choose one");
                    }
                }
                tree = TreeMerge.merge(tree, overlay, false);
                layers.add("overlay " + file);
            }
        }

        Optional<YMap> props = propertyLayer();
        if (props.isPresent()) {
            tree = TreeMerge.merge(tree, props.get(), true);
            properties.keySet().stream()
                    .filter(k -> k.startsWith(ProfileProperties.CRITERIA_PREFIX))
                    .sorted()
                    .forEach(k -> layers.add("property " + k));
        }
        HardwareProfile profile = ProfileParser.parse(tree, layers, builtins.transports());
        return new LoadedProfile(profile, how, match);
    }

    private static boolean looksLikePath(String s) {
        return s.contains("/") || s.contains("\\") || s.endsWith(".yaml") || s.endsWith(".yml");
    }

    private static YNode read(Path file, Location askedBy) {
        String text;
        try {
            text = Files.readString(file);
        } catch (MalformedInputException e) {
            throw new ProfileException(new Location(file.toString(), 0, 0), "not UTF-8 text", e);
        } catch (IOException e) {
            throw new ProfileException(
                    askedBy,
                    "cannot read profile file " + file.toAbsolutePath() + ": "
                            + (e instanceof java.nio.file.NoSuchFileException ? "no such file" : e.getMessage()),
                    e);
        }
        return YamlReader.read(file.toString(), text);
    }

    /** Rejects misspelled {@code linkproof.profile.*} keys, which would otherwise be ignored in silence. */
    private void checkPropertyNames() {
        for (String k : new TreeMap<>(properties).keySet()) {
            if (k.startsWith(ProfileProperties.PROFILE + ".") && !k.equals(ProfileProperties.OVERLAY)) {
                throw new ProfileException(
                        Location.property(k),
                        "unknown property" + ProfileNodes.suggestion(k, List.of(ProfileProperties.OVERLAY))
                                + " (profile properties: " + ProfileProperties.PROFILE + ", "
                                + ProfileProperties.OVERLAY + ", " + ProfileProperties.CRITERIA_PREFIX
                                + "<name>.<key>)");
            }
        }
    }

    /** {@code linkproof.criteria.<name>.<key>=<value>} as a tree: {@code criteria: [{name: <name>, <key>: <value>}]}. */
    private Optional<YMap> propertyLayer() {
        Map<String, Map<String, Entry>> byName = new LinkedHashMap<>();
        Map<String, Location> firstAt = new LinkedHashMap<>();
        for (Map.Entry<String, String> p : new TreeMap<>(properties).entrySet()) {
            String k = p.getKey();
            if (!k.startsWith(ProfileProperties.CRITERIA_PREFIX)) {
                continue;
            }
            Location at = Location.property(k);
            String rest = k.substring(ProfileProperties.CRITERIA_PREFIX.length());
            int dot = rest.indexOf('.');
            if (dot <= 0 || dot == rest.length() - 1 || rest.indexOf('.', dot + 1) >= 0) {
                throw new ProfileException(
                        at, "expected " + ProfileProperties.CRITERIA_PREFIX + "<criterion-name>.<key>");
            }
            String name = rest.substring(0, dot);
            String key = rest.substring(dot + 1);
            if (key.equals("name")) {
                throw new ProfileException(at, "a criterion's name cannot be changed by a property");
            }
            Map<String, Entry> entries = byName.computeIfAbsent(name, n -> new LinkedHashMap<>());
            firstAt.putIfAbsent(name, at);
            String v = p.getValue().strip();
            entries.put(key, new Entry(key, at, new YScalar(v.isEmpty() ? null : v, at)));
        }
        if (byName.isEmpty()) {
            return Optional.empty();
        }
        List<YNode> items = new ArrayList<>();
        for (Map.Entry<String, Map<String, Entry>> e : byName.entrySet()) {
            Location at = firstAt.get(e.getKey());
            Map<String, Entry> entries = new LinkedHashMap<>();
            entries.put("name", new Entry("name", at, new YScalar(e.getKey(), at)));
            entries.putAll(e.getValue());
            items.add(new YMap(entries, at));
        }
        Location at = Location.property(ProfileProperties.CRITERIA_PREFIX + "*");
        Map<String, Entry> top = new LinkedHashMap<>();
        top.put("criteria", new Entry("criteria", at, new YList(items, at)));
        return Optional.of(new YMap(top, at));
    }
}
