package dev.linkproof.fleet.plan;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.stream.IntStream;

/** Node lists and the invariants several pattern tests check. */
final class PlanChecks {
    private PlanChecks() {}

    static List<String> nodes(int n) {
        return IntStream.rangeClosed(1, n).mapToObj(i -> "lpn" + i).toList();
    }

    /** Every round disjoint, and with both ways at once, each pair's reverse in the same round. */
    static void roundsAreDisjoint(Plan plan) {
        for (Round r : plan.rounds()) {
            assertThat(r.isDisjoint())
                    .as("round %d of %s is disjoint", r.number(), plan.pattern())
                    .isTrue();
            if (plan.ways() == Ways.BOTH_WAYS_AT_ONCE) {
                assertThat(r.pairs())
                        .as("round %d has every pair's reverse", r.number())
                        .containsAll(r.pairs().stream().map(Pair::reversed).toList());
            }
        }
    }

    /** How many times each unordered node pair meets, as an index matrix (directions counted once). */
    static int[][] meetings(Plan plan) {
        List<String> nodes = plan.nodes();
        java.util.Map<String, Integer> index = new java.util.HashMap<>();
        for (int i = 0; i < nodes.size(); i++) {
            index.put(nodes.get(i), i);
        }
        int[][] met = new int[nodes.size()][nodes.size()];
        for (Round r : plan.rounds()) {
            java.util.Set<Pair> seen = new java.util.HashSet<>();
            for (Pair p : r.pairs()) {
                if (plan.ways() == Ways.BOTH_WAYS_AT_ONCE && seen.contains(p.reversed())) {
                    continue; // the same meeting, the other way
                }
                seen.add(p);
                int a = index.get(p.initiator());
                int b = index.get(p.target());
                met[Math.min(a, b)][Math.max(a, b)]++;
            }
        }
        return met;
    }
}
