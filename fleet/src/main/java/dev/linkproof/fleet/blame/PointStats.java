package dev.linkproof.fleet.blame;

import java.util.Optional;

/**
 * The fleet's figures for one point over the first round's measured pairs (confirmations and
 * retests are too few to move a reference, and are judged against this one). NaN where no pair
 * measured that figure.
 *
 * @param referenceGBps    the fleet's bandwidth reference: the median over nodes of each node's median
 *                         pair (one bad node drags its own median down, not the fleet's)
 * @param medianGBps       the plain median over pairs, for reports
 * @param bandwidthSpread  the healthy pairs' spread as a robust σ of ln(bandwidth): the median absolute
 *                         deviation of the pairs above the reference, over 0.6745 (faults only lower
 *                         bandwidth, so the side above holds the noise and not the faults)
 * @param referenceLatencyUs the same for latency (the median over nodes of each node's median)
 * @param latencySpread    the robust σ of ln(latency), from the pairs below the reference
 * @param notJudged        why the point is not judged against the fleet (too few nodes or pairs for a
 *                         reference); the profile's own criteria still judge it
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
