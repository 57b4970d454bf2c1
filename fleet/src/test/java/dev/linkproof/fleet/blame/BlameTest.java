package dev.linkproof.fleet.blame;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.tuple;

import dev.linkproof.fleet.plan.Pair;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;

/**
 * The blame on small synthetic fleets, one injected fault at a time, through the reruns a campaign
 * would run. How those reruns are planned is RerunsTest's.
 */
class BlameTest {
    private static final BlameSettings SETTINGS = BlameSettings.DEFAULTS;

    private static Blame blame(SyntheticFleet fleet) {
        return fleet.conclude(SETTINGS);
    }

    private static Map<String, NodeStatus> notClear(Blame b) {
        return b.status().entrySet().stream()
                .filter(e -> e.getValue() != NodeStatus.CLEAR)
                .collect(Collectors.toMap(Map.Entry::getKey, Map.Entry::getValue));
    }

    @Test
    void aCleanFleetBlamesNobodyAndRerunsNothing() {
        SyntheticFleet fleet = new SyntheticFleet(8, 1);
        Observations first = fleet.firstRound();
        assertThat(ConfirmationPlanner.plan(first, first.outcomes(), SETTINGS).isEmpty())
                .isTrue();
        assertThat(RetestPlanner.plan(first, first.outcomes(), SETTINGS).isEmpty())
                .isTrue();
        Blame b = blame(fleet);
        assertThat(b.blamesNobody()).isTrue();
        assertThat(b.cleared()).isEmpty();
        assertThat(notClear(b)).isEmpty();
        assertThat(b.points()).singleElement().satisfies(s -> {
            assertThat(s.pairs()).isEqualTo(8 * 7);
            assertThat(s.judged()).isTrue();
            assertThat(s.medianGBps()).isBetween(9.7, 10.3);
            assertThat(s.referenceGBps()).isBetween(9.7, 10.3);
            assertThat(s.bandwidthSpread())
                    .as("σ of ln(bandwidth) of ±3 %% jitter")
                    .isBetween(0.0, 0.05);
            assertThat(s.minGBps()).isLessThanOrEqualTo(s.medianGBps()).isGreaterThanOrEqualTo(9.7);
            assertThat(s.maxGBps()).isGreaterThanOrEqualTo(s.medianGBps()).isLessThanOrEqualTo(10.3);
        });
    }

    @Test
    void aSlowNodeIsBlamedAsANodeAndItsPartnersStayClear() {
        Blame b = blame(new SyntheticFleet(4, 2).slowSender("lpn3"));
        assertThat(b.verdicts())
                .extracting(Verdict::kind, Verdict::nodes)
                .containsExactly(tuple(VerdictKind.BAD_NODE, List.of("lpn3")));
        Verdict v = b.verdicts().getFirst();
        // Three (pair, point)s with four runs each, and one retest with a partner that passed.
        assertThat(v.reason())
                .isEqualTo("fails with 3 of its 3 partners (SLOW ×13), retests with partners that passed included; "
                        + "failed 13 of 13 runs");
        assertThat(v.evidence()).allSatisfy(e -> {
            assertThat(e.fault()).contains(PairFault.SLOW);
            assertThat(e.pair().initiator()).isEqualTo("lpn3");
            assertThat(e.bandwidthGBps()).isLessThan(0.93 * e.fleetReference());
        });
        // Each of its three (pair, point)s ran four times at least: the first round and three confirmations.
        assertThat(v.evidence().stream()
                        .collect(Collectors.groupingBy(Evidence::pair, Collectors.counting()))
                        .values())
                .hasSize(3)
                .allSatisfy(n -> assertThat(n).isGreaterThanOrEqualTo(4L));
        assertThat(v.evidence()).extracting(Evidence::stage).contains(Stage.FIRST, Stage.CONFIRMATION, Stage.RETEST);
        assertThat(notClear(b)).containsExactly(Map.entry("lpn3", NodeStatus.BAD));
        // Slow both ways in a fleet of eight, a quarter of the pairs: the same verdict.
        assertThat(blame(new SyntheticFleet(8, 2).slowNode("lpn3")).verdicts())
                .extracting(Verdict::kind, Verdict::nodes)
                .containsExactly(tuple(VerdictKind.BAD_NODE, List.of("lpn3")));
    }

