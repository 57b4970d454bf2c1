package dev.linkproof.fleet.blame;

/**
 * The fleet's figures for one point over the first round's measured pairs (retests are too few to
 * move a reference, and are judged against this one). NaN where no pair measured that figure.
 */
public record PointStats(Point point, int pairs, int measuredBandwidth, double medianGBps, double minGBps, double maxGBps,
        int measuredLatency, double lowestLatencyUs, double medianLatencyUs) {
}
