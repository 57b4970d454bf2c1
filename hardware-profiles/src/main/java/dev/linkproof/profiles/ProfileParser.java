package dev.linkproof.profiles;

import static dev.linkproof.profiles.ProfileNodes.isWord;
import static dev.linkproof.profiles.ProfileNodes.map;
import static dev.linkproof.profiles.ProfileNodes.scalars;
import static dev.linkproof.profiles.ProfileNodes.stringMap;
import static dev.linkproof.profiles.ProfileNodes.strings;
import static dev.linkproof.profiles.ProfileNodes.transports;

import dev.linkproof.profiles.ProfileNodes.Fields;
import dev.linkproof.profiles.YNode.YList;
import dev.linkproof.transfer.TransferSpec;
import dev.linkproof.transfer.probe.CpuList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalDouble;
import java.util.OptionalInt;
import java.util.Set;
import java.util.regex.Pattern;

/**
 * Reads a merged {@link YNode} tree into a {@link HardwareProfile}, strictly: an unknown key, a value
 * of the wrong shape, a bad unit, an empty range, or two criteria setting the same threshold for the
 * same point is a {@link ProfileException} at the offending node.
 */
final class ProfileParser {
    static final Pattern ID = Pattern.compile("[a-z0-9][a-z0-9._-]*");

    static final List<String> TOP = List.of(
            "id",
            "vendor",
            "description",
            "sources",
            "match",
            "resources",
            "transport",
            "defaults",
            "baseline",
            "fleet",
            "criteria");
    static final List<String> MATCH = List.of("fallback", "explicit", "nic", "gpu");
    static final List<String> NIC =
            List.of("pci-vendor", "pci-device", "driver", "link-rate", "link-layer", "min-firmware", "min-count");
    static final List<String> GPU = List.of("vendor", "model", "pci-device", "min-count");
    static final List<String> RESOURCES = List.of("nics", "gpus", "cpu-cores", "hugepages");
    static final List<String> TRANSPORT = List.of("settings", "environment", "required");
    static final List<String> DEFAULTS = List.of("qps", "iterations", "warmup", "batch");
    static final List<String> BASELINE = List.of("tolerance");
    static final List<String> FLEET = List.of(
            "min-of-median-bandwidth",
            "max-of-lowest-latency",
            "max-deviations",
            "min-nodes",
            "min-pairs",
            "confirmations",
            "max-blamed-fraction",
            "act-after");

    private ProfileParser() {}

    /**
     * @param transports the ids of the transports on the class path, as the run discovered them: what
     *                   a {@code transport:} may name
     */
    static HardwareProfile parse(YNode root, List<String> layers, Set<String> transports) {
        Fields top = new Fields(map(root, "a profile"), "profile", TOP);
        String id = top.requiredString("id");
        if (!ID.matcher(id).matches()) {
            throw new ProfileException(
                    top.location("id"),
                    "bad profile id '" + id
                            + "' (lower-case letters, digits, '.', '_' and '-', starting with a letter or digit)");
        }
        String vendor = top.requiredString("vendor");
        String description = top.optionalString("description").orElse("");
        List<String> sources =
                top.node("sources").map(n -> strings(n, "sources")).orElse(List.of());

        MatchRules match = top.node("match")
                .map(ProfileParser::match)
                .orElseThrow(
                        () -> new ProfileException(top.mapLocation(), "profile '" + id + "' has no 'match' section"));
        ResourceSpec resources =
                top.node("resources").map(ProfileParser::resources).orElse(ResourceSpec.AUTO);
        TransportConfig transport =
                top.node("transport").map(n -> transport(n, transports)).orElse(TransportConfig.NONE);
        Defaults defaults = top.node("defaults").map(ProfileParser::defaults).orElse(Defaults.NONE);
        BaselineSettings baseline =
                top.node("baseline").map(ProfileParser::baseline).orElse(BaselineSettings.NONE);
        FleetCriteria fleet = top.node("fleet").map(ProfileParser::fleet).orElse(FleetCriteria.NONE);

        List<Criterion> criteria = top.node("criteria")
                .map(n -> CriteriaParser.parse(n, match, transports))
                .orElse(List.of());
        return new HardwareProfile(
                id,
                vendor,
                description,
                sources,
                match,
                resources,
                transport,
                defaults,
                baseline,
                fleet,
                criteria,
                layers);
    }

    // ---- sections ----------------------------------------------------------------------------

