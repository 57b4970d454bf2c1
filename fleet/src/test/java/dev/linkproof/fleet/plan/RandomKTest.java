package dev.linkproof.fleet.plan;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.linkproof.fleet.FleetConfigurationException;
import java.util.HashMap;
import java.util.HashSet;
import java.util.Map;
import java.util.Set;
import java.util.stream.IntStream;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/** random-k: k distinct partners per node (k−1 for k nodes when the count is odd), k disjoint rounds, seeded. */
class RandomKTest {
    static Stream<Arguments> sizes() {
        return Stream.concat(IntStream.rangeClosed(2, 64).boxed(), Stream.of(1024))
                .flatMap(n -> Stream.of(1, 3, 7).filter(k -> k < n).map(k -> Arguments.of(n, k)));
    }

    @ParameterizedTest(name = "{0} nodes, k={1}")
    @MethodSource("sizes")
    void everyNodeHasKDistinctPartnersInKDisjointRounds(int n, int k) {
        Plan plan = new RandomK(k, 42).plan(PlanChecks.nodes(n));

        assertThat(plan.rounds()).hasSize(k);
        PlanChecks.roundsAreDisjoint(plan);
        int[][] met = PlanChecks.meetings(plan);
        Map<String, Set<String>> partners = new HashMap<>();
        for (Pair p : plan.pairs()) {
            partners.computeIfAbsent(p.initiator(), x -> new HashSet<>()).add(p.target());
        }
        for (int a = 0; a < n; a++) {
            for (int b = a + 1; b < n; b++) {
                assertThat(met[a][b]).as("meetings of %d and %d", a, b).isLessThanOrEqualTo(1);
            }
        }
        long short1 = plan.nodes().stream()
                .filter(x -> partners.getOrDefault(x, Set.of()).size() == k - 1)
                .count();
        long full = plan.nodes().stream()
                .filter(x -> partners.getOrDefault(x, Set.of()).size() == k)
                .count();
        assertThat(short1).as("nodes with k-1 partners").isEqualTo(n % 2 == 0 ? 0 : k);
        assertThat(full).as("nodes with k partners").isEqualTo(n % 2 == 0 ? n : n - k);
    }

    @Test
    void theSameSeedGivesTheSamePlanAndAnotherSeedAnother() {
        var nodes = PlanChecks.nodes(64);
        Plan a = new RandomK(3, 7).plan(nodes);

        assertThat(new RandomK(3, 7).plan(nodes)).isEqualTo(a);
        assertThat(new RandomK(3, 8).plan(nodes).rounds()).isNotEqualTo(a.rounds());
        assertThat(a.pattern()).isEqualTo("random-k:3:seed=7");
    }

    @Test
    void kMustLeaveEnoughNodes() {
        assertThatThrownBy(() -> new RandomK(4, 1).plan(PlanChecks.nodes(4)))
                .isInstanceOf(FleetConfigurationException.class)
                .hasMessage("random-k:4:seed=1 needs at least 5 nodes (k partners each), the fleet has 4");
        assertThatThrownBy(() -> new RandomK(0, 1)).hasMessageContaining("at least 1, not 0");
    }
}
