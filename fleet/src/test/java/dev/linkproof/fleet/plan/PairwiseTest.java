package dev.linkproof.fleet.plan;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.stream.IntStream;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/** The round robin: n−1 rounds (n when odd), every node once per round, every two nodes once, both ways at once. */
class PairwiseTest {
    static Stream<Integer> sizes() {
        return Stream.concat(IntStream.rangeClosed(2, 64).boxed(), Stream.of(1024));
    }

    @ParameterizedTest(name = "{0} nodes")
    @MethodSource("sizes")
    void everyTwoNodesMeetExactlyOnceInDisjointRounds(int n) {
        Plan plan = new Pairwise().plan(PlanChecks.nodes(n));

        assertThat(plan.ways()).isEqualTo(Ways.BOTH_WAYS_AT_ONCE);
        assertThat(plan.rounds()).hasSize(n % 2 == 0 ? n - 1 : n);
        PlanChecks.roundsAreDisjoint(plan);
        int[][] met = PlanChecks.meetings(plan);
        for (int a = 0; a < n; a++) {
            for (int b = a + 1; b < n; b++) {
                assertThat(met[a][b])
                        .as("%s and %s meet", plan.nodes().get(a), plan.nodes().get(b))
                        .isEqualTo(1);
            }
        }
        assertThat(plan.pairCount()).isEqualTo(n * (n - 1));
        assertThat(plan.nodePairCount()).isEqualTo(n * (n - 1) / 2);
    }

    @ParameterizedTest(name = "{0} nodes")
    @MethodSource("sizes")
    void everyNodeIsInExactlyOnePairPerRoundAndAnOddOneSitsOutOnce(int n) {
        Plan plan = new Pairwise().plan(PlanChecks.nodes(n));
        Set<String> satOut = new HashSet<>();
        for (Round r : plan.rounds()) {
            assertThat(r.pairs()).hasSize(2 * (n / 2));
            Set<String> in = r.nodes();
            assertThat(in).hasSize(n % 2 == 0 ? n : n - 1);
            if (n % 2 == 1) {
                Set<String> out = new HashSet<>(plan.nodes());
                out.removeAll(in);
                assertThat(satOut.addAll(out))
                        .as("round %d's idle node idled before", r.number())
                        .isTrue();
            }
        }
        assertThat(satOut).hasSize(n % 2 == 0 ? 0 : n);
    }

    @Test
    void fourNodesInThreeRoundsEachPairBothWays() {
        Plan plan = new Pairwise().plan(List.of("lpn1", "lpn2", "lpn3", "lpn4"));

        assertThat(plan.rounds()).hasSize(3);
        assertThat(plan.rounds().getFirst().pairs())
                .containsExactly(
                        new Pair("lpn1", "lpn4"),
                        new Pair("lpn4", "lpn1"),
                        new Pair("lpn2", "lpn3"),
                        new Pair("lpn3", "lpn2"));
    }

    /**
     * The bound: a 1,024-node plan (1,023 rounds, 1,047,552 directed pairs) in under a
     * second. It takes a few hundred milliseconds in a cold JVM here. The best of three tries is
     * what is bounded: CI machines are shared, and a neighbour's burst is not the planner's cost.
     */
    @Test
    void aThousandAndTwentyFourNodePlanIsMadeInUnderASecond() {
        List<String> nodes = PlanChecks.nodes(1024);
        long best = Long.MAX_VALUE;
        for (int attempt = 0; attempt < 3; attempt++) {
            long start = System.nanoTime();
            Plan plan = new Pairwise().plan(nodes);
            best = Math.min(best, (System.nanoTime() - start) / 1_000_000);
            assertThat(plan.rounds()).hasSize(1023);
        }
        System.out.println("pairwise plan of 1,024 nodes: " + best + " ms (best of 3)");
        assertThat(best).as("milliseconds to plan 1,024 nodes").isLessThan(1000);
    }
}
