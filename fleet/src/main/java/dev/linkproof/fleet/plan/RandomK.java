package dev.linkproof.fleet.plan;

import dev.linkproof.fleet.FleetConfigurationException;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Random;
import java.util.stream.IntStream;

/**
 * {@code random-k:k[:seed=s]}: each node meets k random partners, each pair both ways at once, in k rounds of
 * disjoint pairs: k rounds drawn from the round robin of the shuffled nodes, whose rounds never repeat a partner.
 * With an odd node count each round leaves one node out, so k nodes get k−1 partners and the rest k.
 *
 * <p>{@link Random} because its algorithm (and {@link Collections#shuffle(List, Random)}'s) is fixed by its
 * specification: the same seed gives the same plan on any JDK, so a run can be repeated. The seed defaults to
 * {@link #DEFAULT_SEED} for the same reason; {@link #spec()} always prints it.
 */
public record RandomK(int k, long seed) implements Pattern {
    public static final long DEFAULT_SEED = 1;

    public RandomK {
        if (k < 1) {
            throw new FleetConfigurationException("random-k needs k of at least 1, not " + k);
        }
    }

    @Override
    public Plan plan(List<String> nodes) {
        List<String> checked = Plan.requireNodes(nodes);
        if (k > checked.size() - 1) {
            throw new FleetConfigurationException(spec() + " needs at least " + (k + 1)
                    + " nodes (k partners each), the fleet has " + checked.size());
        }
        Random random = new Random(seed);
        List<String> shuffled = new ArrayList<>(checked);
        Collections.shuffle(shuffled, random);
        List<List<Pair>> matchings = RoundRobin.matchings(shuffled);
        List<Integer> drawn =
                new ArrayList<>(IntStream.range(0, matchings.size()).boxed().toList());
        Collections.shuffle(drawn, random);
        List<Round> rounds = new ArrayList<>(k);
        for (int index : drawn.subList(0, k).stream().sorted().toList()) {
            rounds.add(new Round(rounds.size() + 1, Pairwise.bothWays(matchings.get(index))));
        }
        return new Plan(spec(), checked, Ways.BOTH_WAYS_AT_ONCE, rounds);
    }

    @Override
    public String spec() {
        return "random-k:" + k + ":seed=" + seed;
    }
}
