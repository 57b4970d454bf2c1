package dev.linkproof.fleet.campaign;

import dev.linkproof.fleet.blame.OutcomeKind;
import dev.linkproof.fleet.blame.PairOutcome;
import dev.linkproof.fleet.blame.Point;
import dev.linkproof.fleet.blame.Stage;
import dev.linkproof.fleet.plan.Pair;
import dev.linkproof.transfer.FailureKind;
import dev.linkproof.transfer.measure.Measurement;
import java.util.Optional;

/** How blame sees one run of a pair: its kind from the run's failure kind (none: passed), with its figures. */
public final class Outcomes {
    private Outcomes() {}

    /**
     * @param m      the measurement, null when the run broke before measuring
     * @param failed the run's failure kind, empty when it passed
     * @return empty for a run that says nothing about the pair (a skipped point)
     */
    public static Optional<PairOutcome> of(
            Point point, Pair pair, Measurement m, Optional<FailureKind> failed, Stage stage, long atMillis) {
        Optional<OutcomeKind> kind = failed.isEmpty() ? Optional.of(OutcomeKind.PASSED) : OutcomeKind.of(failed.get());
        return kind.map(k -> m == null
                ? PairOutcome.unmeasured(pair, point, k).at(stage, atMillis)
                : new PairOutcome(pair, point, k, m.bandwidthGBps(), latencyUs(m), stage, atMillis));
    }

    /** The latency blame compares: p50 where the point measured percentiles, else the average. */
    static double latencyUs(Measurement m) {
        return m.latency().hasPercentiles()
                ? m.latency().p50Nanos() / 1e3
                : m.latency().averageNanos() / 1e3;
    }
}