    @Test
    void aNodeSlowBothWaysInAFleetOfFourIsFoundThoughHalfThePairsAreSlow() {
        // Half of all pairs are slow, so the median over pairs is no healthy reference; the median over
        // the nodes' own medians is (three of the four nodes are mostly healthy).
        Observations first = new SyntheticFleet(4, 2).slowNode("lpn3").firstRound();
        PointStats s = FleetRelative.of(first.outcomes(), Thresholds.DEFAULTS, 4)
                .points()
                .getFirst();
        assertThat(s.medianGBps()).isBetween(6.0, 9.0);
        assertThat(s.referenceGBps()).isBetween(9.7, 10.3);
        assertThat(blame(new SyntheticFleet(4, 2).slowNode("lpn3")).verdicts())
                .extracting(Verdict::kind, Verdict::nodes)
                .containsExactly(tuple(VerdictKind.BAD_NODE, List.of("lpn3")));
    }

    @Test
    void whenMostNodesAreSlowTheFleetCannotJudgeItselfAndBlamesNobody() {
        // Three of four nodes slow both ways: the slow ones are the fleet's norm, and the one fast node
        // is above it. Bandwidth is judged only below the reference: nobody is blamed (the profile's own
        // criteria are what judges such a fleet).
        assertThat(blame(new SyntheticFleet(4, 2)
                                .slowNode("lpn1")
                                .slowNode("lpn2")
                                .slowNode("lpn3"))
                        .blamesNobody())
                .isTrue();
    }

    @Test
    void aSlowLinkIsBlamedAsTheLinkWithBothNodesClear() {
        Blame b = blame(new SyntheticFleet(4, 3).slowLink("lpn1", "lpn2"));
        assertThat(b.verdicts())
                .extracting(Verdict::kind, Verdict::nodes)
                .containsExactly(tuple(VerdictKind.BAD_LINK, List.of("lpn1", "lpn2")));
        Verdict v = b.verdicts().getFirst();
        assertThat(v.evidence())
                .extracting(Evidence::pair)
                .containsOnly(new Pair("lpn1", "lpn2"), new Pair("lpn2", "lpn1"));
        assertThat(v.evidence()).hasSize(8);
        assertThat(v.reason()).contains("lpn1 passes with 2 of its 2 other partners and lpn2 with 2 of 2");
        assertThat(notClear(b)).isEmpty();
    }

    @Test
    void aPairThatFailsOnceIsClearedByItsConfirmationsAndNobodyIsBlamed() {
        SyntheticFleet fleet = new SyntheticFleet(8, 11).flakyLink("lpn4", "lpn1");
        Observations first = fleet.firstRound();
        // The injected fault is there: the first round alone shows both directions of the link as slow.
        PairJudge judge = ConfirmationPlanner.judge(first, SETTINGS);
        assertThat(first.outcomes().stream()
                        .filter(o -> judge.fault(o).isPresent())
                        .map(PairOutcome::pair))
                .containsExactlyInAnyOrder(new Pair("lpn4", "lpn1"), new Pair("lpn1", "lpn4"));
        Blame b = blame(fleet);
        assertThat(b.blamesNobody()).as("%s", b.verdicts()).isTrue();
        assertThat(b.cleared())
                .extracting(Blame.Cleared::describe)
                .containsExactlyInAnyOrder(
                        "lpn1->lpn4 @ write 1 MiB: failed 1 of 4 runs", "lpn4->lpn1 @ write 1 MiB: failed 1 of 4 runs");
    }