    private static MatchRules match(YNode node) {
        Fields f = new Fields(map(node, "match"), "match", MATCH);
        boolean fallback = f.optionalBoolean("fallback").orElse(false);
        boolean explicit = f.optionalBoolean("explicit").orElse(false);
        Optional<NicRule> nic = f.node("nic").map(ProfileParser::nic);
        Optional<GpuRule> gpu = f.node("gpu").map(ProfileParser::gpu);
        if (fallback && (nic.isPresent() || gpu.isPresent())) {
            throw new ProfileException(f.location("fallback"), "a fallback profile has no nic or gpu rules");
        }
        if (explicit && (fallback || nic.isPresent() || gpu.isPresent())) {
            throw new ProfileException(
                    f.location("explicit"),
                    "an explicit profile (chosen only by its id) has no nic, gpu or " + "fallback rule");
        }
        if (!fallback && !explicit && nic.isEmpty() && gpu.isEmpty()) {
            throw new ProfileException(
                    f.mapLocation(), "match needs a 'nic' or 'gpu' rule, 'fallback: true' or 'explicit: true'");
        }
        return new MatchRules(fallback, explicit, nic, gpu);
    }

    private static NicRule nic(YNode node) {
        Fields f = new Fields(map(node, "match.nic"), "match.nic", NIC);
        OptionalInt vendor = f.scalar("pci-vendor")
                .map(s -> OptionalInt.of(ProfileUnits.pciId(s.value(), s.location())))
                .orElse(OptionalInt.empty());
        List<Integer> devices = f.node("pci-device")
                .map(n -> scalars(n, "match.nic.pci-device").stream()
                        .map(s -> ProfileUnits.pciId(s.value(), s.location()))
                        .toList())
                .orElse(List.of());
        List<String> drivers =
                f.node("driver").map(n -> strings(n, "match.nic.driver")).orElse(List.of());
        OptionalDouble rate = f.scalar("link-rate")
                .map(s -> OptionalDouble.of(ProfileUnits.linkRate(s.value(), s.location())))
                .orElse(OptionalDouble.empty());
        Optional<String> layer = f.scalar("link-layer").map(s -> {
            String v = s.value().strip().toLowerCase(Locale.ROOT);
            return switch (v) {
                case "ethernet" -> "Ethernet";
                case "infiniband" -> "InfiniBand";
                default ->
                    throw new ProfileException(
                            s.location(), "bad link-layer '" + s.value() + "' (expected ethernet or infiniband)");
            };
        });
        Optional<String> fw = f.scalar("min-firmware").map(s -> ProfileUnits.firmware(s.value(), s.location()));
        int minCount = f.scalar("min-count")
                .map(s -> (int) ProfileUnits.count(s.value(), s.location(), "min-count"))
                .orElse(1);
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
                default ->
                    throw new ProfileException(
                            s.location(), "bad GPU vendor '" + s.value() + "' (expected amd, nvidia or intel)");
            };
        });
        List<String> models =
                f.node("model").map(n -> strings(n, "match.gpu.model")).orElse(List.of());
        List<Integer> devices = f.node("pci-device")
                .map(n -> scalars(n, "match.gpu.pci-device").stream()
                        .map(s -> ProfileUnits.pciId(s.value(), s.location()))
                        .toList())
                .orElse(List.of());
        int minCount = f.scalar("min-count")
                .map(s -> (int) ProfileUnits.count(s.value(), s.location(), "min-count"))
                .orElse(1);
        return new GpuRule(vendor, models, devices, minCount);
    }

    private static ResourceSpec resources(YNode node) {
        Fields f = new Fields(map(node, "resources"), "resources", RESOURCES);
        List<String> nics = f.node("nics")
                .map(n -> isWord(n, "auto") ? List.<String>of() : strings(n, "resources.nics"))
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
                gpus = scalars(g.get(), "resources.gpus").stream()
                        .map(s -> {
                            try {
                                int i = Integer.parseInt(s.value().strip());
                                if (i < 0) {
                                    throw new NumberFormatException();
                                }
                                return i;
                            } catch (NumberFormatException e) {
                                throw new ProfileException(
                                        s.location(),
                                        "bad GPU index '" + s.value()
                                                + "' (expected auto, none, or indices like [0, 1])");
                            }
                        })
                        .toList();
            }
        }
        List<Integer> cores = f.scalar("cpu-cores")
                .map(s -> {
                    if (s.value().strip().equalsIgnoreCase("auto")) {
                        return List.<Integer>of();
                    }
                    try {
                        return CpuList.parse(s.value());
                    } catch (IllegalArgumentException e) {
                        throw new ProfileException(s.location(), e.getMessage() + " or auto");
                    }
                })
                .orElse(List.of());
        long huge = f.scalar("hugepages")
                .map(s -> {
                    try {
                        long v = Long.parseLong(s.value().strip());
                        if (v < 0) {
                            throw new NumberFormatException();
                        }
                        return v;
                    } catch (NumberFormatException e) {
                        throw new ProfileException(
                                s.location(),
                                "bad hugepages '" + s.value() + "' (expected a number of free huge pages, e.g. 1024)");
                    }
                })
                .orElse(0L);
        return new ResourceSpec(nics, gpus, gpusAuto, cores, huge);
    }

    private static TransportConfig transport(YNode node, Set<String> known) {
        Fields f = new Fields(map(node, "transport"), "transport", TRANSPORT);
        Map<String, String> settings = f.node("settings")
                .map(n -> stringMap(n, "transport.settings", false))
                .orElse(Map.of());
        Map<String, String> env = f.node("environment")
                .map(n -> stringMap(n, "transport.environment", true))
                .orElse(Map.of());
        // Names checked as a criterion's are: a misspelt one would require nothing.
        // An empty list requires nothing: how an overlay clears what a built-in requires.
        Set<String> required = f.node("required")
                .map(n -> n instanceof YList l && l.items().isEmpty()
                        ? Set.<String>of()
                        : transports(n, false, "transport.required", known))
                .orElse(Set.of());
        return new TransportConfig(settings, env, required);
    }

    private static Defaults defaults(YNode node) {
        Fields f = new Fields(map(node, "defaults"), "defaults", DEFAULTS);
        return new Defaults(
                bounded(f, "qps", 1, TransferSpec.MAX_CONNECTIONS),
                bounded(f, "iterations", 1, 1_000_000_000),
                bounded(f, "warmup", 0, 1_000_000_000),
                bounded(f, "batch", 1, TransferSpec.MAX_BATCH));
    }

    private static BaselineSettings baseline(YNode node) {
        Fields f = new Fields(map(node, "baseline"), "baseline", BASELINE);
        OptionalDouble tolerance = f.scalar("tolerance")
                .map(s -> OptionalDouble.of(ProfileUnits.tolerance(s.value(), s.location())))
                .orElse(OptionalDouble.empty());
        return new BaselineSettings(tolerance);
    }

    private static FleetCriteria fleet(YNode node) {
        Fields f = new Fields(map(node, "fleet"), "fleet", FLEET);
        return new FleetCriteria(
                fraction(f, "min-of-median-bandwidth", 0, 1),
                fraction(f, "max-of-lowest-latency", 1, 1000),
                fraction(f, "max-deviations", 0, 100),
                bounded(f, "min-nodes", 2, 100_000),
                bounded(f, "min-pairs", 2, 10_000_000),
                bounded(f, "confirmations", 1, 20),
                fraction(f, "max-blamed-fraction", 0, 1),
                f.scalar("act-after").map(s -> {
                    if (!s.value().strip().matches("\\d{1,3}\\s*(/|of)\\s*\\d{1,3}")) {
                        throw new ProfileException(
                                s.location(), "bad act-after '" + s.value() + "' (expected COUNT/WINDOW, e.g. 2/3)");
                    }
                    return s.value().strip();
                }));
    }

    /** A number in ({@code above}, {@code atMost}], as the fleet's fractions and multiples are. */
    private static OptionalDouble fraction(Fields f, String key, double above, double atMost) {
        return f.scalar(key)
                .map(s -> {
                    double v;
                    try {
                        v = Double.parseDouble(s.value().strip());
                    } catch (NumberFormatException e) {
                        throw new ProfileException(
                                s.location(), "bad " + key + " '" + s.value() + "' (expected a number)");
                    }
                    if (!(v > above && v <= atMost)) {
                        throw new ProfileException(
                                s.location(), key + " " + s.value() + " out of range (" + above + ", " + atMost + "]");
                    }
                    return OptionalDouble.of(v);
                })
                .orElse(OptionalDouble.empty());
    }

    private static OptionalInt bounded(Fields f, String key, int min, int max) {
        return f.scalar(key)
                .map(s -> {
                    try {
                        int v = Integer.parseInt(s.value().strip());
                        if (v < min || v > max) {
                            throw new ProfileException(
                                    s.location(), key + " " + v + " out of range " + min + ".." + max);
                        }
                        return OptionalInt.of(v);
                    } catch (NumberFormatException e) {
                        throw new ProfileException(
                                s.location(), "bad " + key + " '" + s.value() + "' (expected a whole number)");
                    }
                })
                .orElse(OptionalInt.empty());
    }
}
