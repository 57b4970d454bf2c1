package dev.linkproof.fleet.blame;

import dev.linkproof.fleet.plan.Pair;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * How a fleet run goes from its first round to its verdicts, the one sequence every caller follows:
 * confirm what failed, retest the suspects with partners that passed, confirm the retests that
 * failed, blame. The reruns are the caller's to carry out ({@link Reruns}: the campaign through its
 * coordinator, a model fleet in tests); the decisions are made here.
 */
public final class Verdicts {
    private Verdicts() {}

    /** Runs reruns and says what they did; told of each stage's plan first. */
    public interface Reruns {
        /** Each round's pairs at once, in order; one outcome per pair run (of {@code stage}), in any order. */
        List<PairOutcome> run(Stage stage, List<RerunRound> rounds);

        /** A stage is about to run: how many (pair, point)s, pair runs and rounds. */
        default void planned(Stage stage, int pairs, int runs, int rounds) {}

        /** Suspects the retest planner found no partner that passed for. */
        default void unplanned(List<String> suspects) {}
    }

    /** The verdicts of a run whose first round is {@code first}, after every rerun they need. */
    public static Blame reach(Observations first, Reruns reruns, BlameSettings settings) {
        // Every stage is judged against the first round's reference: made once.
        PairJudge judge = ConfirmationPlanner.judge(first, settings);
        List<PairOutcome> all = new ArrayList<>(first.outcomes());
        confirm(first, all, reruns, settings, judge);
        RetestPlan retests = RetestPlanner.plan(first, all, judge);
        if (!retests.unplanned().isEmpty()) {
            reruns.unplanned(retests.unplanned());
        }
        if (!retests.rounds().isEmpty()) {
            List<RerunRound> rounds = new ArrayList<>();
            for (RetestRound round : retests.rounds()) {
                Map<Point, List<Pair>> byPoint = new LinkedHashMap<>();
                for (Retest r : round.retests()) {
                    r.points()
                            .forEach(p -> byPoint.computeIfAbsent(p, k -> new ArrayList<>())
                                    .add(r.pair()));
                }
                byPoint.forEach((p, pairs) -> rounds.add(new RerunRound(p, pairs)));
            }
            reruns.planned(
                    Stage.RETEST,
                    retests.retests().size(),
                    rounds.stream().mapToInt(r -> r.pairs().size()).sum(),
                    rounds.size());
            all.addAll(reruns.run(Stage.RETEST, rounds));
            confirm(first, all, reruns, settings, judge);
        }
        return Blamer.blame(first, all, settings, judge);
    }

    private static void confirm(
            Observations first, List<PairOutcome> all, Reruns reruns, BlameSettings settings, PairJudge judge) {
        ConfirmationPlan plan = ConfirmationPlanner.plan(first, all, settings, judge);
        if (!plan.isEmpty()) {
            reruns.planned(
                    Stage.CONFIRMATION,
                    plan.confirmations().size(),
                    plan.runs(),
                    plan.rounds().size());
            all.addAll(reruns.run(Stage.CONFIRMATION, plan.rounds()));
        }
    }
}
