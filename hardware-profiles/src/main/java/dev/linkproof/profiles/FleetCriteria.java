package dev.linkproof.profiles;

import java.util.OptionalDouble;

/**
 * The fleet-relative criteria of a profile's {@code fleet} section: in a fleet run, a pair below
 * {@code minOfMedianBandwidth} × its point's median bandwidth over the fleet, or above
 * {@code maxOfLowestLatency} × its point's lowest latency, is an outlier. Empty: the engine's
 * defaults (NVIDIA ClusterKit's 0.93 and 2.1); {@code -Dlinkproof.fleet.minOfMedianBandwidth} and
 * {@code -Dlinkproof.fleet.maxOfLowestLatency} still override them.
 */
public record FleetCriteria(OptionalDouble minOfMedianBandwidth, OptionalDouble maxOfLowestLatency) {
    public static final FleetCriteria NONE = new FleetCriteria(OptionalDouble.empty(), OptionalDouble.empty());
}
