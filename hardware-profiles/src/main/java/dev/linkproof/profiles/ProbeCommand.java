package dev.linkproof.profiles;

import dev.linkproof.transfer.Units;
import dev.linkproof.transfer.probe.HardwareProbe;
import dev.linkproof.transfer.probe.MemoryCopyBaseline;
import dev.linkproof.transfer.probe.ProbeFormatter;
import dev.linkproof.transfer.probe.ProbeReport;
import dev.linkproof.transfer.probe.TextTable;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.Callable;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/**
 * {@code linkproof-probe}: prints what the host has (RDMA devices like {@code ibv_devinfo}, network
 * interfaces, GPUs, CPU/NUMA, huge pages, software versions), the memory-copy baseline, which
 * built-in profile matches and why each other one does not, and the profile a run would use with
 * the same properties. Exit status 0, or 2 when the profile cannot be loaded (the message names
 * file:line:column).
 */
@Command(
        name = "linkproof-probe",
        mixinStandardHelpOptions = true,
        version = "linkproof-probe 0.1.0",
        description =
                "Probes this host and says which Linkproof hardware profile matches it, and why the others do not.")
public final class ProbeCommand implements Callable<Integer> {
    @Option(
            names = "--root",
            defaultValue = "/",
            paramLabel = "DIR",
            description = "Directory read as / (default ${DEFAULT-VALUE}); point it at a copied or fake sysfs tree.")
    Path root;

    @Option(
            names = "--profile",
            paramLabel = "ID|PATH|auto",
            description = "The profile a run would use (linkproof.profile; default auto).")
    String profile;

    @Option(
            names = "--overlay",
            paramLabel = "FILE[,FILE...]",
            description = "Overlay files (linkproof.profile.overlay).")
    String overlay;

    @Option(
            names = "-D",
            paramLabel = "KEY=VALUE",
            mapFallbackValue = "",
            description = "A property, e.g. -Dlinkproof.criteria.write-large.min-bandwidth=40GB/s.")
    Map<String, String> properties = new LinkedHashMap<>();

    @Option(
            names = "--baseline",
            negatable = true,
            defaultValue = "true",
            fallbackValue = "true",
            description = "Measure the host memory-copy baseline (default on; --no-baseline skips it).")
    boolean baseline;

    @Spec
    CommandSpec spec;

    public static void main(String[] args) {
        System.exit(new CommandLine(new ProbeCommand()).execute(args));
    }

    @Override
    public Integer call() {
        PrintWriter out = spec.commandLine().getOut();
        PrintWriter err = spec.commandLine().getErr();
        ProbeReport report = new HardwareProbe(root).probe();
        out.print(ProbeFormatter.format(report));

        Optional<MemoryCopyBaseline> base = Optional.empty();
        if (baseline) {
            base = Optional.of(MemoryCopyBaseline.measure());
            out.println();
            out.println("Memory-copy baseline: " + base.get().describe());
        }

        Map<String, String> props = new LinkedHashMap<>(properties);
        if (profile != null) {
            props.put(ProfileProperties.PROFILE, profile);
        }
        if (overlay != null) {
            props.put(ProfileProperties.OVERLAY, overlay);
        }
        try {
            ProfileLoader loader = new ProfileLoader(props);
            MatchReport match = ProfileMatcher.select(loader.builtins().all(), report);
            out.println();
            out.println("Profiles (built-in, matched against this probe)");
            for (MatchResult r : match.results()) {
                boolean chosen = match.selected().filter(r.profileId()::equals).isPresent();
                out.printf("  %-9s %s%n", chosen ? "selected" : r.matched() ? "fits" : "no match", r.profileId());
                for (String reason : r.reasons()) {
                    out.println("            " + reason);
                }
            }
            if (match.selected().isEmpty()) {
                out.println("  no profile matches this host");
            }

            LoadedProfile loaded = loader.load(() -> report);
            HardwareProfile p = loaded.profile();
            out.println();
            out.println("Profile in use: " + loaded.describe());
            if (!p.description().isEmpty()) {
                out.println("  " + p.description());
            }
            p.linkRateGbps().ifPresent(r -> out.println("  link rate " + BandwidthFloor.gbits(r)));
            for (String s : p.sources()) {
                out.println("  source: " + s);
            }
            p.baseline()
                    .tolerance()
                    .ifPresent(t -> out.println("  baseline tolerance "
                            + new java.math.BigDecimal(t * 100)
                                    .setScale(2, java.math.RoundingMode.HALF_UP)
                                    .stripTrailingZeros()
                                    .toPlainString()
                            + "% (-Dlinkproof.baseline.tolerance overrides it)"));
            BandwidthFloor.Context ctx = new BandwidthFloor.Context(
                    p.linkRateGbps().orElse(Double.NaN),
                    base.map(MemoryCopyBaseline::bestGBps).orElse(Double.NaN));
            if (p.criteria().isEmpty()) {
                out.println("  no criteria: every point is judged on data validation alone");
            } else {
                TextTable c = new TextTable("CRITERION", "COVERS", "THRESHOLDS");
                for (Criterion k : p.criteria()) {
                    c.row(k.name(), k.describeSelector(), String.join(", ", thresholds(k, ctx)));
                }
                out.print(c.render("  "));
            }
            out.flush();
            return 0;
        } catch (ProfileException e) {
            out.flush();
            err.println("profile error: " + e.getMessage());
            err.flush();
            return 2;
        }
    }

    private static List<String> thresholds(Criterion k, BandwidthFloor.Context ctx) {
        List<String> out = new ArrayList<>();
        k.minBandwidth().ifPresent(b -> {
            double v = b.resolve(ctx);
            out.add("≥ " + b.written()
                    + (b instanceof BandwidthFloor.Absolute || Double.isNaN(v) ? "" : " = " + Units.formatGBps(v)));
        });
        k.minAggregateBandwidth().ifPresent(b -> {
            // "× links" depends on the rail count: the figure for the one count covered, else a rail's share.
            boolean oneCount = k.rails().min() == k.rails().max();
            double v = b.resolve(ctx.withRails(oneCount ? (int) k.rails().min() : 1));
            out.add("aggregate ≥ " + b.written()
                    + (b instanceof BandwidthFloor.Absolute || Double.isNaN(v)
                            ? ""
                            : oneCount ? " = " + Units.formatGBps(v) : " (" + Units.formatGBps(v) + " a rail)"));
        });
        k.minRailBalance()
                .ifPresent(f -> out.add("slowest rail ≥ " + BandwidthFloor.formatFraction(f) + " × median rail"));
        k.maxAverageLatency().ifPresent(d -> out.add("avg ≤ " + Units.formatMicros(d.toNanos() / 1e3)));
        k.maxP99Latency().ifPresent(d -> out.add("p99 ≤ " + Units.formatMicros(d.toNanos() / 1e3)));
        k.maxDropPercent()
                .ifPresent(d -> out.add("drop ≤ " + BandwidthFloor.gbits(d).replace(" Gb/s", "") + "% per step"));
        k.minOpsPerSecond().ifPresent(v -> out.add("≥ " + Units.formatOps(v)));
        return out;
    }
}
