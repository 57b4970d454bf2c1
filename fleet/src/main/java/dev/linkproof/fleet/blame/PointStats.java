package dev.linkproof.fleet.blame;

import java.util.Optional;

/**
 * The fleet's figures for one point over the first round's measured pairs: confirmations and retests are too few
 * to move a reference, and are judged against this one. NaN where no pair measured that figure.
 *
 * @param referenceGBps   the median over nodes of each node's median pair ({@link FleetRelative} says why)
 * @param medianGBps      the plain median over pairs, for reports
 * @param bandwidthSpread the healthy pairs' robust σ of ln(bandwidth) ({@link FleetRelative}); likewise latency's
 * @param notJudged       why the fleet does not judge the point (too few nodes or pairs); the profile's criteria do
 */
public record PointStats(
        Point point,
        int pairs,
        int measuredBandwidth,
        double referenceGBps,
        double medianGBps,
        double minGBps,
        double maxGBps,
        double bandwidthSpread,
        int measuredLatency,
        double lowestLatencyUs,
        double referenceLatencyUs,
        double medianLatencyUs,
        double latencySpread,
        Optional<String> notJudged) {
    public boolean judged() {
        return notJudged.isEmpty();
    }
}
