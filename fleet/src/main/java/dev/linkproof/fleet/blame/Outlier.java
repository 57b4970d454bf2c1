package dev.linkproof.fleet.blame;

import java.util.Locale;

/**
 * A pair that passed its profile's criteria but fell out of line with the fleet at a point: past
 * both the ratio limit and the spread limit.
 *
 * @param value       the pair's figure (GB/s or µs)
 * @param reference   the fleet's median bandwidth or lowest latency at the point
 * @param limit       the ratio limit: reference × the threshold
 * @param spreadLimit the spread limit: the median ∓ the allowed robust deviations
 */
public record Outlier(
        PairOutcome outcome, Measure measure, double value, double reference, double limit, double spreadLimit) {
    /** "3.10 GB/s below 9.30 (0.93 × fleet median 10.00) and 9.10 (3 robust σ)", for a reason line. */
    public String describe() {
        return switch (measure) {
            case BANDWIDTH ->
                String.format(
                        Locale.ROOT,
                        "%.2f GB/s below %.2f (fleet median %.2f) and below %.2f (the fleet's spread)",
                        value,
                        limit,
                        reference,
                        spreadLimit);
            case LATENCY ->
                String.format(
                        Locale.ROOT,
                        "%.1f µs above %.1f (fleet lowest %.1f) and above %.1f (the fleet's spread)",
                        value,
                        limit,
                        reference,
                        spreadLimit);
        };
    }
}