    @Test
    void noVerdictRestsOnOneSampleOfAPair() {
        // A slow node and a corrupt link, as the first round saw them, and no rerun at all: nothing is blamed.
        SyntheticFleet fleet = new SyntheticFleet(6, 12).slowNode("lpn3").corruptLink("lpn1", "lpn5");
        Observations first = fleet.firstRound();
        Blame b = Blamer.blame(first, first.outcomes(), SETTINGS);
        assertThat(b.blamesNobody()).isTrue();
        assertThat(b.cleared()).extracting(c -> c.runs().size()).containsOnly(1);
        // With the reruns, both are found; every counted (pair, point) rests on at least two runs, most of them failed.
        Blame full = blame(fleet);
        assertThat(full.verdicts())
                .extracting(Verdict::kind, Verdict::nodes)
                .containsExactly(
                        tuple(VerdictKind.BAD_NODE, List.of("lpn3")),
                        tuple(VerdictKind.BAD_LINK, List.of("lpn1", "lpn5")));
        for (Verdict v : full.verdicts()) {
            Map<List<Object>, List<Evidence>> byRun =
                    v.evidence().stream().collect(Collectors.groupingBy(e -> List.of(e.pair(), e.point())));
            assertThat(byRun.values()).allSatisfy(runs -> {
                assertThat(runs).hasSizeGreaterThanOrEqualTo(2);
                assertThat(2 * runs.stream().filter(Evidence::failed).count()).isGreaterThan(runs.size());
            });
        }
    }

    @Test
    void aDeadNodeIsUnreachableAndTheRestIsJudged() {
        SyntheticFleet fleet = new SyntheticFleet(5, 4).deadNode("lpn5");
        Observations first = fleet.firstRound();
        assertThat(ConfirmationPlanner.plan(first, first.outcomes(), SETTINGS).isEmpty())
                .as("nobody reruns a node nobody reached")
                .isTrue();
        Blame b = blame(fleet);
        assertThat(b.verdicts())
                .extracting(Verdict::kind, Verdict::nodes)
                .containsExactly(tuple(VerdictKind.UNREACHABLE_NODE, List.of("lpn5")));
        assertThat(b.verdicts().getFirst().reason())
                .isEqualTo("no pair reached lpn5: all 8 of its runs, with 4 partners, were unreachable");
        assertThat(notClear(b)).containsExactly(Map.entry("lpn5", NodeStatus.UNREACHABLE));
    }

    @Test
    void aCorruptingNodeIsBlamedAsCorrupting() {
        Blame b = blame(new SyntheticFleet(4, 5).corruptingNode("lpn2"));
        assertThat(b.verdicts())
                .extracting(Verdict::kind, Verdict::nodes)
                .containsExactly(tuple(VerdictKind.CORRUPTING_NODE, List.of("lpn2")));
        assertThat(b.verdicts().getFirst().evidence()).allMatch(e -> e.fault().equals(Optional.of(PairFault.CORRUPT)));
        assertThat(b.verdicts().getFirst().reason())
                .startsWith("data failed validation on 3 of its 3 partners' pairs (lpn1, lpn3, lpn4)");
        assertThat(notClear(b)).containsExactly(Map.entry("lpn2", NodeStatus.CORRUPTING));
    }

    @Test
    void corruptDataOnOnePairWithNoNodeInCommonIsTheLinksOnceRetestsClearBothNodes() {
        Blame b = blame(new SyntheticFleet(4, 6).corruptLink("lpn1", "lpn4"));
        assertThat(b.verdicts())
                .extracting(Verdict::kind, Verdict::nodes)
                .containsExactly(tuple(VerdictKind.BAD_LINK, List.of("lpn1", "lpn4")));
        assertThat(b.verdicts().getFirst().evidence()).allMatch(e -> e.fault().equals(Optional.of(PairFault.CORRUPT)));
    }

