package dev.linkproof.profiles;

import static dev.linkproof.profiles.ProfileNodes.list;
import static dev.linkproof.profiles.ProfileNodes.map;
import static dev.linkproof.profiles.ProfileNodes.scalars;
import static dev.linkproof.profiles.ProfileNodes.transports;
import static dev.linkproof.profiles.ProfileNodes.words;

import dev.linkproof.profiles.ProfileNodes.Fields;
import dev.linkproof.profiles.YNode.Entry;
import dev.linkproof.profiles.YNode.YMap;
import dev.linkproof.profiles.YNode.YScalar;
import dev.linkproof.transfer.MemoryKind;
import dev.linkproof.transfer.Mode;
import dev.linkproof.transfer.Op;
import java.time.Duration;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalDouble;
import java.util.Set;
import java.util.regex.Pattern;
import java.util.stream.Collectors;

/**
 * A profile's {@code criteria} list read strictly: each criterion's scope and thresholds, and no two
 * criteria setting the same threshold for the same point. Apart from {@link ProfileParser} because
 * criteria are most of the schema and change on their own.
 */
final class CriteriaParser {
    static final Pattern NAME = Pattern.compile("[a-z0-9][a-z0-9_-]*");
    static final List<String> CRITERION = List.of(
            "name",
            "op",
            "memory",
            "mode",
            "sizes",
            "batch",
            "rails",
            "transport",
            "settings",
            "min-bandwidth",
            "min-aggregate-bandwidth",
            "min-rail-balance",
            "max-avg-latency",
            "max-p99-latency",
            "max-drop",
            "min-ops-per-second",
            "enabled");
    static final List<String> SETTING_MATCH = List.of("not");

    private CriteriaParser() {}

    /** The enabled criteria of {@code node}, in order; {@code known}: the transports a criterion may name. */
    static List<Criterion> parse(YNode node, MatchRules match, Set<String> known) {
        List<Criterion> criteria = new ArrayList<>();
        Map<String, Location> names = new LinkedHashMap<>();
        for (YNode item : list(node, "criteria").items()) {
            criterion(item, match, names, known).ifPresent(criteria::add);
        }
        checkOverlaps(criteria);
        return criteria;
    }

