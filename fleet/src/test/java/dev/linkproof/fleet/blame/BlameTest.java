package dev.linkproof.fleet.blame;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.tuple;

import dev.linkproof.fleet.plan.Pair;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;

/** The blame on small synthetic fleets, one injected fault at a time, through the retests the engine would run. */
class BlameTest {
    private static final BlameSettings SETTINGS = BlameSettings.DEFAULTS;

    /** The first round, the retests it plans, run on the same fleet, and the blame over both. */
    private static Blame blame(SyntheticFleet fleet) {
        Observations first = fleet.firstRound();
        RetestPlan plan = RetestPlanner.plan(first, SETTINGS);
        return Blamer.blame(first, fleet.run(plan), SETTINGS);
    }

    private static Map<String, NodeStatus> notClear(Blame b) {
        return b.status().entrySet().stream().filter(e -> e.getValue() != NodeStatus.CLEAR)
                .collect(Collectors.toMap(Map.Entry::getKey, Map.Entry::getValue));
    }

    @Test
    void aCleanFleetBlamesNobodyAndRetestsNothing() {
        SyntheticFleet fleet = new SyntheticFleet(8, 1);
        assertThat(RetestPlanner.plan(fleet.firstRound(), SETTINGS).isEmpty()).isTrue();
        Blame b = blame(fleet);
        assertThat(b.blamesNobody()).isTrue();
        assertThat(notClear(b)).isEmpty();
        assertThat(b.points()).singleElement().satisfies(s -> {
            assertThat(s.pairs()).isEqualTo(8 * 7);
            assertThat(s.medianGBps()).isBetween(9.7, 10.3);
            assertThat(s.minGBps()).isLessThanOrEqualTo(s.medianGBps()).isGreaterThanOrEqualTo(9.7);
            assertThat(s.maxGBps()).isGreaterThanOrEqualTo(s.medianGBps()).isLessThanOrEqualTo(10.3);
        });
    }

    @Test
    void aSlowNodeIsBlamedAsANodeAndItsPartnersStayClear() {
        Blame b = blame(new SyntheticFleet(4, 2).slowNode("lpn3"));
        assertThat(b.verdicts()).extracting(Verdict::kind, Verdict::nodes).containsExactly(tuple(VerdictKind.BAD_NODE, List.of("lpn3")));
        Verdict v = b.verdicts().getFirst();
        assertThat(v.reason()).startsWith("fails with 3 of its 3 partners (SLOW ×");
        assertThat(v.evidence()).allSatisfy(e -> {
            assertThat(e.fault()).isEqualTo(PairFault.SLOW);
            assertThat(Set.of(e.pair().initiator(), e.pair().target())).contains("lpn3");
            assertThat(e.bandwidthGBps()).isLessThan(0.93 * e.fleetReference());
        });
        assertThat(v.evidence()).anyMatch(Evidence::retest);
        assertThat(notClear(b)).containsExactly(Map.entry("lpn3", NodeStatus.BAD));
    }

    @Test
    void aSlowLinkIsBlamedAsTheLinkWithBothNodesClear() {
        Blame b = blame(new SyntheticFleet(4, 3).slowLink("lpn1", "lpn2"));
        assertThat(b.verdicts()).extracting(Verdict::kind, Verdict::nodes)
                .containsExactly(tuple(VerdictKind.BAD_LINK, List.of("lpn1", "lpn2")));
        Verdict v = b.verdicts().getFirst();
        assertThat(v.evidence()).extracting(Evidence::pair).containsExactlyInAnyOrder(new Pair("lpn1", "lpn2"), new Pair("lpn2", "lpn1"));
        assertThat(v.reason()).contains("lpn1 passes with 2 of its 2 other partners and lpn2 with 2 of 2");
        assertThat(notClear(b)).isEmpty();
    }

    @Test
    void theRetestsOfASlowLinkPairEachNodeWithAPartnerThatPassed() {
        Observations first = new SyntheticFleet(4, 3).slowLink("lpn1", "lpn2").firstRound();
        RetestPlan plan = RetestPlanner.plan(first, SETTINGS);
        assertThat(plan.unplanned()).isEmpty();
        assertThat(plan.rounds()).singleElement().satisfies(r -> assertThat(r.retests())
                .extracting(Retest::suspect, Retest::partner, Retest::failedWith)
                .containsExactly(tuple("lpn1", "lpn3", List.of("lpn2")), tuple("lpn2", "lpn4", List.of("lpn1"))));
    }

