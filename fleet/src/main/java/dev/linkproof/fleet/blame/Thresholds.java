package dev.linkproof.fleet.blame;

/**
 * The fleet-relative criteria ({@link FleetRelative}). At a bandwidth point a pair is an outlier when its bandwidth
 * is below {@code bandwidthFraction} × the fleet's reference <em>and</em> more than {@code maxDeviations} robust
 * standard deviations (of the logarithm) below it; at a latency point, when its latency is above
 * {@code latencyMultiple} × the fleet's lowest and more than {@code maxDeviations} deviations above the reference.
 * The fraction keeps a tight fleet from blaming a pair 1 % off, the spread a noisy fleet from blaming its own noise.
 * A point is judged against the fleet only with {@code minNodes} registered nodes and {@code minPairs} pairs measured
 * at it. The fraction and multiple default to ClusterKit's (93 %, 2.1 ×), whose users will compare.
 */
public record Thresholds(
        double bandwidthFraction, double latencyMultiple, double maxDeviations, int minNodes, int minPairs) {
    public static final Thresholds DEFAULTS = new Thresholds(0.93, 2.1, 3.0, 4, 6);

    public Thresholds {
        if (!(bandwidthFraction > 0 && bandwidthFraction <= 1)) {
            throw new IllegalArgumentException("bandwidth fraction must be in (0, 1], not " + bandwidthFraction);
        }
        if (!(latencyMultiple >= 1)) {
            throw new IllegalArgumentException("latency multiple must be at least 1, not " + latencyMultiple);
        }
        if (!(maxDeviations >= 0 && maxDeviations <= 100)) {
            throw new IllegalArgumentException("deviations must be in [0, 100], not " + maxDeviations);
        }
        if (minNodes < 2) {
            throw new IllegalArgumentException("a fleet reference needs at least 2 nodes, not " + minNodes);
        }
        if (minPairs < 2) {
            throw new IllegalArgumentException("a fleet reference needs at least 2 pairs, not " + minPairs);
        }
    }

    /** These criteria with another fraction and multiple (a profile's, or the command line's). */
    public Thresholds withRatios(double fraction, double multiple) {
        return new Thresholds(fraction, multiple, maxDeviations, minNodes, minPairs);
    }
}
