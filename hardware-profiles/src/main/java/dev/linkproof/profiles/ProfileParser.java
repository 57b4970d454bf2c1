package dev.linkproof.profiles;

import dev.linkproof.profiles.YNode.Entry;
import dev.linkproof.profiles.YNode.YList;
import dev.linkproof.profiles.YNode.YMap;
import dev.linkproof.profiles.YNode.YScalar;
import dev.linkproof.transfer.MemoryKind;
import dev.linkproof.transfer.Mode;
import dev.linkproof.transfer.Op;
import dev.linkproof.transfer.TransferSpec;
import dev.linkproof.transfer.probe.CpuList;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.EnumSet;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalDouble;
import java.util.OptionalInt;
import java.util.Set;
import java.util.regex.Pattern;
import java.util.stream.Collectors;

/**
 * Reads a merged {@link YNode} tree into a {@link HardwareProfile}, strictly: an unknown key, a value
 * of the wrong shape, a bad unit, an empty range, or two criteria setting the same threshold for the
 * same point is a {@link ProfileException} at the offending node.
 */
final class ProfileParser {
    static final Pattern ID = Pattern.compile("[a-z0-9][a-z0-9._-]*");
    static final Pattern NAME = Pattern.compile("[a-z0-9][a-z0-9_-]*");
    private static final Pattern ENV = Pattern.compile("[A-Za-z_][A-Za-z0-9_]*");

    static final List<String> TOP = List.of("id", "vendor", "description", "sources", "match", "resources", "transport",
            "defaults", "baseline", "fleet", "criteria");
    static final List<String> MATCH = List.of("fallback", "nic", "gpu");
    static final List<String> NIC = List.of("pci-vendor", "pci-device", "driver", "link-rate", "link-layer",
            "min-firmware", "min-count");
    static final List<String> GPU = List.of("vendor", "model", "pci-device", "min-count");
    static final List<String> RESOURCES = List.of("nics", "gpus", "cpu-cores", "hugepages");
    static final List<String> TRANSPORT = List.of("settings", "environment", "required");
    static final List<String> DEFAULTS = List.of("qps", "iterations", "warmup", "batch");
    static final List<String> BASELINE = List.of("tolerance");
    static final List<String> FLEET = List.of("min-of-median-bandwidth", "max-of-lowest-latency", "max-deviations", "min-nodes",
            "min-pairs", "confirmations", "max-blamed-fraction", "act-after");
    static final List<String> CRITERION = List.of("name", "op", "memory", "mode", "sizes", "batch", "rails", "transport",
            "settings", "min-bandwidth", "min-aggregate-bandwidth", "min-rail-balance", "max-avg-latency", "max-p99-latency",
            "max-drop", "min-ops-per-second", "enabled");
    static final List<String> SETTING_MATCH = List.of("not");
    private static final Pattern TRANSPORT_ID = Pattern.compile("[a-z0-9][a-z0-9_-]*");

    private ProfileParser() {
    }

    /**
     * @param transports the ids of the transports on the class path, as the run discovered them: what
     *                   a {@code transport:} may name
     */
    static HardwareProfile parse(YNode root, List<String> layers, Set<String> transports) {
        Fields top = new Fields(map(root, "a profile"), "profile", TOP);
        String id = top.requiredString("id");
        if (!ID.matcher(id).matches()) {
            throw new ProfileException(top.location("id"), "bad profile id '" + id
                    + "' (lower-case letters, digits, '.', '_' and '-', starting with a letter or digit)");
        }
        String vendor = top.requiredString("vendor");
        String description = top.optionalString("description").orElse("");
        List<String> sources = top.node("sources").map(n -> strings(n, "sources")).orElse(List.of());

        MatchRules match = top.node("match").map(ProfileParser::match)
                .orElseThrow(() -> new ProfileException(top.mapLocation(), "profile '" + id + "' has no 'match' section"));
        ResourceSpec resources = top.node("resources").map(ProfileParser::resources).orElse(ResourceSpec.AUTO);
        TransportConfig transport = top.node("transport").map(n -> transport(n, transports)).orElse(TransportConfig.NONE);
        Defaults defaults = top.node("defaults").map(ProfileParser::defaults).orElse(Defaults.NONE);
        BaselineSettings baseline = top.node("baseline").map(ProfileParser::baseline).orElse(BaselineSettings.NONE);
        FleetCriteria fleet = top.node("fleet").map(ProfileParser::fleet).orElse(FleetCriteria.NONE);

        List<Criterion> criteria = new ArrayList<>();
        Map<String, Location> names = new LinkedHashMap<>();
        Optional<YNode> cnode = top.node("criteria");
        if (cnode.isPresent()) {
            YList list = list(cnode.get(), "criteria");
            for (YNode item : list.items()) {
                Optional<Criterion> c = criterion(item, match, names, transports);
                c.ifPresent(criteria::add);
            }
        }
        checkOverlaps(criteria);
        return new HardwareProfile(id, vendor, description, sources, match, resources, transport, defaults, baseline,
                fleet, criteria, layers);
    }

