package dev.linkproof.fleet.plan;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.linkproof.fleet.FleetConfigurationException;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The summary printed before any transfer, the estimate, and the node lists a plan refuses. */
class PlanTest {
    @Test
    void describeNamesPatternNodesRoundsPairsAndEstimate() {
        Plan plan = new Pairwise().plan(List.of("lpn1", "lpn2", "lpn3", "lpn4"));

        assertThat(plan.describe(Duration.ofMillis(2500), 12)).isEqualTo("""
            fleet plan: pairwise over 4 nodes (lpn1, lpn2, lpn3, lpn4)
              3 rounds, each pair both ways at once: 6 node pairs, 12 directed pairs (tests per point), up to 4 at once
              estimated duration: 3 rounds × 12 points × 2.5s = 1m 30s
            """);
        assertThat(plan.estimatedDuration(Duration.ofMillis(2500), 12)).isEqualTo(Duration.ofSeconds(90));
    }

    @Test
    void aLargeFleetIsShortenedInTheSummary() {
        String text = new Ring().plan(PlanChecks.nodes(1024)).describe(Duration.ofSeconds(3), 100);

        assertThat(text)
                .startsWith("fleet plan: ring over 1024 nodes (lpn1, lpn2, lpn3, lpn4, lpn5, lpn6, lpn7, … lpn1024)\n")
                .contains("1 round, each pair one way: 1024 node pairs, 1024 directed pairs")
                .endsWith("estimated duration: 1 round × 100 points × 3s = 5m 0s\n");
    }

    @Test
    void humanDurations() {
        assertThat(Plan.human(Duration.ofMillis(40))).isEqualTo("40ms");
        assertThat(Plan.human(Duration.ofMillis(2050))).isEqualTo("2.05s");
        assertThat(Plan.human(Duration.ofSeconds(3723))).isEqualTo("1h 2m 3s");
    }

    @Test
    void aPlanNeedsTwoDistinctNamedNodes() {
        assertThatThrownBy(() -> new Pairwise().plan(List.of("lpn1")))
                .isInstanceOf(FleetConfigurationException.class)
                .hasMessage("a fleet plan needs at least two nodes, got 1 [lpn1]");
        assertThatThrownBy(() -> new Ring().plan(List.of("lpn1", "lpn2", "lpn1")))
                .hasMessage("fleet node lpn1 is listed twice");
        assertThatThrownBy(() -> new Ring().plan(List.of("lpn1", " "))).hasMessageContaining("blank");
    }

    @Test
    void roundsAreCheckedWhenBuilt() {
        assertThatThrownBy(() -> new Round(1, List.of(new Pair("a", "b"), new Pair("c", "b"), new Pair("a", "b"))))
                .hasMessageContaining("runs a pair twice");
        assertThatThrownBy(() -> new Plan(
                        "x", List.of("a", "b"), Ways.ONE_WAY, List.of(new Round(1, List.of(new Pair("a", "z"))))))
                .hasMessageContaining("names a node outside the plan");
        assertThat(new Round(1, List.of(new Pair("a", "b"), new Pair("b", "a"))).isDisjoint())
                .isTrue();
        assertThat(new Round(1, List.of(new Pair("a", "b"), new Pair("a", "c"))).isDisjoint())
                .isFalse();
    }
}
