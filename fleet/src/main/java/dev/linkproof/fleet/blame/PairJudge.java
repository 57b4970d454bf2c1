package dev.linkproof.fleet.blame;

import java.util.Optional;

/**
 * Whether one (pair, point) counts against its nodes, and as what: its own failure, or, when it
 * passed, its standing in the fleet. The one place that says what "a failing pair" means, so the
 * retest planner and the blame agree on it.
 */
public final class PairJudge {
    private final FleetRelative fleet;

    public PairJudge(FleetRelative fleet) {
        this.fleet = fleet;
    }

    public FleetRelative fleet() {
        return fleet;
    }

    /** The evidence {@code o} gives against its pair, or empty when it is good. */
    public Optional<Evidence> fault(PairOutcome o, boolean retest) {
        if (o.kind() != OutcomeKind.PASSED) {
            return Optional.of(new Evidence(o.pair(), o.point(), PairFault.of(o.kind()), o.bandwidthGBps(), o.latencyUs(), Double.NaN, retest));
        }
        return fleet.outlier(o).map(out -> new Evidence(o.pair(), o.point(), PairFault.of(out.measure()), o.bandwidthGBps(),
                o.latencyUs(), out.reference(), retest));
    }
}