    // ---- sections ----------------------------------------------------------------------------

    private static MatchRules match(YNode node) {
        Fields f = new Fields(map(node, "match"), "match", MATCH);
        boolean fallback = f.optionalBoolean("fallback").orElse(false);
        Optional<NicRule> nic = f.node("nic").map(ProfileParser::nic);
        Optional<GpuRule> gpu = f.node("gpu").map(ProfileParser::gpu);
        if (fallback && (nic.isPresent() || gpu.isPresent())) {
            throw new ProfileException(f.location("fallback"), "a fallback profile has no nic or gpu rules");
        }
        if (!fallback && nic.isEmpty() && gpu.isEmpty()) {
            throw new ProfileException(f.mapLocation(), "match needs a 'nic' or 'gpu' rule, or 'fallback: true'");
        }
        return new MatchRules(fallback, nic, gpu);
    }

    private static NicRule nic(YNode node) {
        Fields f = new Fields(map(node, "match.nic"), "match.nic", NIC);
        OptionalInt vendor = f.scalar("pci-vendor").map(s -> OptionalInt.of(ProfileUnits.pciId(s.value(), s.location())))
                .orElse(OptionalInt.empty());
        List<Integer> devices = f.node("pci-device").map(n -> scalars(n, "match.nic.pci-device").stream()
                .map(s -> ProfileUnits.pciId(s.value(), s.location())).toList()).orElse(List.of());
        List<String> drivers = f.node("driver").map(n -> strings(n, "match.nic.driver")).orElse(List.of());
        OptionalDouble rate = f.scalar("link-rate").map(s -> OptionalDouble.of(ProfileUnits.linkRate(s.value(), s.location())))
                .orElse(OptionalDouble.empty());
        Optional<String> layer = f.scalar("link-layer").map(s -> {
            String v = s.value().strip().toLowerCase(Locale.ROOT);
            return switch (v) {
                case "ethernet" -> "Ethernet";
                case "infiniband" -> "InfiniBand";
                default -> throw new ProfileException(s.location(), "bad link-layer '" + s.value()
                        + "' (expected ethernet or infiniband)");
            };
        });
        Optional<String> fw = f.scalar("min-firmware").map(s -> ProfileUnits.firmware(s.value(), s.location()));
        int minCount = f.scalar("min-count").map(s -> (int) ProfileUnits.count(s.value(), s.location(), "min-count")).orElse(1);
        return new NicRule(vendor, devices, drivers, rate, layer, fw, minCount);
    }

    private static GpuRule gpu(YNode node) {
        Fields f = new Fields(map(node, "match.gpu"), "match.gpu", GPU);
        Optional<String> vendor = f.scalar("vendor").map(s -> {
            String v = s.value().strip().toLowerCase(Locale.ROOT);
            return switch (v) {
                case "amd", "0x1002" -> "amd";
                case "nvidia", "0x10de" -> "nvidia";
                case "intel", "0x8086" -> "intel";
                default -> throw new ProfileException(s.location(), "bad GPU vendor '" + s.value()
                        + "' (expected amd, nvidia or intel)");
            };
        });
        List<String> models = f.node("model").map(n -> strings(n, "match.gpu.model")).orElse(List.of());
        List<Integer> devices = f.node("pci-device").map(n -> scalars(n, "match.gpu.pci-device").stream()
                .map(s -> ProfileUnits.pciId(s.value(), s.location())).toList()).orElse(List.of());
        int minCount = f.scalar("min-count").map(s -> (int) ProfileUnits.count(s.value(), s.location(), "min-count")).orElse(1);
        return new GpuRule(vendor, models, devices, minCount);
    }

