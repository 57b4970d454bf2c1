package dev.linkproof.engine.run;

import dev.linkproof.fleet.plan.Pair;
import dev.linkproof.fleet.plan.Plan;
import dev.linkproof.fleet.plan.Round;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;

/**
 * A fleet run as discovery sees it: the nodes the launcher says to expect (where that came from, for
 * messages) and the plan of rounds over them. Every point of the run runs this plan.
 */
public record FleetPlan(List<String> nodes, String source, Plan plan) {
    public FleetPlan {
        nodes = List.copyOf(nodes);
    }

    /** Every directed pair of the plan, in round order. */
    public List<Pair> pairs() {
        return plan.pairs();
    }

    /** The plan's rounds with only the {@code selected} pairs (one pair's unique id selects just that pair); empty rounds dropped. */
    public List<List<Pair>> rounds(Set<Pair> selected) {
        List<List<Pair>> out = new ArrayList<>();
        for (Round r : plan.rounds()) {
            List<Pair> kept = r.pairs().stream().filter(selected::contains).toList();
            if (!kept.isEmpty()) {
                out.add(kept);
            }
        }
        return out;
    }
}
