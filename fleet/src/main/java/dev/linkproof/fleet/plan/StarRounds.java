package dev.linkproof.fleet.plan;

import dev.linkproof.fleet.FleetConfigurationException;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Function;

/**
 * The rounds of incast and fan-out: one hub and every other node, all in one round (the point of
 * both is the contention at the hub) or in batches of at most {@code batch} pairs per round, in
 * launcher order.
 */
final class StarRounds {
    private StarRounds() {}

    /** The hub named, or the first node when none is; a name outside the fleet is an error naming the pattern. */
    static String hub(String spec, String named, List<String> nodes) {
        if (named == null) {
            return nodes.getFirst();
        }
        if (!nodes.contains(named)) {
            throw new FleetConfigurationException(spec + " names node " + named + ", which is not in the fleet "
                    + (nodes.size() <= 8 ? nodes.toString() : "of " + nodes.size() + " nodes"));
        }
        return named;
    }

    /** {@code toPair} makes the pair of the hub with another node (the other node → hub for incast). */
    static List<Round> rounds(String hub, List<String> nodes, int batch, Function<String, Pair> toPair) {
        List<Round> rounds = new ArrayList<>();
        List<Pair> current = new ArrayList<>();
        for (String n : nodes) {
            if (n.equals(hub)) {
                continue;
            }
            current.add(toPair.apply(n));
            if (current.size() == batch) {
                rounds.add(new Round(rounds.size() + 1, current));
                current = new ArrayList<>();
            }
        }
        if (!current.isEmpty()) {
            rounds.add(new Round(rounds.size() + 1, current));
        }
        return rounds;
    }
}