    private static ResourceSpec resources(YNode node) {
        Fields f = new Fields(map(node, "resources"), "resources", RESOURCES);
        List<String> nics = f.node("nics").map(n -> isWord(n, "auto") ? List.<String>of() : strings(n, "resources.nics"))
                .orElse(List.of());
        boolean gpusAuto = true;
        List<Integer> gpus = List.of();
        Optional<YNode> g = f.node("gpus");
        if (g.isPresent()) {
            if (isWord(g.get(), "auto")) {
                gpusAuto = true;
            } else if (isWord(g.get(), "none")) {
                gpusAuto = false;
            } else {
                gpusAuto = false;
                gpus = scalars(g.get(), "resources.gpus").stream().map(s -> {
                    try {
                        int i = Integer.parseInt(s.value().strip());
                        if (i < 0) {
                            throw new NumberFormatException();
                        }
                        return i;
                    } catch (NumberFormatException e) {
                        throw new ProfileException(s.location(), "bad GPU index '" + s.value() + "' (expected auto, none, or indices like [0, 1])");
                    }
                }).toList();
            }
        }
        List<Integer> cores = f.scalar("cpu-cores").map(s -> {
            if (s.value().strip().equalsIgnoreCase("auto")) {
                return List.<Integer>of();
            }
            try {
                return CpuList.parse(s.value());
            } catch (IllegalArgumentException e) {
                throw new ProfileException(s.location(), e.getMessage() + " or auto");
            }
        }).orElse(List.of());
        long huge = f.scalar("hugepages").map(s -> {
            try {
                long v = Long.parseLong(s.value().strip());
                if (v < 0) {
                    throw new NumberFormatException();
                }
                return v;
            } catch (NumberFormatException e) {
                throw new ProfileException(s.location(), "bad hugepages '" + s.value() + "' (expected a number of free huge pages, e.g. 1024)");
            }
        }).orElse(0L);
        return new ResourceSpec(nics, gpus, gpusAuto, cores, huge);
    }

    private static TransportConfig transport(YNode node, Set<String> known) {
        Fields f = new Fields(map(node, "transport"), "transport", TRANSPORT);
        Map<String, String> settings = f.node("settings").map(n -> stringMap(n, "transport.settings", false)).orElse(Map.of());
        Map<String, String> env = f.node("environment").map(n -> stringMap(n, "transport.environment", true)).orElse(Map.of());
        // Names checked as a criterion's are: a misspelt one would require nothing.
        // An empty list requires nothing: how an overlay clears what a built-in requires.
        Set<String> required = f.node("required")
                .map(n -> n instanceof YList l && l.items().isEmpty() ? Set.<String>of()
                        : transports(n, false, "transport.required", known))
                .orElse(Set.of());
        return new TransportConfig(settings, env, required);
    }

    private static Defaults defaults(YNode node) {
        Fields f = new Fields(map(node, "defaults"), "defaults", DEFAULTS);
        return new Defaults(bounded(f, "qps", 1, TransferSpec.MAX_CONNECTIONS),
                bounded(f, "iterations", 1, 1_000_000_000), bounded(f, "warmup", 0, 1_000_000_000),
                bounded(f, "batch", 1, TransferSpec.MAX_BATCH));
    }

    private static BaselineSettings baseline(YNode node) {
        Fields f = new Fields(map(node, "baseline"), "baseline", BASELINE);
        OptionalDouble tolerance = f.scalar("tolerance").map(s -> OptionalDouble.of(ProfileUnits.tolerance(s.value(), s.location())))
                .orElse(OptionalDouble.empty());
        return new BaselineSettings(tolerance);
    }

