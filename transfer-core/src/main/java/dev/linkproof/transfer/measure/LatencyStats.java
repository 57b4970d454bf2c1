package dev.linkproof.transfer.measure;

import java.time.Duration;
import org.HdrHistogram.Histogram;

/**
 * Latency of a point. {@code average} is always total / (iterations × batch); the percentiles
 * exist only for latency mode, where every iteration is timed on its own (perftest style).
 * Values are nanoseconds.
 */
public record LatencyStats(
        double averageNanos, long samples, long minNanos, long p50Nanos, long p99Nanos, long p999Nanos, long maxNanos) {

    public static LatencyStats averageOnly(double averageNanos) {
        return new LatencyStats(averageNanos, 0, -1, -1, -1, -1, -1);
    }

    public static LatencyStats of(Histogram h, double averagePerTransferNanos) {
        return new LatencyStats(
                averagePerTransferNanos,
                h.getTotalCount(),
                h.getMinValue(),
                h.getValueAtPercentile(50),
                h.getValueAtPercentile(99),
                h.getValueAtPercentile(99.9),
                h.getMaxValue());
    }

    public boolean hasPercentiles() {
        return samples > 0;
    }

    public Duration average() {
        return Duration.ofNanos(Math.round(averageNanos));
    }

    public Duration p50() {
        return percentile(p50Nanos);
    }

    public Duration p99() {
        return percentile(p99Nanos);
    }

    public Duration p999() {
        return percentile(p999Nanos);
    }

    public Duration max() {
        return percentile(maxNanos);
    }

    private Duration percentile(long nanos) {
        if (!hasPercentiles()) {
            throw new IllegalStateException(
                    "percentiles are measured in LATENCY mode only; this point ran in BANDWIDTH mode");
        }
        return Duration.ofNanos(nanos);
    }
}
