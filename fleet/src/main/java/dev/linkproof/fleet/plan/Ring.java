package dev.linkproof.fleet.plan;

import java.util.ArrayList;
import java.util.List;

/**
 * {@code ring}: node i to node i+1, the last to the first, in launcher order and in one round: every
 * node sends once and receives once, as a ring all-reduce loads the fleet. Two nodes make one pair
 * each way.
 */
public record Ring() implements Pattern {
    @Override
    public Plan plan(List<String> nodes) {
        List<String> checked = Plan.requireNodes(nodes);
        List<Pair> pairs = new ArrayList<>(checked.size());
        for (int i = 0; i < checked.size(); i++) {
            pairs.add(new Pair(checked.get(i), checked.get((i + 1) % checked.size())));
        }
        return new Plan(spec(), checked, Ways.ONE_WAY, List.of(new Round(1, pairs)));
    }

    @Override
    public String spec() {
        return "ring";
    }
}
