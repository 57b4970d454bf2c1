package dev.linkproof.fleet.blame;

/**
 * The fleet-relative criteria: a pair is an outlier at a point when its bandwidth is below
 * {@code bandwidthFraction} × the fleet's median for that point, or its latency above
 * {@code latencyMultiple} × the fleet's lowest. The profile sets them; the defaults are ClusterKit's
 * (93 % of the reference bandwidth, 2.1 × the lowest latency), whose users will compare.
 */
public record Thresholds(double bandwidthFraction, double latencyMultiple) {
    public static final Thresholds CLUSTERKIT = new Thresholds(0.93, 2.1);

    public Thresholds {
        if (!(bandwidthFraction > 0 && bandwidthFraction <= 1)) {
            throw new IllegalArgumentException("bandwidth fraction must be in (0, 1], not " + bandwidthFraction);
        }
        if (!(latencyMultiple >= 1)) {
            throw new IllegalArgumentException("latency multiple must be at least 1, not " + latencyMultiple);
        }
    }
}
