package dev.linkproof.fleet.blame;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.tuple;

import dev.linkproof.fleet.plan.Pair;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;

/** The blame on small synthetic fleets, one injected fault at a time, through the reruns a campaign would run. */
class BlameTest {
    private static final BlameSettings SETTINGS = BlameSettings.DEFAULTS;

    private static Blame blame(SyntheticFleet fleet) {
        return fleet.conclude(SETTINGS);
    }

    /** Everything after the first round: what the reruns added. */
    private static List<PairOutcome> all(Observations first, List<PairOutcome> later) {
        List<PairOutcome> all = new ArrayList<>(first.outcomes());
        all.addAll(later);
        return all;
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
    void confirmationsRunBothWaysUntilEachDirectionHasItsRunsInDisjointRounds() {
        Point p = new Point("w", "write 1 MiB");
        List<String> nodes = List.of("a", "b", "c", "d");
        List<PairOutcome> outcomes = new ArrayList<>();
        for (String x : nodes) {
            for (String y : nodes) {
                if (!x.equals(y)) {
                    outcomes.add(new PairOutcome(new Pair(x, y), p, OutcomeKind.PASSED, 10, Double.NaN));
                }
            }
        }
        outcomes.set(0, new PairOutcome(new Pair("a", "b"), p, OutcomeKind.CORRUPT, 10, Double.NaN));
        Observations first = new Observations(nodes, Set.copyOf(nodes), outcomes);
        ConfirmationPlan plan = ConfirmationPlanner.plan(first, first.outcomes(), SETTINGS);
        // a->b failed once: three more runs; b->a passed once: three more, so both directions end with four.
        assertThat(plan.confirmations())
                .extracting(Confirmation::pair, Confirmation::runs)
                .containsExactly(tuple(new Pair("a", "b"), 3), tuple(new Pair("b", "a"), 3));
        assertThat(plan.runs()).isEqualTo(6);
        // One wave per run, each wave one disjoint round (a->b and b->a share no send or receive side).
        assertThat(plan.rounds())
                .hasSize(3)
                .allSatisfy(r -> assertThat(r.pairs()).containsExactly(new Pair("a", "b"), new Pair("b", "a")));
        // Once they ran, nothing more is due.
        List<PairOutcome> later = new ArrayList<>();
        plan.rounds()
                .forEach(r -> r.pairs()
                        .forEach(x -> later.add(
                                new PairOutcome(x, p, OutcomeKind.PASSED, 10, Double.NaN, Stage.CONFIRMATION, 0))));
        assertThat(ConfirmationPlanner.plan(first, all(first, later), SETTINGS).isEmpty())
                .isTrue();
        assertThat(Blamer.blame(first, all(first, later), SETTINGS).blamesNobody())
                .isTrue();
    }

    @Test
    void aNodeFailingWithManyPartnersHasASampleConfirmedAndVouchesForTheRest() {
        SyntheticFleet fleet = new SyntheticFleet(12, 13).slowNode("lpn7");
        Observations first = fleet.firstRound();
        ConfirmationPlan plan = ConfirmationPlanner.plan(first, first.outcomes(), SETTINGS);
        // 22 failing (pair, point)s through lpn7; four of them, and their reverses, are confirmed.
        assertThat(plan.confirmations().size())
                .isBetween(ConfirmationPlanner.PER_NODE, 2 * ConfirmationPlanner.PER_NODE);
        Blame b = blame(fleet);
        assertThat(b.verdicts())
                .extracting(Verdict::kind, Verdict::nodes)
                .containsExactly(tuple(VerdictKind.BAD_NODE, List.of("lpn7")));
        assertThat(b.verdicts().getFirst().reason()).startsWith("fails with 11 of its 11 partners");
        // When the sample is cleared (the node was slow only in the first round), it vouches for nothing.
        SyntheticFleet transient_ = new SyntheticFleet(12, 13);
        for (int i = 1; i <= 12; i++) {
            if (i != 7) {
                transient_.flakyLink("lpn7", "lpn" + i);
            }
        }
        assertThat(blame(transient_).blamesNobody()).isTrue();
    }

    @Test
    void theRetestsOfASlowLinkPairEachNodeWithAPartnerThatPassed() {
        SyntheticFleet fleet = new SyntheticFleet(4, 3).slowLink("lpn1", "lpn2");
        Observations first = fleet.firstRound();
        List<PairOutcome> all = all(
                first,
                fleet.reruns()
                        .run(
                                Stage.CONFIRMATION,
                                ConfirmationPlanner.plan(first, first.outcomes(), SETTINGS)
                                        .rounds()));
        RetestPlan plan = RetestPlanner.plan(first, all, SETTINGS);
        assertThat(plan.unplanned()).isEmpty();
        assertThat(plan.rounds())
                .singleElement()
                .satisfies(r -> assertThat(r.retests())
                        .extracting(Retest::suspect, Retest::partner, Retest::failedWith)
                        .containsExactly(
                                tuple("lpn1", "lpn3", List.of("lpn2")), tuple("lpn2", "lpn4", List.of("lpn1"))));
        // Before confirmation there is no suspect at all.
        assertThat(RetestPlanner.plan(first, first.outcomes(), SETTINGS).isEmpty())
                .isTrue();
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
    void twoNodesAloneCannotTellWhichSideAndBlameTheLink() {
        Point p = new Point("w", "write 1 MiB");
        Pair ab = new Pair("a", "b");
        Pair ba = new Pair("b", "a");
        Observations first = new Observations(
                List.of("a", "b"),
                Set.of("a", "b"),
                List.of(
                        new PairOutcome(ab, p, OutcomeKind.FAILED_CRITERIA, 2.0, Double.NaN),
                        new PairOutcome(ba, p, OutcomeKind.PASSED, 10.0, Double.NaN)));
        List<PairOutcome> later = new ArrayList<>();
        for (int i = 0; i < 3; i++) {
            later.add(new PairOutcome(ab, p, OutcomeKind.FAILED_CRITERIA, 2.0, Double.NaN, Stage.CONFIRMATION, 0));
            later.add(new PairOutcome(ba, p, OutcomeKind.PASSED, 10.0, Double.NaN, Stage.CONFIRMATION, 0));
        }
        RetestPlan plan = RetestPlanner.plan(first, all(first, later), SETTINGS);
        assertThat(plan.rounds()).isEmpty();
        assertThat(plan.unplanned()).containsExactly("a", "b");
        Blame b = Blamer.blame(first, all(first, later), SETTINGS);
        assertThat(b.verdicts())
                .extracting(Verdict::kind, Verdict::nodes)
                .containsExactly(tuple(VerdictKind.BAD_LINK, List.of("a", "b")));
        assertThat(b.verdicts().getFirst().reason())
                .isEqualTo("a<->b fails (FAILED_CRITERIA ×4) while neither node has another partner to "
                        + "tell which side it is (no retest with a partner that passed); failed 4 of 4 runs");
    }

    @Test
    void aNodeWhoseRetestWithAPartnerThatPassedAlsoFailsIsTheBadSide() {
        // A sparse pattern (a pair file of disjoint pairs): a-b fails, c-d and e-f pass; a is the bad one.
        Point p = new Point("w", "write 1 MiB");
        List<String> nodes = List.of("a", "b", "c", "d", "e", "f");
        Observations first = new Observations(
                nodes,
                Set.copyOf(nodes),
                List.of(
                        new PairOutcome(new Pair("a", "b"), p, OutcomeKind.FAILED_CRITERIA, 2.0, Double.NaN),
                        new PairOutcome(new Pair("c", "d"), p, OutcomeKind.PASSED, 10.0, Double.NaN),
                        new PairOutcome(new Pair("e", "f"), p, OutcomeKind.PASSED, 10.0, Double.NaN)));
        // The model: every pair with a is slow, the rest fine.
        Verdicts.Reruns model = (stage, rounds) -> rounds.stream()
                .flatMap(r -> r.pairs().stream().map(x -> {
                    boolean bad = x.initiator().equals("a") || x.target().equals("a");
                    return new PairOutcome(
                            x,
                            p,
                            bad ? OutcomeKind.FAILED_CRITERIA : OutcomeKind.PASSED,
                            bad ? 2.1 : 10.0,
                            Double.NaN,
                            stage,
                            0);
                }))
                .toList();
        List<List<Pair>> retested = new ArrayList<>();
        Blame b = Verdicts.reach(
                first,
                new Verdicts.Reruns() {
                    @Override
                    public List<PairOutcome> run(Stage stage, List<RerunRound> rounds) {
                        if (stage == Stage.RETEST) {
                            rounds.forEach(r -> retested.add(r.pairs()));
                        }
                        return model.run(stage, rounds);
                    }
                },
                SETTINGS);
        assertThat(retested).containsExactly(List.of(new Pair("a", "c"), new Pair("d", "b")));
        assertThat(b.verdicts())
                .extracting(Verdict::kind, Verdict::nodes)
                .containsExactly(tuple(VerdictKind.BAD_NODE, List.of("a")));
        assertThat(b.verdicts().getFirst().reason())
                .isEqualTo("fails with 2 of its 2 partners (FAILED_CRITERIA ×16), retests with partners that "
                        + "passed included; failed 16 of 16 runs");
        assertThat(b.statusOf("b")).isEqualTo(NodeStatus.CLEAR);
    }

    @Test
    void retestRoundsAreDisjointUseOnlyPartnersThatPassedAndAreTheSameEachTime() {
        // Six slow links among 16 nodes: 12 suspects, and the 4 nodes on no slow link to retest them with.
        SyntheticFleet fleet = new SyntheticFleet(16, 9);
        for (int i = 1; i <= 11; i += 2) {
            fleet.slowLink("lpn" + i, "lpn" + (i + 1));
        }
        Observations first = fleet.firstRound();
        List<PairOutcome> all = all(
                first,
                fleet.reruns()
                        .run(
                                Stage.CONFIRMATION,
                                ConfirmationPlanner.plan(first, first.outcomes(), SETTINGS)
                                        .rounds()));
        RetestPlan plan = RetestPlanner.plan(first, all, SETTINGS);
        assertThat(plan).isEqualTo(RetestPlanner.plan(first, all, SETTINGS));
        assertThat(plan.rounds()).hasSize(3);
        assertThat(plan.retests())
                .extracting(Retest::suspect)
                .containsExactly(
                        "lpn1", "lpn2", "lpn3", "lpn4", "lpn5", "lpn6", "lpn7", "lpn8", "lpn9", "lpn10", "lpn11",
                        "lpn12");
        for (RetestRound r : plan.rounds()) {
            List<String> names = r.retests().stream()
                    .flatMap(t -> List.of(t.pair().initiator(), t.pair().target()).stream())
                    .toList();
            assertThat(names).doesNotHaveDuplicates();
        }
        assertThat(plan.retests())
                .extracting(Retest::partner)
                .allMatch(n -> Set.of("lpn13", "lpn14", "lpn15", "lpn16").contains(n));
        Blame b = blame(fleet);
        assertThat(b.verdicts())
                .extracting(Verdict::kind)
                .containsOnly(VerdictKind.BAD_LINK)
                .hasSize(6);
        assertThat(b.status().values()).containsOnly(NodeStatus.CLEAR);
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
