package dev.linkproof.fleet.blame;

import dev.linkproof.fleet.plan.Pair;
import java.util.ArrayList;
import java.util.BitSet;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

/**
 * Which retests tell the two sides of a failing pair apart, as Google's cluster-health-scanner does: a suspect is
 * paired again with a node that passed; failing again, it is the node; passing, with its old partner passing too,
 * it was the link. "Passed" leaves out pairs with nodes the first round already blames: in a pairwise run every
 * node meets a bad node once. The suspects are the nodes the first round blames as bad or corrupting, and both
 * nodes of every failing pair no blamed node explains; one retest each, since one more passing partner says as much
 * as a thousand. Nodes never registered or never reached are not retested. Partners come in the launcher's order
 * from a cursor that moves on with each retest, so the plan is deterministic and spread over the good nodes.
 */
public final class RetestPlanner {
    private RetestPlanner() {}

    /**
     * The retests for a run so far, judged with the settings' thresholds against the first round.
     *
     * @param all the first round's outcomes and its confirmations: only confirmed failures make suspects
     */
    public static RetestPlan plan(Observations first, List<PairOutcome> all, BlameSettings settings) {
        return plan(first, all, ConfirmationPlanner.judge(first, settings));
    }

    static RetestPlan plan(Observations first, List<PairOutcome> all, PairJudge judge) {
        Ledger ledger = Ledger.of(first.expected(), all, judge);
        Rules.Decision decision = Rules.decide(ledger, first.expected(), first.registered());
        BitSet suspect = new BitSet(ledger.size());
        for (int n = 0; n < ledger.size(); n++) {
            VerdictKind k = decision.nodeKind()[n];
            if (k == VerdictKind.BAD_NODE || k == VerdictKind.CORRUPTING_NODE) {
                suspect.set(n);
            }
        }
        for (Ledger.FailingPair p : decision.links()) {
            suspect.set(p.a);
            suspect.set(p.b);
        }
        List<Integer> good = new ArrayList<>();
        for (int n = 0; n < ledger.size(); n++) {
            if (!suspect.get(n)
                    && !decision.blamed(n)
                    && first.registered().contains(ledger.names.get(n))
                    && ledger.outcomes[n] > 0
                    && passedBesideBlamed(ledger, n, decision)) {
                good.add(n);
            }
        }
        List<Integer> suspects = suspect.stream().boxed().toList();
        if (suspects.isEmpty()) {
            return new RetestPlan(List.of(), List.of());
        }
        if (good.isEmpty()) {
            return new RetestPlan(
                    List.of(), suspects.stream().map(ledger.names::get).toList());
        }
        List<RetestRound> rounds = new ArrayList<>();
        int cursor = 0;
        for (int start = 0; start < suspects.size(); start += good.size()) {
            // A round pairs as many suspects as there are good nodes, each good node once.
            List<Retest> round = new ArrayList<>();
            for (int s = start; s < Math.min(suspects.size(), start + good.size()); s++) {
                int partner = good.get(cursor++ % good.size());
                round.add(retest(ledger, suspects.get(s), partner));
            }
            rounds.add(new RetestRound(rounds.size() + 1, round));
        }
        return new RetestPlan(rounds, List.of());
    }

    private static boolean passedBesideBlamed(Ledger ledger, int node, Rules.Decision decision) {
        for (Ledger.FailingPair p : ledger.failingOf.get(node)) {
            if (!decision.blamed(p.other(node))) {
                return false;
            }
        }
        return true;
    }

    private static Retest retest(Ledger ledger, int suspect, int partner) {
        String s = ledger.names.get(suspect);
        String g = ledger.names.get(partner);
        Set<Point> points = new LinkedHashSet<>();
        List<String> failedWith = new ArrayList<>();
        Boolean initiator = null;
        for (Ledger.FailingPair fp : ledger.failingOf.get(suspect)) {
            failedWith.add(ledger.names.get(fp.other(suspect)));
            for (Ledger.Runs r : fp.runs) {
                points.add(r.point);
                if (initiator == null) {
                    initiator = r.pair.initiator().equals(s);
                }
            }
        }
        Pair pair = Boolean.FALSE.equals(initiator) ? new Pair(g, s) : new Pair(s, g);
        return new Retest(pair, s, g, List.copyOf(points), failedWith);
    }
}
