package dev.linkproof.profiles;

import java.util.Optional;

/**
 * One judgement on a point (or, for a curve rule, on a step between two points of a sweep).
 *
 * @param pointId   the point judged ({@code TransferSpec.pointId}); for a curve step, the larger size's point
 * @param criterion the criterion's name; empty for validation and for "no criterion"
 * @param measured  the measured value, as {@code threshold} the criterion's, in {@code unit}; NaN when there is none
 * @param text      for people: "write 1 MiB ×1: 47.9 GB/s ≥ criterion 45.0 GB/s (0.90 × 400 Gb/s link)"
 * @param rail      the rail a per-pair threshold judged ("rail 3 (mlx5_3)"); empty for a verdict on the whole point
 */
public record Verdict(
        String pointId,
        Kind kind,
        Outcome outcome,
        String criterion,
        double measured,
        double threshold,
        String unit,
        String text,
        Optional<String> rail) {

    /** A verdict on the whole point. */
    public Verdict(
            String pointId,
            Kind kind,
            Outcome outcome,
            String criterion,
            double measured,
            double threshold,
            String unit,
            String text) {
        this(pointId, kind, outcome, criterion, measured, threshold, unit, text, Optional.empty());
    }

    public enum Kind {
        /** The data-validation pass: checksums of every slot. */
        VALIDATION,
        /** A bandwidth floor of one pair; of one rail, for a point that ran several ({@link #rail()}). */
        MIN_BANDWIDTH,
        /** The floor of a rails point's aggregate ({@code min-aggregate-bandwidth}). */
        MIN_AGGREGATE_BANDWIDTH,
        /** The slowest rail against a fraction of the median rail ({@code min-rail-balance}); measured and threshold in GB/s. */
        MIN_RAIL_BALANCE,
        MAX_AVG_LATENCY,
        MAX_P99_LATENCY,
        /**
         * A floor on operations per second ({@code min-ops-per-second}): the figure of atomic points, the
         * message rate of small ones; per rail.
         */
        MIN_OPS_PER_SECOND,
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
