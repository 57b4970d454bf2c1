package dev.linkproof.fleet.blame;

import java.util.Optional;

/**
 * Whether one run of a (pair, point) counts against its nodes, and as what: its own failure, or,
 * when it passed, its standing in the fleet. The one place that says what "a failing run" means, so
 * the confirmation, the retest planner and the blame agree on it.
 */
public final class PairJudge {
    private final FleetRelative fleet;

    public PairJudge(FleetRelative fleet) {
        this.fleet = fleet;
    }

    public FleetRelative fleet() {
        return fleet;
    }

    /** The run as evidence: with its fault when it counts against the pair, without when it is good. */
    public Evidence sample(PairOutcome o) {
        if (o.kind() != OutcomeKind.PASSED) {
            return new Evidence(
                    o.pair(),
                    o.point(),
                    Optional.of(PairFault.of(o.kind())),
                    o.bandwidthGBps(),
                    o.latencyUs(),
                    Double.NaN,
                    o.stage(),
                    o.atMillis());
        }
        Optional<Outlier> out = fleet.outlier(o);
        return new Evidence(
                o.pair(),
                o.point(),
                out.map(x -> PairFault.of(x.measure())),
                o.bandwidthGBps(),
                o.latencyUs(),
                out.map(Outlier::reference).orElse(Double.NaN),
                o.stage(),
                o.atMillis());
    }

    /** The evidence {@code o} gives against its pair, or empty when it is good. */
    public Optional<Evidence> fault(PairOutcome o) {
        Evidence e = sample(o);
        return e.failed() ? Optional.of(e) : Optional.empty();
    }
}