    private static FleetCriteria fleet(YNode node) {
        Fields f = new Fields(map(node, "fleet"), "fleet", FLEET);
        return new FleetCriteria(fraction(f, "min-of-median-bandwidth", 0, 1), fraction(f, "max-of-lowest-latency", 1, 1000),
                fraction(f, "max-deviations", 0, 100), bounded(f, "min-nodes", 2, 100_000), bounded(f, "min-pairs", 2, 10_000_000),
                bounded(f, "confirmations", 1, 20), fraction(f, "max-blamed-fraction", 0, 1),
                f.scalar("act-after").map(s -> {
                    if (!s.value().strip().matches("\\d{1,3}\\s*(/|of)\\s*\\d{1,3}")) {
                        throw new ProfileException(s.location(), "bad act-after '" + s.value() + "' (expected COUNT/WINDOW, e.g. 2/3)");
                    }
                    return s.value().strip();
                }));
    }

    /** A number in ({@code above}, {@code atMost}], as the fleet's fractions and multiples are. */
    private static OptionalDouble fraction(Fields f, String key, double above, double atMost) {
        return f.scalar(key).map(s -> {
            double v;
            try {
                v = Double.parseDouble(s.value().strip());
            } catch (NumberFormatException e) {
                throw new ProfileException(s.location(), "bad " + key + " '" + s.value() + "' (expected a number)");
            }
            if (!(v > above && v <= atMost)) {
                throw new ProfileException(s.location(), key + " " + s.value() + " out of range (" + above + ", " + atMost + "]");
            }
            return OptionalDouble.of(v);
        }).orElse(OptionalDouble.empty());
    }

    private static OptionalInt bounded(Fields f, String key, int min, int max) {
        return f.scalar(key).map(s -> {
            try {
                int v = Integer.parseInt(s.value().strip());
                if (v < min || v > max) {
                    throw new ProfileException(s.location(), key + " " + v + " out of range " + min + ".." + max);
                }
                return OptionalInt.of(v);
            } catch (NumberFormatException e) {
                throw new ProfileException(s.location(), "bad " + key + " '" + s.value() + "' (expected a whole number)");
            }
        }).orElse(OptionalInt.empty());
    }

    // ---- criteria ----------------------------------------------------------------------------

