package dev.linkproof.fleet.blame;

import java.util.List;

/**
 * The retests a first round calls for, in rounds of disjoint pairs, and the suspects that could not
 * be given a partner (no node passed everything). Empty for a clean fleet.
 */
public record RetestPlan(List<RetestRound> rounds, List<String> unplanned) {
    public RetestPlan {
        rounds = List.copyOf(rounds);
        unplanned = List.copyOf(unplanned);
    }

    public List<Retest> retests() {
        return rounds.stream().flatMap(r -> r.retests().stream()).toList();
    }

    public boolean isEmpty() {
        return rounds.isEmpty() && unplanned.isEmpty();
    }
}
