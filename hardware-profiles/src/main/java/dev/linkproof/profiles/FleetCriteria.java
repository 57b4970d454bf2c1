package dev.linkproof.profiles;

import java.util.Optional;
import java.util.OptionalDouble;
import java.util.OptionalInt;

/**
 * A profile's {@code fleet} section: how a fleet run reaches its verdicts. Each field is written in kebab case
 * ({@code min-of-median-bandwidth}) and empty for the engine's default; the {@code linkproof.fleet.*} key of the same
 * name ({@code linkproof.fleet.minOfMedianBandwidth}) still overrides it. docs/configuration.md gives each key's
 * meaning and default.
 *
 * @param actAfter with a history: blamed in COUNT of the last WINDOW runs before a node is acted on ({@code 2/3})
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
