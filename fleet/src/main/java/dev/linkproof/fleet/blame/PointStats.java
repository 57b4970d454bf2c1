package dev.linkproof.fleet.blame;

import java.util.Optional;

/**
 * The fleet's figures for one point over the first round's measured pairs (confirmations and
 * retests are too few to move a reference, and are judged against this one). NaN where no pair
 * measured that figure. {@code notJudged} says why the point is not judged against the fleet (too
 * few nodes or pairs for a reference); the profile's own criteria still judge it.
 */
public record PointStats(Point point, int pairs, int measuredBandwidth, double medianGBps, double minGBps, double maxGBps,
                         double madGBps, int measuredLatency, double lowestLatencyUs, double medianLatencyUs, double madLatencyUs,
                         Optional<String> notJudged) {
    public boolean judged() {
        return notJudged.isEmpty();
    }
}
