package dev.linkproof.fleet.blame;

import java.util.Locale;

/**
 * A pair that passed its profile's criteria but fell out of line with the fleet at a point.
 *
 * @param value     the pair's figure (GB/s or µs)
 * @param reference the fleet's median bandwidth or lowest latency at the point
 * @param limit     the figure it had to meet: reference × the threshold
 */
public record Outlier(PairOutcome outcome, Measure measure, double value, double reference, double limit) {
    /** "3.10 GB/s < 9.30 (0.93 × fleet median 10.00)", for a reason line. */
    public String describe() {
        return switch (measure) {
            case BANDWIDTH -> String.format(Locale.ROOT, "%.2f GB/s below %.2f (fleet median %.2f)", value, limit, reference);
            case LATENCY -> String.format(Locale.ROOT, "%.1f µs above %.1f (fleet lowest %.1f)", value, limit, reference);
        };
    }
}
