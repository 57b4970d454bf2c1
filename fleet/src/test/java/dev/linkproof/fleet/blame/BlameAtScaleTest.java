package dev.linkproof.fleet.blame;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.tuple;

import java.util.List;
import java.util.Locale;
import org.junit.jupiter.api.Test;

/**
 * The blame on a simulated 1,024-node fleet: a million directed (pair, point) outcomes with five
 * injected faults, each named as what it is, and nobody else blamed. Prints the time and heap it
 * took (the bench script prints the same figures outside Surefire).
 */
class BlameAtScaleTest {
    @Test
    void aThousandAndTwentyFourNodesWithFiveFaults() {
        FleetBlameSimulation.Result r = FleetBlameSimulation.run(1024);
        System.out.printf(
                Locale.ROOT,
                "1,024-node blame: %d outcomes, %d retests in %d round(s); plan %.3f s, blame %.3f s; heap with"
                        + " outcomes %.0f MiB, with blame %.0f MiB%n",
                r.outcomes(),
                r.retests(),
                r.retestRounds(),
                r.planSeconds(),
                r.blameSeconds(),
                r.heapWithOutcomesBytes() / 1048576.0,
                r.heapWithBlameBytes() / 1048576.0);
        // 1,023 registered nodes: 522,753 node pairs, both ways round.
        assertThat(r.outcomes()).isEqualTo(1023 * 1022);
        assertThat(r.blame().verdicts())
                .extracting(Verdict::kind, Verdict::nodes)
                .containsExactly(
                        tuple(VerdictKind.MISSING_NODE, List.of(FleetBlameSimulation.MISSING_NODE)),
                        tuple(VerdictKind.UNREACHABLE_NODE, List.of(FleetBlameSimulation.DEAD_NODE)),
                        tuple(VerdictKind.CORRUPTING_NODE, List.of(FleetBlameSimulation.CORRUPTING_NODE)),
                        tuple(VerdictKind.BAD_NODE, List.of(FleetBlameSimulation.SLOW_NODE)),
                        tuple(
                                VerdictKind.BAD_LINK,
                                List.of(FleetBlameSimulation.SLOW_LINK_A, FleetBlameSimulation.SLOW_LINK_B)));
        assertThat(r.blame().statusOf(FleetBlameSimulation.SLOW_LINK_A)).isEqualTo(NodeStatus.CLEAR);
        assertThat(r.blame().statusOf(FleetBlameSimulation.SLOW_LINK_B)).isEqualTo(NodeStatus.CLEAR);
        // The evidence is capped; what is left out is counted.
        Verdict slow = r.blame().verdicts().get(3);
        assertThat(slow.evidence()).hasSize(BlameSettings.DEFAULTS.evidenceLimit());
        assertThat(slow.evidence().size() + slow.evidenceOmitted()).isGreaterThanOrEqualTo(2 * 1019);
        // Confirming the slow and corrupting nodes, and telling the link's two sides apart: four retests, one round.
        assertThat(r.retests()).isEqualTo(4);
        assertThat(r.retestRounds()).isEqualTo(1);
    }
}
