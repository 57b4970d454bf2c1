package dev.linkproof.profiles;

import java.util.Optional;
import java.util.OptionalDouble;
import java.util.OptionalInt;

/**
 * A profile's {@code fleet} section: how a fleet run reaches its verdicts. Each field empty: the
 * engine's default; the matching {@code -Dlinkproof.fleet.*} key still overrides it.
 *
 * @param minOfMedianBandwidth a pair below this × its point's median bandwidth may be an outlier (default 0.93)
 * @param maxOfLowestLatency   a pair above this × its point's lowest latency may be an outlier (latency points; default 2.1)
 * @param maxDeviations        …and only when also this many robust standard deviations from the median (default 3)
 * @param minNodes             fewer registered nodes: no point is judged against the fleet (default 4)
 * @param minPairs             fewer pairs measured at a point: it is not judged against the fleet (default 6)
 * @param confirmations        runs of a failing pair, each way, before it counts (default 3)
 * @param maxBlamedFraction    the circuit breaker: more of the fleet singled out and no node is (default 0.25)
 * @param actAfter             with a history: blamed in COUNT of the last WINDOW runs before acting (default 2/3)
 */
public record FleetCriteria(
        OptionalDouble minOfMedianBandwidth,
        OptionalDouble maxOfLowestLatency,
        OptionalDouble maxDeviations,
        OptionalInt minNodes,
        OptionalInt minPairs,
        OptionalInt confirmations,
        OptionalDouble maxBlamedFraction,
        Optional<String> actAfter) {
    public static final FleetCriteria NONE = new FleetCriteria(
            OptionalDouble.empty(),
            OptionalDouble.empty(),
            OptionalDouble.empty(),
            OptionalInt.empty(),
            OptionalInt.empty(),
            OptionalInt.empty(),
            OptionalDouble.empty(),
            Optional.empty());
}
