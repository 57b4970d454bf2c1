package dev.linkproof.fleet.blame;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.tuple;

import dev.linkproof.fleet.plan.Pair;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;

/**
 * The reruns before the blame: the confirmations of each failing pair (both ways, in disjoint
 * rounds, a sample of a node's many), and the retests of each suspect with a partner that passed;
 * on small synthetic fleets and hand-made observations. What is blamed in the end is BlameTest's.
 */
class RerunsTest {
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
}
