package dev.linkproof.engine.run;

import dev.linkproof.engine.api.SweepPoint;
import dev.linkproof.engine.failure.PointError;
import dev.linkproof.engine.judging.HostLoads;
import dev.linkproof.engine.judging.Judgement;
import dev.linkproof.fleet.coordinate.PairRun;
import dev.linkproof.transfer.measure.Measurement;
import java.util.List;
import java.util.Optional;

/**
 * One pair's test of a fleet point: what its round did (a failure of its kind, naming the node that
 * could not be reached when known) and the profile's verdict on its measurement. The rounds ran
 * already; nothing here moves data, and nothing here judges the pair against the fleet (the
 * campaign does, after confirming).
 */
public final class FleetPairRun {
    private final LinkproofExecutionContext context;
    private final SweepPoint point;
    private final Optional<PairRun> result;
    private Measurement measurement;
    private Judgement judgement;

    public FleetPairRun(LinkproofExecutionContext context, SweepPoint point, Optional<PairRun> result) {
        this.context = context;
        this.point = point;
        this.result = result;
    }

    public Measurement measurement() {
        return measurement;
    }

    public Judgement judgement() {
        return judgement;
    }

    /** The pair's failure, of its kind, if its round failed it; else its measurement, judged by the profile. */
    public void run() {
        PairRun r = result.orElseThrow(
                () -> new IllegalStateException(point.displayName() + ": the pair did not run in its point's rounds"));
        if (!r.ran()) {
            String who =
                    r.unreachable().map(n -> "node " + n + " unreachable: ").orElse("");
            throw new PointError(
                    r.failure().kind(),
                    point.displayName() + ": " + who + r.failure().getMessage()
                            + context.config().deadlineNote(r.failure()),
                    r.failure());
        }
        measurement = r.measurement();
        judgement = context.judge().judge(point.spec().pointId(), point, measurement, HostLoads.NONE, List.of());
        context.reporter().accept(measurement, judgement);
    }
}