    private static Optional<Criterion> criterion(
            YNode node, MatchRules match, Map<String, Location> names, Set<String> known) {
        YMap m = map(node, "a criterion");
        Fields f = new Fields(m, "criterion", CRITERION);
        String name = f.requiredString("name");
        Location nameAt = f.scalar("name").orElseThrow().location();
        if (!NAME.matcher(name).matches()) {
            throw new ProfileException(
                    nameAt,
                    "bad criterion name '" + name
                            + "' (lower-case letters, digits, '_' and '-'; no dots, so linkproof.criteria.<name>.<key>"
                            + " can name it)");
        }
        Location first = names.putIfAbsent(name, nameAt);
        if (first != null) {
            throw new ProfileException(nameAt, "duplicate criterion name '" + name + "' (first at " + first + ")");
        }
        f.rename("criterion '" + name + "'");

        Set<Op> ops = f.node("op").map(n -> ops(n)).orElse(EnumSet.copyOf(Criterion.DATA_OPS));
        List<MemoryPair> memory = f.node("memory").map(CriteriaParser::memory).orElse(List.of(MemoryPair.ANY));
        Optional<Mode> mode = f.scalar("mode").flatMap(s -> switch (s.value()
                .strip()
                .toLowerCase(Locale.ROOT)) {
            case "bandwidth" -> Optional.of(Mode.BANDWIDTH);
            case "latency" -> Optional.of(Mode.LATENCY);
            case "any" -> Optional.<Mode>empty();
            default ->
                throw new ProfileException(
                        s.location(), "bad mode '" + s.value() + "' (expected bandwidth, latency or any)");
        });
        Range sizes = f.scalar("sizes")
                .map(s -> ProfileUnits.range(s.value(), s.location(), true))
                .orElse(Range.ANY);
        Range batch = f.scalar("batch")
                .map(s -> ProfileUnits.range(s.value(), s.location(), false))
                .orElse(Range.ANY);
        Range rails = f.scalar("rails")
                .map(s -> ProfileUnits.range(s.value(), s.location(), false, "rails"))
                .orElse(Range.ANY);
        Set<String> transports = f.node("transport")
                .map(n -> transports(n, true, "transport", known))
                .orElse(Set.of());
        Map<String, SettingMatch> settings = f.node("settings")
                .map(n -> settingMatches(n, "criterion '" + name + "' key 'settings'"))
                .orElse(Map.of());

        boolean hasLinkRate = match.nic().map(n -> n.linkRateGbps().isPresent()).orElse(false);
        Optional<BandwidthFloor> bw = f.scalar("min-bandwidth").map(s -> {
            BandwidthFloor b = ProfileUnits.bandwidth(s.value(), s.location());
            if (b instanceof BandwidthFloor.OfLink && !hasLinkRate) {
                throw new ProfileException(
                        s.location(),
                        "'" + s.value() + "' is relative to the link, but the profile "
                                + "sets no match.nic.link-rate");
            }
            return b;
        });
        Optional<BandwidthFloor> aggregate = f.scalar("min-aggregate-bandwidth").map(s -> {
            BandwidthFloor b = ProfileUnits.aggregateBandwidth(s.value(), s.location());
            if (b instanceof BandwidthFloor.OfLinks && !hasLinkRate) {
                throw new ProfileException(
                        s.location(),
                        "min-aggregate-bandwidth '" + s.value() + "' is relative to the "
                                + "links, but the profile sets no match.nic.link-rate");
            }
            return b;
        });
        OptionalDouble balance = f.scalar("min-rail-balance")
                .map(s -> OptionalDouble.of(ProfileUnits.railBalance(s.value(), s.location())))
                .orElse(OptionalDouble.empty());
        // The aggregate and the balance of one pair are the pair itself: a criterion that sets them must
        // say which points of several rails it is for, or it would judge every one-pair point too.
        for (String key : List.of("min-aggregate-bandwidth", "min-rail-balance")) {
            if (f.node(key).isPresent() && rails.min() < 2) {
                throw new ProfileException(
                        f.location(key),
                        "criterion '" + name + "' sets " + key + ", which judges "
                                + "points of several rails, but its rails "
                                + f.scalar("rails")
                                        .map(r -> "'" + r.value().strip() + "' include 1")
                                        .orElse("are not set (any, 1 included)")
                                + "; scope it with rails: 2.. (or a count, e.g. rails: 8)");
            }
        }
        Optional<Duration> avg = f.scalar("max-avg-latency").map(s -> ProfileUnits.duration(s.value(), s.location()));
        Optional<Duration> p99 = f.scalar("max-p99-latency").map(s -> ProfileUnits.duration(s.value(), s.location()));
        if (p99.isPresent() && mode.isPresent() && mode.get() == Mode.BANDWIDTH) {
            throw new ProfileException(
                    f.location("max-p99-latency"),
                    "max-p99-latency can never be judged in bandwidth "
                            + "mode: percentiles are measured in latency mode only");
        }
        OptionalDouble drop = f.scalar("max-drop")
                .map(s -> OptionalDouble.of(ProfileUnits.percent(s.value(), s.location())))
                .orElse(OptionalDouble.empty());
        OptionalDouble opsPerSecond = f.scalar("min-ops-per-second")
                .map(s -> OptionalDouble.of(ProfileUnits.opsPerSecond(s.value(), s.location())))
                .orElse(OptionalDouble.empty());
        boolean enabled = f.optionalBoolean("enabled").orElse(true);
        Criterion c = new Criterion(
                name,
                ops,
                memory,
                mode,
                sizes,
                batch,
                rails,
                transports,
                settings,
                bw,
                aggregate,
                balance,
                avg,
                p99,
                drop,
                opsPerSecond,
                m.location());
        if (c.thresholds().isEmpty()) {
            throw new ProfileException(
                    m.location(),
                    "criterion '" + name + "' sets no threshold (one of min-bandwidth, min-aggregate-bandwidth,"
                            + " min-rail-balance, max-avg-latency, max-p99-latency, max-drop,"
                            + " min-ops-per-second)");
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
                throw new ProfileException(
                        s.location(),
                        "unknown op '" + s.value()
                                + "' (expected write, read, send, write-with-imm, fetch-add, compare-swap or any)");
            }
        }
        return ops;
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
                v = f.node("not")
                        .orElseThrow(() -> new ProfileException(
                                m.location(), entryWhat + " needs a value, a list of values, or {not: value(s)}"));
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
                out.add(new MemoryPair(
                        kind(t.substring(0, arrow).strip(), s),
                        kind(t.substring(arrow + 2).strip(), s)));
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
        throw new ProfileException(
                s.location(),
                "unknown memory kind '" + s.value()
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
                    throw new ProfileException(
                            b.location(),
                            "criterion '" + b.name() + "' overlaps criterion '"
                                    + a.name() + "' (at " + a.location() + "): both set "
                                    + shared.stream()
                                            .map(Criterion.Threshold::key)
                                            .collect(Collectors.joining(", "))
                                    + " for " + ops.stream().map(Op::label).collect(Collectors.joining(", "))
                                    + ", sizes "
                                    + a.sizes().intersect(b.sizes()).describeSizes()
                                    + ", batch "
                                    + a.batch().intersect(b.batch()).describeCounts()
                                    + (a.rails().isAny() && b.rails().isAny()
                                            ? ""
                                            : ", rails "
                                                    + a.rails()
                                                            .intersect(b.rails())
                                                            .describeCounts())
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
}
