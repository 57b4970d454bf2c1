package dev.linkproof.fleet.plan;

import dev.linkproof.fleet.FleetConfigurationException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * Which directed pairs run in which round over a fleet's nodes. Rounds run one after another; the
 * pairs of a round run at once. {@code pattern} is the pattern as configured ({@code pairwise},
 * {@code random-k:3:seed=7}); {@code ways} says whether each pair's reverse runs with it.
 */
public record Plan(String pattern, List<String> nodes, Ways ways, List<Round> rounds) {
    /** Node lists longer than this are shortened in {@link #describe}: a 1,024-node list helps no one. */
    private static final int NODES_SHOWN = 8;

    public Plan {
        nodes = requireNodes(nodes);
        rounds = List.copyOf(rounds);
        if (rounds.isEmpty()) {
            throw new IllegalArgumentException(pattern + " over " + nodes.size() + " nodes has no rounds");
        }
        Set<String> known = new HashSet<>(nodes);
        for (int i = 0; i < rounds.size(); i++) {
            Round r = rounds.get(i);
            if (r.number() != i + 1) {
                throw new IllegalArgumentException("round " + r.number() + " is in place " + (i + 1));
            }
            for (Pair p : r.pairs()) {
                if (!known.contains(p.initiator()) || !known.contains(p.target())) {
                    throw new IllegalArgumentException(
                            "round " + r.number() + " pair " + p + " names a node outside the plan");
                }
            }
        }
    }

    /**
     * The nodes a plan can be built over: at least two, none blank, none twice. Patterns call it
     * first, so a bad node list is reported as such and not as some pair it happened to break.
     */
    public static List<String> requireNodes(List<String> nodes) {
        List<String> copy = List.copyOf(nodes);
        if (copy.size() < 2) {
            throw new FleetConfigurationException(
                    "a fleet plan needs at least two nodes, got " + copy.size() + " " + copy);
        }
        Set<String> seen = new HashSet<>();
        for (String n : copy) {
            if (n.isBlank()) {
                throw new FleetConfigurationException("a fleet node name is blank in " + copy);
            }
            if (!seen.add(n)) {
                throw new FleetConfigurationException("fleet node " + n + " is listed twice");
            }
        }
        return copy;
    }

    /** Every directed pair, round after round. */
    public List<Pair> pairs() {
        List<Pair> all = new ArrayList<>();
        rounds.forEach(r -> all.addAll(r.pairs()));
        return all;
    }

    /** How many directed pairs run: the tests per point. */
    public int pairCount() {
        return rounds.stream().mapToInt(r -> r.pairs().size()).sum();
    }

    /** How many distinct node pairs meet, whatever the direction. */
    public int nodePairCount() {
        Set<Set<String>> met = new HashSet<>();
        rounds.forEach(r -> r.pairs().forEach(p -> met.add(Set.of(p.initiator(), p.target()))));
        return met.size();
    }

    /** The most pairs any round runs at once. */
    public int widestRound() {
        return rounds.stream().mapToInt(r -> r.pairs().size()).max().orElse(0);
    }

    /**
     * Rounds × points × the time of one point: a round lasts as long as its slowest pair, and every
     * pair of a round runs every point, so the estimate is per round, not per pair.
     */
    public Duration estimatedDuration(Duration perPoint, int points) {
        if (perPoint.isNegative() || points < 0) {
            throw new IllegalArgumentException("cannot estimate with " + points + " points of " + perPoint);
        }
        return perPoint.multipliedBy((long) rounds.size() * points);
    }

    /** The summary printed before any transfer: pattern, nodes, rounds, pairs and estimated duration. */
    public String describe(Duration perPoint, int points) {
        return "fleet plan: " + pattern + " over " + nodes.size() + " nodes (" + shownNodes() + ")\n"
                + "  " + roundsWord() + ", each pair " + ways.words()
                + ": " + nodePairCount() + " node pairs, " + pairCount() + " directed pairs (tests per point), "
                + "up to " + widestRound() + " at once\n"
                + "  estimated duration: " + roundsWord() + " × " + points + " points × "
                + human(perPoint) + " = " + human(estimatedDuration(perPoint, points)) + "\n";
    }

    private String roundsWord() {
        return rounds.size() + (rounds.size() == 1 ? " round" : " rounds");
    }

    private String shownNodes() {
        if (nodes.size() <= NODES_SHOWN) {
            return String.join(", ", nodes);
        }
        return String.join(", ", nodes.subList(0, NODES_SHOWN - 1)) + ", … " + nodes.getLast();
    }

    /** 1h 2m 3s, 2.5s, 40ms: what a reader takes in at a glance, unlike ISO-8601's PT1H2M3S. */
    static String human(Duration d) {
        if (d.compareTo(Duration.ofSeconds(1)) < 0) {
            return d.toMillis() + "ms";
        }
        long h = d.toHours();
        int m = d.toMinutesPart();
        int s = d.toSecondsPart();
        int ms = d.toMillisPart();
        StringBuilder b = new StringBuilder();
        if (h > 0) {
            b.append(h).append("h ");
        }
        if (h > 0 || m > 0) {
            b.append(m).append("m ");
        }
        b.append(s);
        if (ms > 0 && h == 0 && m == 0) {
            b.append('.').append(String.format("%03d", ms).replaceAll("0+$", ""));
        }
        return b.append('s').toString();
    }
}
