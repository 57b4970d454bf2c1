package dev.linkproof.fleet.blame;

import dev.linkproof.fleet.plan.Pair;
import java.util.Objects;

/**
 * How one directed pair did at one point, in one run of it. The figures are primitives with {@link Double#NaN}
 * for "not measured" rather than optionals: a 1,024-node pairwise run has a million of these per point, and a
 * boxed figure would double their footprint.
 *
 * @param bandwidthGBps GB/s (10^9 B/s)
 * @param latencyUs     microseconds (the point's p50)
 * @param atMillis      when it ended (epoch milliseconds), 0 when not known
 */
public record PairOutcome(
        Pair pair, Point point, OutcomeKind kind, double bandwidthGBps, double latencyUs, Stage stage, long atMillis) {
    public PairOutcome {
        Objects.requireNonNull(pair, "pair");
        Objects.requireNonNull(point, "point");
        Objects.requireNonNull(kind, "kind");
        Objects.requireNonNull(stage, "stage");
    }

    /** A first-round outcome at no known time. */
    public PairOutcome(Pair pair, Point point, OutcomeKind kind, double bandwidthGBps, double latencyUs) {
        this(pair, point, kind, bandwidthGBps, latencyUs, Stage.FIRST, 0);
    }

    /** An outcome without figures (the peer was not reached, the point broke before measuring). */
    public static PairOutcome unmeasured(Pair pair, Point point, OutcomeKind kind) {
        return new PairOutcome(pair, point, kind, Double.NaN, Double.NaN);
    }

    /** The same outcome, from {@code stage}, ended at {@code atMillis}. */
    public PairOutcome at(Stage stage, long atMillis) {
        return new PairOutcome(pair, point, kind, bandwidthGBps, latencyUs, stage, atMillis);
    }

    public boolean hasBandwidth() {
        return !Double.isNaN(bandwidthGBps);
    }

    public boolean hasLatency() {
        return !Double.isNaN(latencyUs);
    }
}