    private static Optional<Criterion> criterion(YNode node, MatchRules match, Map<String, Location> names, Set<String> known) {
        YMap m = map(node, "a criterion");
        Fields f = new Fields(m, "criterion", CRITERION);
        String name = f.requiredString("name");
        Location nameAt = f.scalar("name").orElseThrow().location();
        if (!NAME.matcher(name).matches()) {
            throw new ProfileException(nameAt, "bad criterion name '" + name
                    + "' (lower-case letters, digits, '_' and '-'; no dots, so linkproof.criteria.<name>.<key> can name it)");
        }
        Location first = names.putIfAbsent(name, nameAt);
        if (first != null) {
            throw new ProfileException(nameAt, "duplicate criterion name '" + name + "' (first at " + first + ")");
        }
        f.rename("criterion '" + name + "'");

        Set<Op> ops = f.node("op").map(n -> ops(n)).orElse(EnumSet.copyOf(Criterion.DATA_OPS));
        List<MemoryPair> memory = f.node("memory").map(ProfileParser::memory).orElse(List.of(MemoryPair.ANY));
        Optional<Mode> mode = f.scalar("mode").flatMap(s -> switch (s.value().strip().toLowerCase(Locale.ROOT)) {
            case "bandwidth" -> Optional.of(Mode.BANDWIDTH);
            case "latency" -> Optional.of(Mode.LATENCY);
            case "any" -> Optional.<Mode>empty();
            default -> throw new ProfileException(s.location(), "bad mode '" + s.value() + "' (expected bandwidth, latency or any)");
        });
        Range sizes = f.scalar("sizes").map(s -> ProfileUnits.range(s.value(), s.location(), true)).orElse(Range.ANY);
        Range batch = f.scalar("batch").map(s -> ProfileUnits.range(s.value(), s.location(), false)).orElse(Range.ANY);
        Range rails = f.scalar("rails").map(s -> ProfileUnits.range(s.value(), s.location(), false, "rails")).orElse(Range.ANY);
        Set<String> transports = f.node("transport").map(n -> transports(n, true, "transport", known)).orElse(Set.of());
        Map<String, SettingMatch> settings = f.node("settings").map(n -> settingMatches(n, "criterion '" + name + "' key 'settings'"))
                .orElse(Map.of());

        boolean hasLinkRate = match.nic().map(n -> n.linkRateGbps().isPresent()).orElse(false);
        Optional<BandwidthFloor> bw = f.scalar("min-bandwidth").map(s -> {
            BandwidthFloor b = ProfileUnits.bandwidth(s.value(), s.location());
            if (b instanceof BandwidthFloor.OfLink && !hasLinkRate) {
                throw new ProfileException(s.location(), "'" + s.value() + "' is relative to the link, but the profile "
                        + "sets no match.nic.link-rate");
            }
            return b;
        });
        Optional<BandwidthFloor> aggregate = f.scalar("min-aggregate-bandwidth").map(s -> {
            BandwidthFloor b = ProfileUnits.aggregateBandwidth(s.value(), s.location());
            if (b instanceof BandwidthFloor.OfLinks && !hasLinkRate) {
                throw new ProfileException(s.location(), "min-aggregate-bandwidth '" + s.value() + "' is relative to the "
                        + "links, but the profile sets no match.nic.link-rate");
            }
            return b;
        });
        OptionalDouble balance = f.scalar("min-rail-balance")
                .map(s -> OptionalDouble.of(ProfileUnits.railBalance(s.value(), s.location()))).orElse(OptionalDouble.empty());
        // The aggregate and the balance of one pair are the pair itself: a criterion that sets them must
        // say which points of several rails it is for, or it would judge every one-pair point too.
        for (String key : List.of("min-aggregate-bandwidth", "min-rail-balance")) {
            if (f.node(key).isPresent() && rails.min() < 2) {
                throw new ProfileException(f.location(key), "criterion '" + name + "' sets " + key + ", which judges "
                        + "points of several rails, but its rails " + f.scalar("rails").map(r -> "'" + r.value().strip()
                        + "' include 1").orElse("are not set (any, 1 included)")
                        + "; scope it with rails: 2.. (or a count, e.g. rails: 8)");
            }
        }
        Optional<Duration> avg = f.scalar("max-avg-latency").map(s -> ProfileUnits.duration(s.value(), s.location()));
        Optional<Duration> p99 = f.scalar("max-p99-latency").map(s -> ProfileUnits.duration(s.value(), s.location()));
        if (p99.isPresent() && mode.isPresent() && mode.get() == Mode.BANDWIDTH) {
            throw new ProfileException(f.location("max-p99-latency"), "max-p99-latency can never be judged in bandwidth "
                    + "mode: percentiles are measured in latency mode only");
        }
        OptionalDouble drop = f.scalar("max-drop").map(s -> OptionalDouble.of(ProfileUnits.percent(s.value(), s.location())))
                .orElse(OptionalDouble.empty());
        OptionalDouble opsPerSecond = f.scalar("min-ops-per-second")
                .map(s -> OptionalDouble.of(ProfileUnits.opsPerSecond(s.value(), s.location()))).orElse(OptionalDouble.empty());
        boolean enabled = f.optionalBoolean("enabled").orElse(true);
        Criterion c = new Criterion(name, ops, memory, mode, sizes, batch, rails, transports, settings, bw, aggregate,
                balance, avg, p99, drop, opsPerSecond, m.location());
        if (c.thresholds().isEmpty()) {
            throw new ProfileException(m.location(), "criterion '" + name + "' sets no threshold (one of min-bandwidth, "
                    + "min-aggregate-bandwidth, min-rail-balance, max-avg-latency, max-p99-latency, max-drop, min-ops-per-second)");
        }
        return enabled ? Optional.of(c) : Optional.empty();
    }

