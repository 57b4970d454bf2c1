package dev.linkproof.profiles;

/**
 * One judgement on a point (or, for a curve rule, on a step between two points of a sweep).
 *
 * @param pointId    the point judged ({@code TransferSpec.pointId}); for a curve step, the larger size's point
 * @param kind       what was judged
 * @param outcome    pass, fail, or not applicable
 * @param criterion  the criterion's name; empty for validation and for "no criterion"
 * @param measured   the measured value in {@code unit}; NaN when there is none
 * @param threshold  the criterion's value in {@code unit}; NaN when there is none
 * @param unit       {@code GB/s}, {@code µs} or {@code %}; empty for validation
 * @param text       for people: "write 1 MiB ×1: 47.9 GB/s ≥ criterion 45.0 GB/s (0.90 × 400 Gb/s link)"
 */
public record Verdict(String pointId, Kind kind, Outcome outcome, String criterion, double measured, double threshold,
                      String unit, String text) {

    public enum Kind {
        /** The data-validation pass: checksums of every slot. */
        VALIDATION,
        MIN_BANDWIDTH,
        MAX_AVG_LATENCY,
        MAX_P99_LATENCY,
        /** A curve rule between two neighbouring sizes of a sweep. */
        CURVE,
        /** No criterion of the profile covers the point; it is judged on validation alone. */
        NO_CRITERION
    }

    public enum Outcome {
        PASS,
        FAIL,
        /** The criterion covers the point but cannot judge it (p99 of a bandwidth-mode point). */
        NOT_APPLICABLE
    }

    public boolean failed() {
        return outcome == Outcome.FAIL;
    }

    @Override
    public String toString() {
        return (outcome == Outcome.PASS ? "PASS " : outcome == Outcome.FAIL ? "FAIL " : "N/A  ") + text;
    }
}