    @Test
    void aDeadNodeIsUnreachableAndTheRestIsJudged() {
        SyntheticFleet fleet = new SyntheticFleet(5, 4).deadNode("lpn5");
        assertThat(RetestPlanner.plan(fleet.firstRound(), SETTINGS).isEmpty()).as("nobody retests a node nobody reached").isTrue();
        Blame b = blame(fleet);
        assertThat(b.verdicts()).extracting(Verdict::kind, Verdict::nodes).containsExactly(tuple(VerdictKind.UNREACHABLE_NODE, List.of("lpn5")));
        assertThat(b.verdicts().getFirst().reason()).isEqualTo("no pair reached lpn5: all 8 of its outcomes, with 4 partners, were unreachable");
        assertThat(notClear(b)).containsExactly(Map.entry("lpn5", NodeStatus.UNREACHABLE));
    }

    @Test
    void aCorruptingNodeIsBlamedAsCorrupting() {
        Blame b = blame(new SyntheticFleet(4, 5).corruptingNode("lpn2"));
        assertThat(b.verdicts()).extracting(Verdict::kind, Verdict::nodes).containsExactly(tuple(VerdictKind.CORRUPTING_NODE, List.of("lpn2")));
        assertThat(b.verdicts().getFirst().evidence()).allMatch(e -> e.fault() == PairFault.CORRUPT);
        assertThat(b.verdicts().getFirst().reason()).startsWith("data failed validation on 3 of its 3 partners' pairs (lpn1, lpn3, lpn4)");
        assertThat(notClear(b)).containsExactly(Map.entry("lpn2", NodeStatus.CORRUPTING));
    }

    @Test
    void corruptDataOnOnePairWithNoNodeInCommonIsTheLinksOnceRetestsClearBothNodes() {
        SyntheticFleet fleet = new SyntheticFleet(4, 6).corruptLink("lpn1", "lpn4");
        Blame b = blame(fleet);
        assertThat(b.verdicts()).extracting(Verdict::kind, Verdict::nodes).containsExactly(tuple(VerdictKind.BAD_LINK, List.of("lpn1", "lpn4")));
        assertThat(b.verdicts().getFirst().evidence()).allMatch(e -> e.fault() == PairFault.CORRUPT);
    }

    @Test
    void aMissingNodeIsMissingAndNothingElse() {
        Blame b = blame(new SyntheticFleet(4, 7).missingNode("lpn4"));
        assertThat(b.verdicts()).extracting(Verdict::kind, Verdict::nodes, Verdict::reason)
                .containsExactly(tuple(VerdictKind.MISSING_NODE, List.of("lpn4"), "lpn4 was expected and never registered with the coordinator"));
        assertThat(notClear(b)).containsExactly(Map.entry("lpn4", NodeStatus.MISSING));
    }

    @Test
    void twoNodesAloneCannotTellWhichSideAndBlameTheLink() {
        Point p = new Point("w", "write 1 MiB");
        Observations first = new Observations(List.of("a", "b"), Set.of("a", "b"), List.of(
                new PairOutcome(new Pair("a", "b"), p, OutcomeKind.FAILED_CRITERIA, 2.0, Double.NaN),
                new PairOutcome(new Pair("b", "a"), p, OutcomeKind.PASSED, 10.0, Double.NaN)));
        RetestPlan plan = RetestPlanner.plan(first, SETTINGS);
        assertThat(plan.rounds()).isEmpty();
        assertThat(plan.unplanned()).containsExactly("a", "b");
        Blame b = Blamer.blame(first, List.of(), SETTINGS);
        assertThat(b.verdicts()).extracting(Verdict::kind, Verdict::nodes).containsExactly(tuple(VerdictKind.BAD_LINK, List.of("a", "b")));
        assertThat(b.verdicts().getFirst().reason())
                .isEqualTo("a<->b fails (FAILED_CRITERIA ×1) while neither node has another partner to tell which side it is (no retest with a partner that passed)");
    }

