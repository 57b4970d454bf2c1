package dev.linkproof.engine.judging;

import dev.linkproof.fleet.blame.FleetRelative;
import dev.linkproof.fleet.blame.OutcomeKind;
import dev.linkproof.fleet.blame.Outlier;
import dev.linkproof.fleet.blame.PairOutcome;
import dev.linkproof.fleet.blame.Point;
import dev.linkproof.fleet.blame.Thresholds;
import dev.linkproof.fleet.coordinate.PairRun;
import dev.linkproof.fleet.plan.Pair;
import dev.linkproof.transfer.FailureKind;
import dev.linkproof.transfer.measure.Measurement;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Optional;

/**
 * The fleet as its own reference for one point: once every pair of the point ran, a pair below
 * {@code bandwidthFraction} × the point's median bandwidth over the fleet, or above
 * {@code latencyMultiple} × its lowest latency, is an outlier and fails, even when the profile's
 * own criteria pass (ClusterKit's rule; the thresholds are {@link Thresholds}).
 */
public final class FleetJudge {
    private final Point point;
    private final FleetRelative relative;

    private FleetJudge(Point point, FleetRelative relative) {
        this.point = point;
        this.relative = relative;
    }

    /** The reference of a point, from every pair of it that measured something. */
    public static FleetJudge of(String pointId, String pointName, Collection<PairRun> runs, Thresholds thresholds) {
        Point p = new Point(pointId, pointName);
        List<PairOutcome> outcomes = new ArrayList<>();
        for (PairRun r : runs) {
            if (r.ran()) {
                outcomes.add(outcome(p, r.pair(), r.measurement(), OutcomeKind.PASSED));
            }
        }
        return new FleetJudge(p, FleetRelative.of(outcomes, thresholds));
    }

    /** Why the pair's figures are out of line with the fleet at this point, if they are. */
    public Optional<String> outlier(Pair pair, Measurement m) {
        return relative.outlier(outcome(point, pair, m, OutcomeKind.PASSED)).map(Outlier::describe)
                .map(why -> "fleet outlier: " + why + ", " + relative.thresholds().bandwidthFraction() + " × the median / "
                        + relative.thresholds().latencyMultiple() + " × the lowest latency of the fleet at this point");
    }

    /** How blame sees a pair's test: its kind from the test's failure kind (none: passed), with its figures. */
    public static Optional<PairOutcome> outcome(String pointId, String pointName, Pair pair, Measurement m,
                                                Optional<FailureKind> failed) {
        Optional<OutcomeKind> kind = failed.isEmpty() ? Optional.of(OutcomeKind.PASSED) : OutcomeKind.of(failed.get());
        return kind.map(k -> m == null ? PairOutcome.unmeasured(pair, new Point(pointId, pointName), k)
                : outcome(new Point(pointId, pointName), pair, m, k));
    }

    private static PairOutcome outcome(Point p, Pair pair, Measurement m, OutcomeKind kind) {
        double latencyUs = m.latency().hasPercentiles() ? m.latency().p50Nanos() / 1e3 : m.latency().averageNanos() / 1e3;
        return new PairOutcome(pair, p, kind, m.bandwidthGBps(), latencyUs);
    }
}