    private static Set<Op> ops(YNode n) {
        Set<Op> ops = EnumSet.noneOf(Op.class);
        for (YScalar s : words(n, "op")) {
            if (s.value().equalsIgnoreCase("any")) {
                ops.addAll(Criterion.DATA_OPS);
                continue;
            }
            try {
                ops.add(Op.parse(s.value()));
            } catch (IllegalArgumentException e) {
                throw new ProfileException(s.location(), "unknown op '" + s.value()
                        + "' (expected write, read, send, write-with-imm, fetch-add, compare-swap or any)");
            }
        }
        return ops;
    }

    /**
     * {@code tcp}, {@code [tcp, ucx]}, {@code tcp, ucx} or, where {@code anyAllowed}, {@code any} (empty:
     * every transport). A name
     * no transport on the class path has is an error: a misspelt transport would leave the criterion
     * judging nothing, and its points passing on validation alone.
     */
    private static Set<String> transports(YNode n, boolean anyAllowed, String what, Set<String> known) {
        Set<String> out = new java.util.TreeSet<>();
        for (YScalar s : words(n, what)) {
            String t = s.value().strip().toLowerCase(Locale.ROOT);
            if (anyAllowed && t.equals("any")) {
                return Set.of();
            }
            if (!TRANSPORT_ID.matcher(t).matches() || !known.contains(t)) {
                throw new ProfileException(s.location(), "unknown transport '" + s.value() + "'"
                        + suggestion(t, known) + " (transports on the class path: "
                        + String.join(", ", new java.util.TreeSet<>(known)) + (anyAllowed ? "; or any)" : ")"));
            }
            out.add(t);
        }
        return out;
    }

    /** {@code {UCX_TLS: tcp}}, {@code {UCX_TLS: [shm, posix]}}, {@code {UCX_TLS: {not: tcp}}}; see {@link SettingMatch}. */
    private static Map<String, SettingMatch> settingMatches(YNode n, String what) {
        Map<String, SettingMatch> out = new LinkedHashMap<>();
        for (Entry e : map(n, what).entries().values()) {
            String key = e.key().strip();
            if (key.isEmpty()) {
                throw new ProfileException(e.keyLocation(), "empty setting name in " + what);
            }
            String entryWhat = what.replace("key 'settings'", "setting '" + key + "'");
            YNode v = e.value();
            boolean negated = false;
            if (v instanceof YMap m) {
                Fields f = new Fields(m, entryWhat, SETTING_MATCH);
                v = f.node("not").orElseThrow(() -> new ProfileException(m.location(), entryWhat
                        + " needs a value, a list of values, or {not: value(s)}"));
                negated = true;
            }
            List<String> values = new ArrayList<>();
            for (YScalar s : scalars(v, entryWhat)) {
                values.add(s.value().strip());
            }
            out.put(key, new SettingMatch(new LinkedHashSet<>(values), negated));
        }
        return out;
    }

    private static List<MemoryPair> memory(YNode n) {
        List<MemoryPair> out = new ArrayList<>();
        for (YScalar s : words(n, "memory")) {
            String t = s.value().strip().toLowerCase(Locale.ROOT).replace("→", "->");
            int arrow = t.indexOf("->");
            if (arrow < 0) {
                Optional<MemoryKind> k = kind(t, s);
                out.add(new MemoryPair(k, k));
            } else {
                out.add(new MemoryPair(kind(t.substring(0, arrow).strip(), s), kind(t.substring(arrow + 2).strip(), s)));
            }
        }
        return out;
    }

    private static Optional<MemoryKind> kind(String t, YScalar s) {
        if (t.equals("any")) {
            return Optional.empty();
        }
        for (MemoryKind k : MemoryKind.values()) {
            if (k.label().equals(t)) {
                return Optional.of(k);
            }
        }
        throw new ProfileException(s.location(), "unknown memory kind '" + s.value()
                + "' (expected host, hugepage, gpu or any, or a pair such as host->gpu)");
    }

