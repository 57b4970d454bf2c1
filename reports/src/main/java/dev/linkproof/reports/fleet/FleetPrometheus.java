package dev.linkproof.reports.fleet;

import dev.linkproof.fleet.blame.Blame;
import dev.linkproof.fleet.blame.Measure;
import dev.linkproof.fleet.blame.PairOutcome;
import dev.linkproof.fleet.blame.Point;
import dev.linkproof.fleet.blame.Verdict;
import dev.linkproof.fleet.blame.VerdictKind;
import dev.linkproof.reports.prometheus.Exposition;
import dev.linkproof.reports.prometheus.PointLabels;
import io.prometheus.metrics.core.metrics.Gauge;
import io.prometheus.metrics.model.snapshots.MetricSnapshots;
import java.nio.file.Path;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.function.Function;

/**
 * A fleet run as Prometheus gauges, written with client_java ({@link Exposition}): each directed
 * pair's bandwidth, operation rate and latency per point (the first round's runs, as the heat maps
 * draw them), labelled {@code src}, {@code dst} and the point's {@link PointLabels}; a series per
 * node of the run for every verdict kind, 1 when the run gave it that verdict and 0 when not (a
 * healthy node too, so "no series" never has to stand for "fine"); a 1 per blamed link; when the
 * run ended. Figures not measured are left out (a NaN would read as a value). Base units: bytes per
 * second, seconds.
 */
public final class FleetPrometheus {
    public static final String BANDWIDTH = "linkproof_fleet_pair_bandwidth_bytes_per_second";
    public static final String OPERATIONS = "linkproof_fleet_pair_operations_per_second";
    public static final String LATENCY = "linkproof_fleet_pair_latency_seconds";
    public static final String NODE_VERDICT = "linkproof_fleet_node_verdict";
    public static final String LINK_VERDICT = "linkproof_fleet_link_verdict";
    public static final String LAST_RUN = "linkproof_fleet_last_run_timestamp_seconds";
    /** Each family's label names: what a dashboard's queries may name (GrafanaDashboardTest holds examples/grafana to it). */
    public static final Map<String, List<String>> LABELS = Map.of(
            BANDWIDTH, PointLabels.names("src", "dst"),
            OPERATIONS, PointLabels.names("src", "dst"),
            LATENCY, PointLabels.names("src", "dst", "statistic"),
            NODE_VERDICT, List.of("node", "kind"),
            LINK_VERDICT, List.of("node_a", "node_b"),
            LAST_RUN, List.of());

    private FleetPrometheus() {}

    /**
     * The fleet's families.
     *
     * @param outcomes the first round's outcomes
     * @param labels   each point's labels; a point it has none for is labelled by its name alone
     * @param ended    when the run ended
     */
    public static MetricSnapshots snapshots(
            List<PairOutcome> outcomes, Blame blame, Function<Point, PointLabels> labels, Instant ended) {
        Exposition e = new Exposition();
        Gauge bandwidth = e.gauge(
                BANDWIDTH,
                "Bandwidth of one directed pair (src initiates, dst is the target) at one point of the last linkproof"
                    + " fleet run, in bytes per second: the bytes its timed loop moved over the loop's duration, an"
                    + " average over the loop, not a percentile (first-round runs; a point of rails: all rails' bytes"
                    + " over the first start to the last end).",
                labels(BANDWIDTH));
        Gauge operations = e.gauge(
                OPERATIONS,
                "Operations per second of one directed pair at one point of the last linkproof fleet run: its"
                        + " transfers of size_bytes bytes (iterations x batch) over its timed loop, an average over the"
                        + " loop (first-round runs).",
                labels(OPERATIONS));
        Gauge latency = e.gauge(
                LATENCY,
                "Latency of one directed pair at one point of the last linkproof fleet run, in seconds:"
                        + " statistic=\"p50\" is the median of the timed iterations of a latency-mode point;"
                        + " statistic=\"average\" is a bandwidth-mode point's timed loop duration over its transfers,"
                        + " which pipelining makes less than one transfer's round trip (first-round runs).",
                labels(LATENCY));
        for (PairOutcome o : outcomes) {
            PointLabels l = label(labels, o.point());
            String src = o.pair().initiator();
            String dst = o.pair().target();
            if (o.hasBandwidth()) {
                double bytesPerSecond = o.bandwidthGBps() * 1e9;
                bandwidth.labelValues(l.values(src, dst)).set(bytesPerSecond);
                if (l.sizeBytes() > 0) {
                    // Bytes are size × transfers, so the rate is exactly the bandwidth over the size.
                    operations.labelValues(l.values(src, dst)).set(bytesPerSecond / l.sizeBytes());
                }
            }
            if (o.hasLatency()) {
                // Blame's latency is the p50 where percentiles were measured, and they are in latency mode only.
                String statistic = o.point().judgedOn() == Measure.LATENCY ? "p50" : "average";
                latency.labelValues(l.values(src, dst, statistic)).set(o.latencyUs() / 1e6);
            }
        }
        Gauge nodes = e.gauge(
                NODE_VERDICT,
                "1 when the last linkproof fleet run gave this node this kind of verdict, else 0; every node of the"
                    + " run has a series for every kind: bad-node, corrupting-node, unreachable-node, missing-node,"
                    + " bad-link (the node is one end of a blamed link) and fleet-degraded (the circuit breaker held"
                    + " it back under the fleet's verdict).",
                labels(NODE_VERDICT));
        for (String node : blame.nodes()) {
            for (VerdictKind kind : VerdictKind.values()) {
                boolean given = blame.verdicts().stream()
                        .anyMatch(v -> v.kind() == kind && v.nodes().contains(node));
                nodes.labelValues(node, kind.slug()).set(given ? 1 : 0);
            }
        }
        Gauge links = e.gauge(
                LINK_VERDICT,
                "1 for each link the last linkproof fleet run blames (bad-link: the pair failed, either "
                        + "way, while both its nodes passed with other partners); a link not blamed has no series.",
                labels(LINK_VERDICT));
        for (Verdict v : blame.verdicts()) {
            if (v.kind() == VerdictKind.BAD_LINK) {
                links.labelValues(v.nodes().get(0), v.nodes().get(1)).set(1);
            }
        }
        e.gauge(LAST_RUN, "When the last linkproof fleet run ended, in seconds since the Unix epoch.")
                .set(ended.toEpochMilli() / 1e3);
        return e.snapshots();
    }

    private static String[] labels(String family) {
        return LABELS.get(family).toArray(String[]::new);
    }

    private static PointLabels label(Function<Point, PointLabels> labels, Point p) {
        PointLabels l = labels.apply(p);
        return l != null ? l : new PointLabels("", p.name(), "", 0, "", "", "");
    }

    /** The exposition's text. */
    public static String text(
            List<PairOutcome> outcomes, Blame blame, Function<Point, PointLabels> labels, Instant ended) {
        return Exposition.text(snapshots(outcomes, blame, labels, ended));
    }

    /** Writes the exposition to {@code file} atomically (a temporary file renamed into place). */
    public static Path write(Path file, MetricSnapshots fleet) {
        return Exposition.writeAtomically(file, fleet);
    }
}
