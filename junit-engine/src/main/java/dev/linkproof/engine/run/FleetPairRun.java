package dev.linkproof.engine.run;

import dev.linkproof.engine.api.SweepPoint;
import dev.linkproof.engine.failure.PointError;
import dev.linkproof.engine.failure.PointFailure;
import dev.linkproof.engine.judging.FleetJudge;
import dev.linkproof.engine.judging.HostLoads;
import dev.linkproof.engine.judging.Judgement;
import dev.linkproof.fleet.coordinate.PairRun;
import dev.linkproof.fleet.plan.Pair;
import dev.linkproof.transfer.FailureKind;
import dev.linkproof.transfer.measure.Measurement;
import java.util.List;
import java.util.Optional;

/**
 * One pair's test of a fleet point: what its round did (a failure of its kind, naming the node that
 * could not be reached when known), the profile's verdict on its measurement, and the fleet's. The
 * rounds ran already; nothing here moves data.
 */
public final class FleetPairRun {
    private final LinkproofExecutionContext context;
    private final SweepPoint point;
    private final Pair pair;
    private final Optional<PairRun> result;
    private final FleetJudge fleet;
    private Measurement measurement;
    private Judgement judgement;

    public FleetPairRun(LinkproofExecutionContext context, SweepPoint point, Pair pair, Optional<PairRun> result, FleetJudge fleet) {
        this.context = context;
        this.point = point;
        this.pair = pair;
        this.result = result;
        this.fleet = fleet;
    }

    public Measurement measurement() {
        return measurement;
    }

    public Judgement judgement() {
        return judgement;
    }

    /** The pair's failure, of its kind, if its round failed it; else its measurement, judged by the profile. */
    public void run() {
        PairRun r = result.orElseThrow(() -> new IllegalStateException(point.displayName()
                + ": the pair did not run in its point's rounds"));
        if (!r.ran()) {
            String who = r.unreachable().map(n -> "node " + n + " unreachable: ").orElse("");
            throw new PointError(r.failure().kind(), point.displayName() + ": " + who + r.failure().getMessage()
                    + context.config().deadlineNote(r.failure()), r.failure());
        }
        measurement = r.measurement();
        judgement = context.judge().judge(point.spec().pointId(), point, measurement, HostLoads.NONE, List.of());
        context.reporter().accept(measurement, judgement);
    }

    /** Fails the pair when its figures are out of line with the fleet's at this point (its profile criteria passed). */
    public void enforceFleet() {
        Optional<String> outlier = fleet.outlier(pair, measurement);
        if (outlier.isPresent()) {
            throw new PointFailure(FailureKind.BELOW_CRITERION, point.displayName() + ": " + outlier.get());
        }
    }
}
