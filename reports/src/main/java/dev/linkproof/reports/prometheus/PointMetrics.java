package dev.linkproof.reports.prometheus;

import dev.linkproof.reports.results.PointRecord;
import io.prometheus.metrics.core.metrics.Gauge;
import io.prometheus.metrics.model.snapshots.MetricSnapshots;
import java.util.List;

/**
 * The points of a run of one pair (a runner's conformance run) as Prometheus gauges: each measured
 * point's bandwidth, operation rate and latency, labelled as {@link PointLabels} says. A point that
 * was not measured (skipped, or broken before its timed loop) has no series: no figure is better than
 * a NaN a query would average in. How many points passed, failed and were skipped is {@link RunMetrics}'.
 */
public final class PointMetrics {
    public static final String BANDWIDTH = "linkproof_point_bandwidth_bytes_per_second";
    public static final String OPERATIONS = "linkproof_point_operations_per_second";
    public static final String LATENCY = "linkproof_point_latency_seconds";
    /** The latency's statistics, as the {@code statistic} label names them. */
    public static final List<String> STATISTICS = List.of("average", "p50", "p99", "p99.9", "max");
    /** Each family's label names. */
    public static final java.util.Map<String, List<String>> LABELS = java.util.Map.of(
            BANDWIDTH, PointLabels.NAMES,
            OPERATIONS, PointLabels.NAMES,
            LATENCY, PointLabels.names("statistic"));

    private PointMetrics() {}

    /**
     * One point of the run: its labels and its record.
     *
     * @param labels the point's labels
     * @param record its results-file record (its figures; null ones were not measured)
     */
    public record Entry(PointLabels labels, PointRecord record) {}

    private static String[] labels(String family) {
        return LABELS.get(family).toArray(String[]::new);
    }

    public static MetricSnapshots of(List<Entry> points) {
        Exposition e = new Exposition();
        Gauge bandwidth = e.gauge(
                BANDWIDTH,
                "Bandwidth of one point of the last linkproof run of one pair, in bytes per second: the bytes its"
                    + " timed loop moved over the loop's duration, an average over the loop, not a percentile (a point"
                    + " of rails: all rails' bytes from the first rail's start to the last one's end).",
                labels(BANDWIDTH));
        Gauge operations = e.gauge(
                OPERATIONS,
                "Operations per second of one point of the last linkproof run of one pair: its transfers of size_bytes"
                        + " bytes (iterations x batch) over its timed loop, an average over the loop (a point of rails:"
                        + " the aggregate's).",
                labels(OPERATIONS));
        Gauge latency = e.gauge(
                LATENCY,
                "Latency of one point of the last linkproof run of one pair, in seconds, by statistic: average is the"
                        + " timed loop's duration over its transfers (every point; pipelining makes it less than one"
                        + " transfer's round trip); p50, p99, p99.9 and max are percentiles of the timed iterations,"
                        + " measured at latency-mode points only (a point of rails: its slowest rail's).",
                labels(LATENCY));
        for (Entry p : points) {
            PointRecord r = p.record();
            PointLabels l = p.labels();
            if (r.bandwidthGBps() != null) {
                bandwidth.labelValues(l.values()).set(r.bandwidthGBps() * 1e9);
            }
            if (r.opsPerSecond() != null) {
                operations.labelValues(l.values()).set(r.opsPerSecond());
            }
            Double[] micros = {r.avgLatencyUs(), r.p50Us(), r.p99Us(), r.p999Us(), r.maxUs()};
            for (int i = 0; i < micros.length; i++) {
                if (micros[i] != null) {
                    latency.labelValues(l.values(STATISTICS.get(i))).set(micros[i] / 1e6);
                }
            }
        }
        return e.snapshots();
    }
}
