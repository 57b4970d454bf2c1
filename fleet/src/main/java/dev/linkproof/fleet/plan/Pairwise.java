package dev.linkproof.fleet.plan;

import java.util.ArrayList;
import java.util.List;

/**
 * {@code pairwise}: every two nodes meet exactly once, in n−1 rounds of n/2 disjoint pairs (n rounds
 * when n is odd, one node sitting out each), each pair both ways at once ({@link Ways}).
 */
public record Pairwise() implements Pattern {
    @Override
    public Plan plan(List<String> nodes) {
        List<String> checked = Plan.requireNodes(nodes);
        List<List<Pair>> matchings = RoundRobin.matchings(checked);
        List<Round> rounds = new ArrayList<>(matchings.size());
        for (List<Pair> m : matchings) {
            rounds.add(new Round(rounds.size() + 1, bothWays(m)));
        }
        return new Plan(spec(), checked, Ways.BOTH_WAYS_AT_ONCE, rounds);
    }

    static List<Pair> bothWays(List<Pair> matching) {
        List<Pair> directed = new ArrayList<>(matching.size() * 2);
        matching.forEach(p -> directed.addAll(Ways.BOTH_WAYS_AT_ONCE.directions(p)));
        return directed;
    }

    @Override
    public String spec() {
        return "pairwise";
    }
}