    private static void checkOverlaps(List<Criterion> criteria) {
        for (int j = 0; j < criteria.size(); j++) {
            Criterion b = criteria.get(j);
            for (int i = 0; i < j; i++) {
                Criterion a = criteria.get(i);
                Set<Criterion.Threshold> shared = EnumSet.noneOf(Criterion.Threshold.class);
                shared.addAll(a.thresholds());
                shared.retainAll(b.thresholds());
                if (!shared.isEmpty() && a.overlaps(b)) {
                    Set<Op> ops = EnumSet.copyOf(a.ops());
                    ops.retainAll(b.ops());
                    throw new ProfileException(b.location(), "criterion '" + b.name() + "' overlaps criterion '"
                            + a.name() + "' (at " + a.location() + "): both set "
                            + shared.stream().map(Criterion.Threshold::key).collect(Collectors.joining(", "))
                            + " for " + ops.stream().map(Op::label).collect(Collectors.joining(", "))
                            + ", sizes " + a.sizes().intersect(b.sizes()).describeSizes()
                            + ", batch " + a.batch().intersect(b.batch()).describeCounts()
                            + (a.rails().isAny() && b.rails().isAny() ? ""
                                    : ", rails " + a.rails().intersect(b.rails()).describeCounts())
                            + sharedTransport(a, b)
                            + "; a point may have one criterion per threshold (scope them apart by op, memory, "
                            + "mode, sizes, batch, rails, transport or settings)");
                }
            }
        }
    }

    /** ", transport ucx, settings UCX_TLS=tcp / UCX_TLS≠shm" for an overlap message; empty when neither is scoped. */
    private static String sharedTransport(Criterion a, Criterion b) {
        StringBuilder sb = new StringBuilder();
        if (!a.transports().isEmpty() || !b.transports().isEmpty()) {
            Set<String> t = new java.util.TreeSet<>(a.transports().isEmpty() ? b.transports() : a.transports());
            if (!a.transports().isEmpty() && !b.transports().isEmpty()) {
                t.retainAll(b.transports());
            }
            sb.append(", transport ").append(String.join(", ", t));
        }
        Set<String> keys = new java.util.TreeSet<>(a.settings().keySet());
        keys.addAll(b.settings().keySet());
        List<String> parts = new ArrayList<>();
        for (String k : keys) {
            List<String> both = new ArrayList<>();
            if (a.settings().containsKey(k)) {
                both.add(a.settings().get(k).describe(k));
            }
            if (b.settings().containsKey(k)) {
                both.add(b.settings().get(k).describe(k));
            }
            parts.add(String.join(" and ", new LinkedHashSet<>(both)));
        }
        if (!parts.isEmpty()) {
            sb.append(", settings ").append(String.join(", ", parts));
        }
        return sb.toString();
    }

    // ---- node helpers ------------------------------------------------------------------------

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
    private static List<YScalar> scalars(YNode n, String what) {
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
    private static List<YScalar> words(YNode n, String what) {
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

    private static List<String> strings(YNode n, String what) {
        return scalars(n, what).stream().map(s -> s.value().strip()).toList();
    }

    private static boolean isWord(YNode n, String word) {
        return n instanceof YScalar s && s.value() != null && s.value().strip().equalsIgnoreCase(word);
    }

    private static Map<String, String> stringMap(YNode n, String what, boolean envNames) {
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
                    throw new ProfileException(e.keyLocation(), "unknown key '" + e.key() + "' in " + what
                            + suggestion(e.key(), allowed) + " (allowed: " + String.join(", ", allowed) + ")");
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
            return node(key).map(n -> ProfileParser.scalar(n, what + " key '" + key + "'"));
        }

        String requiredString(String key) {
            YScalar s = scalar(key).orElseThrow(() -> new ProfileException(location(key), what + " needs '" + key + "'"));
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
                default -> throw new ProfileException(s.location(), what + " key '" + key + "' must be true or false, not '"
                        + s.value() + "'");
            });
        }
    }

    /** ", did you mean 'min-bandwidth'?" when an allowed key is within two edits. */
    static String suggestion(String key, List<String> allowed) {
        return allowed.stream().min(Comparator.comparingInt(a -> distance(key, a)))
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
}
