package dev.linkproof.fleet.plan;

import java.util.HashSet;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

/**
 * Directed pairs that run at once. {@code number} counts from 1, as printed.
 *
 * <p>A round is <em>disjoint</em> when no node initiates twice and no node is the target twice:
 * every node's send side and receive side carry at most one flow, so a slow pair is the pair's own
 * doing and not a neighbour's contention. A pair and its reverse in one round are disjoint in this
 * sense (full duplex). Pairwise, ring, random-k and pair-file rounds are disjoint; incast and
 * fan-out rounds are not, on purpose.
 */
public record Round(int number, List<Pair> pairs) {
    public Round {
        if (number < 1) {
            throw new IllegalArgumentException("rounds count from 1, not " + number);
        }
        pairs = List.copyOf(pairs);
        if (pairs.isEmpty()) {
            throw new IllegalArgumentException("round " + number + " has no pairs");
        }
        // A disjoint round cannot hold a pair twice; checking that first hashes node names (their
        // hashes are cached) and spares the pair set, which is most of the cost of a 1,024-node plan.
        if (!disjoint(pairs) && new HashSet<>(pairs).size() != pairs.size()) {
            throw new IllegalArgumentException("round " + number + " runs a pair twice: " + pairs);
        }
    }

    /** Whether no node initiates twice and no node is the target twice (see the class comment). */
    public boolean isDisjoint() {
        return disjoint(pairs);
    }

    private static boolean disjoint(List<Pair> pairs) {
        Set<String> initiators = new HashSet<>();
        Set<String> targets = new HashSet<>();
        for (Pair p : pairs) {
            if (!initiators.add(p.initiator()) || !targets.add(p.target())) {
                return false;
            }
        }
        return true;
    }

    /**
     * {@code pairs} packed first fit into disjoint rounds, in the given order: how a pair file's
     * pairs, and the confirmation runs of failing pairs, are scheduled.
     */
    public static List<Round> packDisjoint(List<Pair> pairs) {
        return RoundPacking.pack(pairs);
    }

    /** Every node with a part in this round, in the order of the pairs. */
    public Set<String> nodes() {
        Set<String> nodes = new LinkedHashSet<>();
        for (Pair p : pairs) {
            nodes.add(p.initiator());
            nodes.add(p.target());
        }
        return nodes;
    }
}