    @Test
    void aNodeWhoseRetestWithAPartnerThatPassedAlsoFailsIsTheBadSide() {
        // A sparse pattern (a pair file of disjoint pairs): a-b fails, c-d and e-f pass; a is the bad one.
        Point p = new Point("w", "write 1 MiB");
        List<String> nodes = List.of("a", "b", "c", "d", "e", "f");
        Observations first = new Observations(nodes, Set.copyOf(nodes), List.of(
                new PairOutcome(new Pair("a", "b"), p, OutcomeKind.FAILED_CRITERIA, 2.0, Double.NaN),
                new PairOutcome(new Pair("c", "d"), p, OutcomeKind.PASSED, 10.0, Double.NaN),
                new PairOutcome(new Pair("e", "f"), p, OutcomeKind.PASSED, 10.0, Double.NaN)));
        RetestPlan plan = RetestPlanner.plan(first, SETTINGS);
        assertThat(plan.retests()).extracting(Retest::pair).containsExactly(new Pair("a", "c"), new Pair("d", "b"));
        List<PairOutcome> retests = List.of(
                new PairOutcome(new Pair("a", "c"), p, OutcomeKind.FAILED_CRITERIA, 2.1, Double.NaN),
                new PairOutcome(new Pair("d", "b"), p, OutcomeKind.PASSED, 10.0, Double.NaN));
        Blame b = Blamer.blame(first, retests, SETTINGS);
        assertThat(b.verdicts()).extracting(Verdict::kind, Verdict::nodes).containsExactly(tuple(VerdictKind.BAD_NODE, List.of("a")));
        assertThat(b.verdicts().getFirst().reason()).isEqualTo("fails with 2 of its 2 partners (FAILED_CRITERIA ×2), retests with partners that passed included");
        assertThat(b.statusOf("b")).isEqualTo(NodeStatus.CLEAR);
    }

    @Test
    void retestRoundsAreDisjointUseOnlyPartnersThatPassedAndAreTheSameEachTime() {
        // Six slow links among 12 nodes: 12 suspects... and the 4 nodes on no slow link to retest them with.
        SyntheticFleet fleet = new SyntheticFleet(16, 9);
        for (int i = 1; i <= 11; i += 2) {
            fleet.slowLink("lpn" + i, "lpn" + (i + 1));
        }
        Observations first = fleet.firstRound();
        RetestPlan plan = RetestPlanner.plan(first, SETTINGS);
        assertThat(plan).isEqualTo(RetestPlanner.plan(first, SETTINGS));
        assertThat(plan.rounds()).hasSize(3);
        assertThat(plan.retests()).extracting(Retest::suspect).containsExactly(
                "lpn1", "lpn2", "lpn3", "lpn4", "lpn5", "lpn6", "lpn7", "lpn8", "lpn9", "lpn10", "lpn11", "lpn12");
        for (RetestRound r : plan.rounds()) {
            List<String> names = r.retests().stream().flatMap(t -> List.of(t.pair().initiator(), t.pair().target()).stream()).toList();
            assertThat(names).doesNotHaveDuplicates();
        }
        assertThat(plan.retests()).extracting(Retest::partner).allMatch(n -> Set.of("lpn13", "lpn14", "lpn15", "lpn16").contains(n));
        Blame b = Blamer.blame(first, fleet.run(plan), SETTINGS);
        assertThat(b.verdicts()).extracting(Verdict::kind).containsOnly(VerdictKind.BAD_LINK).hasSize(6);
        assertThat(b.status().values()).containsOnly(NodeStatus.CLEAR);
    }

    @Test
    void outcomeKindsFollowTheEnginesFailureKinds() {
        assertThat(OutcomeKind.of(dev.linkproof.transfer.FailureKind.DATA_CORRUPTION)).contains(OutcomeKind.CORRUPT);
        assertThat(OutcomeKind.of(dev.linkproof.transfer.FailureKind.PEER_FAILURE)).contains(OutcomeKind.UNREACHABLE);
        assertThat(OutcomeKind.of(dev.linkproof.transfer.FailureKind.BELOW_CRITERION)).contains(OutcomeKind.FAILED_CRITERIA);
        assertThat(OutcomeKind.of(dev.linkproof.transfer.FailureKind.TRANSFER_ERROR)).contains(OutcomeKind.ERROR);
        assertThat(OutcomeKind.of(dev.linkproof.transfer.FailureKind.UNAVAILABLE)).isEmpty();
    }