    @Test
    void aMissingNodeIsMissingAndNothingElse() {
        Blame b = blame(new SyntheticFleet(4, 7).missingNode("lpn4"));
        assertThat(b.verdicts())
                .extracting(Verdict::kind, Verdict::nodes, Verdict::reason)
                .containsExactly(tuple(
                        VerdictKind.MISSING_NODE,
                        List.of("lpn4"),
                        "lpn4 was expected and never registered with the coordinator"));
        assertThat(notClear(b)).containsExactly(Map.entry("lpn4", NodeStatus.MISSING));
    }

    @Test
    void twoBadNodesOfEightAreNamedAndThreeTripTheBreaker() {
        Blame two = blame(new SyntheticFleet(8, 14).slowNode("lpn2").slowNode("lpn6"));
        assertThat(two.verdicts())
                .extracting(Verdict::kind, Verdict::nodes)
                .containsExactly(
                        tuple(VerdictKind.BAD_NODE, List.of("lpn2")), tuple(VerdictKind.BAD_NODE, List.of("lpn6")));
        assertThat(two.degraded()).isFalse();
        // Three slow senders: 21 of 56 pairs (slow both ways, three nodes would be most of the pairs, and no median a
        // reference).
        Blame three = blame(
                new SyntheticFleet(8, 14).slowSender("lpn2").slowSender("lpn4").slowSender("lpn6"));
        assertThat(three.degraded()).isTrue();
        assertThat(three.verdicts()).singleElement().satisfies(v -> {
            assertThat(v.kind()).isEqualTo(VerdictKind.FLEET_DEGRADED);
            assertThat(v.nodes()).containsExactly("lpn2", "lpn4", "lpn6");
            assertThat(v.reason())
                    .startsWith("fleet-wide: 3 of 8 nodes fail (bad-node ×3); no node singled out: more than 2 (0.25 of"
                            + " the fleet)");
            assertThat(v.evidence()).isNotEmpty();
        });
        assertThat(notClear(three)).containsOnlyKeys("lpn2", "lpn4", "lpn6").containsValue(NodeStatus.SUSPECT);
        // A looser breaker names them.
        Blame loose = new SyntheticFleet(8, 14)
                .slowSender("lpn2")
                .slowSender("lpn4")
                .slowSender("lpn6")
                .conclude(new BlameSettings(Thresholds.DEFAULTS, 3, 0.5, 32));
        assertThat(loose.verdicts())
                .extracting(Verdict::kind)
                .containsOnly(VerdictKind.BAD_NODE)
                .hasSize(3);
    }

    @Test
    void outcomeKindsFollowTheEnginesFailureKinds() {
        assertThat(OutcomeKind.of(dev.linkproof.transfer.FailureKind.DATA_CORRUPTION))
                .contains(OutcomeKind.CORRUPT);
        assertThat(OutcomeKind.of(dev.linkproof.transfer.FailureKind.PEER_FAILURE))
                .contains(OutcomeKind.UNREACHABLE);
        assertThat(OutcomeKind.of(dev.linkproof.transfer.FailureKind.BELOW_CRITERION))
                .contains(OutcomeKind.FAILED_CRITERIA);
        assertThat(OutcomeKind.of(dev.linkproof.transfer.FailureKind.TRANSFER_ERROR))
                .contains(OutcomeKind.ERROR);
        assertThat(OutcomeKind.of(dev.linkproof.transfer.FailureKind.UNAVAILABLE))
                .isEmpty();
    }

    @Test
    void looserThresholdsFromTheProfileLetASlowNodePass() {
        BlameSettings loose = new BlameSettings(Thresholds.DEFAULTS.withRatios(0.4, 50), 3, 0.25, 32);
        assertThat(new SyntheticFleet(4, 2).slowSender("lpn3").conclude(loose).blamesNobody())
                .isTrue();
        assertThat(new SyntheticFleet(4, 2)
                        .slowSender("lpn3")
                        .conclude(SETTINGS)
                        .verdicts())
                .extracting(Verdict::kind)
                .containsExactly(VerdictKind.BAD_NODE);
    }
}
