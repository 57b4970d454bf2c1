package dev.linkproof.fleet.blame;

import dev.linkproof.fleet.plan.Pair;
import java.util.List;

/** Pairs of one point that run again at once, disjoint as the plan's rounds are. */
public record RerunRound(Point point, List<Pair> pairs) {
    public RerunRound {
        pairs = List.copyOf(pairs);
    }
}