    @Test
    void looserThresholdsFromTheProfileLetASlowNodePass() {
        BlameSettings loose = new BlameSettings(new Thresholds(0.4, 50), 32);
        Observations first = new SyntheticFleet(4, 2).slowNode("lpn3").firstRound();
        assertThat(Blamer.blame(first, List.of(), loose).blamesNobody()).isTrue();
        assertThat(Blamer.blame(first, List.of(), SETTINGS).verdicts()).extracting(Verdict::kind).containsExactly(VerdictKind.BAD_NODE);
    }

    @Test
    void aPairAboveTheMultipleOfTheLowestLatencyIsAnOutlier() {
        Point p = new Point("lat", "read latency 8 B");
        List<PairOutcome> outcomes = List.of(
                new PairOutcome(new Pair("a", "b"), p, OutcomeKind.PASSED, Double.NaN, 2.0),
                new PairOutcome(new Pair("b", "c"), p, OutcomeKind.PASSED, Double.NaN, 4.1),
                new PairOutcome(new Pair("c", "a"), p, OutcomeKind.PASSED, Double.NaN, 4.3));
        FleetRelative f = FleetRelative.of(outcomes, Thresholds.CLUSTERKIT);
        assertThat(f.outlier(outcomes.get(0))).isEmpty();
        assertThat(f.outlier(outcomes.get(1))).isEmpty();
        assertThat(f.outlier(outcomes.get(2))).hasValueSatisfying(o -> {
            assertThat(o.measure()).isEqualTo(Measure.LATENCY);
            assertThat(o.reference()).isEqualTo(2.0);
            assertThat(o.limit()).isEqualTo(4.2, org.assertj.core.data.Offset.offset(1e-9));
            assertThat(o.describe()).isEqualTo("4.3 µs above 4.2 (fleet lowest 2.0)");
        });
    }

    @Test
    void aBandwidthOutlierIsBelowTheFractionOfTheMedian() {
        Point p = new Point("bw", "write 1 MiB");
        List<PairOutcome> outcomes = List.of(
                new PairOutcome(new Pair("a", "b"), p, OutcomeKind.PASSED, 10, Double.NaN),
                new PairOutcome(new Pair("b", "c"), p, OutcomeKind.PASSED, 9.31, Double.NaN),
                new PairOutcome(new Pair("c", "a"), p, OutcomeKind.PASSED, 9.29, Double.NaN),
                new PairOutcome(new Pair("a", "c"), p, OutcomeKind.PASSED, 10, Double.NaN),
                PairOutcome.unmeasured(new Pair("c", "b"), p, OutcomeKind.UNREACHABLE));
        FleetRelative f = FleetRelative.of(outcomes, Thresholds.CLUSTERKIT);
        assertThat(f.point(p)).hasValueSatisfying(s -> {
            assertThat(s.pairs()).isEqualTo(5);
            assertThat(s.measuredBandwidth()).isEqualTo(4);
            assertThat(s.medianGBps()).isEqualTo(9.655, org.assertj.core.data.Offset.offset(1e-9));
            assertThat(s.minGBps()).isEqualTo(9.29);
            assertThat(s.maxGBps()).isEqualTo(10);
        });
        // 0.93 × 9.655 = 8.979: nobody here; with a median of 10 (drop the slow two), 9.29 would be.
        assertThat(outcomes).allSatisfy(o -> assertThat(f.outlier(o)).isEmpty());
        FleetRelative g = FleetRelative.of(List.of(outcomes.get(0), outcomes.get(3), outcomes.get(2)), Thresholds.CLUSTERKIT);
        assertThat(g.outlier(outcomes.get(2))).hasValueSatisfying(o -> assertThat(o.measure()).isEqualTo(Measure.BANDWIDTH));
        assertThat(g.outlier(outcomes.get(0))).isEmpty();
    }
}
