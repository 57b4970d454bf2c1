package dev.linkproof.fleet.blame;

import java.util.List;
import java.util.Objects;
import java.util.Set;

/**
 * What a fleet run saw before any retest: the nodes the launcher said to expect (in its order,
 * which reports keep), those that registered with the coordinator, and every (pair, point) outcome
 * of the plan.
 */
public record Observations(List<String> expected, Set<String> registered, List<PairOutcome> outcomes) {
    public Observations {
        expected = List.copyOf(expected);
        registered = Set.copyOf(registered);
        outcomes = List.copyOf(Objects.requireNonNull(outcomes, "outcomes"));
    }
}
