package dev.linkproof.fleet.plan;

import java.util.List;

/**
 * A way to pair a fleet's nodes into rounds ({@code linkproof.fleet.pattern}). Parsed from the
 * key's value by {@link PatternParser}; {@link #spec()} gives that value back in canonical form,
 * defaults spelled out, so a printed plan can be repeated exactly.
 */
public sealed interface Pattern permits Pairwise, Ring, RandomK, Incast, FanOut, PairFile {
    /** The plan over {@code nodes}, in the launcher's order. */
    Plan plan(List<String> nodes);

    /** The key's value that gives this pattern back. */
    String spec();
}
