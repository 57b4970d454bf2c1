package dev.linkproof.reports.prometheus;

import io.prometheus.metrics.core.metrics.Gauge;
import io.prometheus.metrics.model.snapshots.MetricSnapshots;
import java.time.Instant;
import java.util.List;
import java.util.Map;

/**
 * A run as a whole, of one pair or of a fleet: how many points ended how, and when the run ended,
 * so an alert can tell a run that failed from one that stopped running.
 */
public final class RunMetrics {
    public static final String POINTS = "linkproof_run_points";
    public static final String LAST_RUN = "linkproof_last_run_timestamp_seconds";
    /** The outcomes, as the results file's {@code status} names them; each has a series, 0 included. */
    public static final List<String> STATUSES = List.of("passed", "failed", "broken", "skipped");
    /** Each family's label names. */
    public static final Map<String, List<String>> LABELS = Map.of(POINTS, List.of("status"), LAST_RUN, List.of());

    private RunMetrics() {}

    /**
     * @param statuses every point's status ({@link #STATUSES}), one entry per point (a fleet's per (pair, point))
     * @param ended    when the run ended
     */
    public static MetricSnapshots of(List<String> statuses, Instant ended) {
        Exposition e = new Exposition();
        Gauge points = e.gauge(
                POINTS,
                "Points of the last linkproof run by status: passed; failed (a verdict or the test's own assertion);"
                    + " broken (it could not run: a peer, a transport, the test's own exception); skipped (unavailable"
                    + " here). A fleet run counts each (pair, point).",
                "status");
        Map<String, Long> counts = new java.util.LinkedHashMap<>();
        STATUSES.forEach(s -> counts.put(s, 0L));
        statuses.forEach(s -> counts.merge(s, 1L, Long::sum));
        counts.forEach((s, n) -> points.labelValues(s).set(n));
        e.gauge(LAST_RUN, "When the last linkproof run ended, in seconds since the Unix epoch.")
                .set(ended.toEpochMilli() / 1e3);
        return e.snapshots();
    }
}
