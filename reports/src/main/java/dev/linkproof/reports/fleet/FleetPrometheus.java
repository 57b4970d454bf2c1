package dev.linkproof.reports.fleet;

import dev.linkproof.fleet.blame.Blame;
import dev.linkproof.fleet.blame.PairOutcome;
import dev.linkproof.fleet.blame.Verdict;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.List;

/**
 * A fleet run in the Prometheus text exposition format (version 0.0.4), for node_exporter's
 * textfile collector or a push gateway: each pair's bandwidth and latency per point, and a 1 per
 * blamed node and per bad link. Families are announced with HELP and TYPE before their samples;
 * label values escape backslash, double quote and newline, HELP text backslash and newline; figures
 * not measured are left out (NaN would read as a value). Written to a temporary file moved into
 * place, as the textfile collector asks, so it never reads half a file.
 */
public final class FleetPrometheus {
    public static final String BANDWIDTH = "linkproof_fleet_pair_bandwidth_gbps";
    public static final String LATENCY = "linkproof_fleet_pair_latency_us";
    public static final String VERDICT = "linkproof_fleet_verdict";
    public static final String LINK_VERDICT = "linkproof_fleet_link_verdict";

    private FleetPrometheus() {
    }

    /** The exposition of {@code outcomes} (the first round's) and {@code blame}'s verdicts. */
    public static String text(List<PairOutcome> outcomes, Blame blame) {
        StringBuilder s = new StringBuilder(64 + outcomes.size() * 96);
        family(s, BANDWIDTH, "Bandwidth of one directed pair at one point of a linkproof fleet run, GB/s (10^9 B/s).");
        for (PairOutcome o : outcomes) {
            if (o.hasBandwidth()) {
                sample(s, BANDWIDTH, o.bandwidthGBps(), "initiator", o.pair().initiator(), "target", o.pair().target(), "point", o.point().id());
            }
        }
        family(s, LATENCY, "Latency (p50) of one directed pair at one point of a linkproof fleet run, microseconds.");
        for (PairOutcome o : outcomes) {
            if (o.hasLatency()) {
                sample(s, LATENCY, o.latencyUs(), "initiator", o.pair().initiator(), "target", o.pair().target(), "point", o.point().id());
            }
        }
        family(s, VERDICT, "1 for each node a linkproof fleet run blames, by the verdict's kind (bad-node, corrupting-node, unreachable-node, missing-node).");
        for (Verdict v : blame.verdicts()) {
            if (v.kind().blamesANode()) {
                sample(s, VERDICT, 1, "node", v.node(), "kind", v.kind().slug());
            }
        }
        for (Verdict v : blame.verdicts()) {
            if (v.kind() == dev.linkproof.fleet.blame.VerdictKind.FLEET_DEGRADED) {
                // Not singled out: every node the breaker held back, under the fleet's own verdict.
                v.nodes().forEach(n -> sample(s, VERDICT, 1, "node", n, "kind", v.kind().slug()));
            }
        }
        family(s, LINK_VERDICT, "1 for each link a linkproof fleet run blames: a pair that fails while both its nodes pass elsewhere.");
        for (Verdict v : blame.verdicts()) {
            if (v.kind() == dev.linkproof.fleet.blame.VerdictKind.BAD_LINK) {
                sample(s, LINK_VERDICT, 1, "node_a", v.nodes().get(0), "node_b", v.nodes().get(1), "kind", v.kind().slug());
            }
        }
        return s.toString();
    }

    public static Path write(Path file, List<PairOutcome> outcomes, Blame blame) {
        try {
            Path folder = file.toAbsolutePath().getParent();
            Files.createDirectories(folder);
            Path tmp = Files.createTempFile(folder, file.getFileName().toString(), ".tmp");
            Files.writeString(tmp, text(outcomes, blame), StandardCharsets.UTF_8);
            return Files.move(tmp, file, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot write " + file + ": " + e.getMessage(), e);
        }
    }

    private static void family(StringBuilder s, String name, String help) {
        s.append("# HELP ").append(name).append(' ').append(help.replace("\\", "\\\\").replace("\n", "\\n")).append('\n');
        s.append("# TYPE ").append(name).append(" gauge\n");
    }

    private static void sample(StringBuilder s, String name, double value, String... labels) {
        s.append(name).append('{');
        for (int i = 0; i < labels.length; i += 2) {
            if (i > 0) {
                s.append(',');
            }
            s.append(labels[i]).append("=\"").append(labels[i + 1].replace("\\", "\\\\").replace("\"", "\\\"").replace("\n", "\\n")).append('"');
        }
        s.append("} ").append(value(value)).append('\n');
    }

    /** Java's double text is one Go's ParseFloat reads ("1.0E-5" too); whole numbers without ".0". */
    private static String value(double v) {
        return v == Math.rint(v) && Math.abs(v) < 1e15 ? Long.toString((long) v) : Double.toString(v);
    }
}
