package dev.linkproof.fleet.blame;

import dev.linkproof.fleet.plan.Pair;
import dev.linkproof.fleet.plan.Round;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Which runs confirm or clear what failed, before any verdict (as ByteRobust acts on an alert only when it fires
 * again): every (directed pair, point) that failed with fewer runs than {@link BlameSettings#runsPerPair}, and its
 * reverse, runs again until both have that many. A node failing with more than {@link #PER_NODE} partners has only
 * that many of its pairs confirmed, spread over its partners: a bad node of a 1,024-node fleet fails 2,000 pairs,
 * and confirming each would take longer than the run ({@link Ledger} says when the rest count). Pairs with a node
 * that never registered, or that no run reached, are left out: each try would wait out a connect deadline to learn
 * nothing new.
 */
public final class ConfirmationPlanner {
    /** How many of one node's failing pairs are confirmed when it has more. */
    public static final int PER_NODE = 4;

    private ConfirmationPlanner() {}

    /** @param all every outcome so far, of every stage */
    public static ConfirmationPlan plan(Observations first, List<PairOutcome> all, BlameSettings settings) {
        return plan(first, all, settings, judge(first, settings));
    }

    /** The same with the run's judge, made once ({@link #judge}): a million outcomes make it worth keeping. */
    static ConfirmationPlan plan(Observations first, List<PairOutcome> all, BlameSettings settings, PairJudge judge) {
        Ledger l = Ledger.of(first.expected(), all, judge);
        int want = settings.runsPerPair();
        List<Ledger.Runs> due = l.runs.values().stream()
                .filter(r -> r.faults > 0 && r.samples.size() < want && runnable(l, first.registered(), r.pair))
                .toList();
        // Per node, its pairs due in the order seen; a node with more than PER_NODE of them is sampled.
        Map<String, List<Ledger.Runs>> byNode = new LinkedHashMap<>();
        for (Ledger.Runs r : due) {
            byNode.computeIfAbsent(r.pair.initiator(), n -> new ArrayList<>()).add(r);
            byNode.computeIfAbsent(r.pair.target(), n -> new ArrayList<>()).add(r);
        }
        Set<Ledger.Runs> sampled = new java.util.HashSet<>();
        byNode.forEach((node, list) -> {
            if (list.size() > PER_NODE) {
                for (int k = 0; k < PER_NODE; k++) {
                    sampled.add(list.get(k * list.size() / PER_NODE));
                }
            }
        });
        Map<Ledger.Key, Integer> needed = new LinkedHashMap<>();
        for (Ledger.Runs r : due) {
            boolean crowded = byNode.get(r.pair.initiator()).size() > PER_NODE
                    || byNode.get(r.pair.target()).size() > PER_NODE;
            if (!crowded || sampled.contains(r)) {
                needed.put(new Ledger.Key(r.pair, r.point), 0);
                needed.putIfAbsent(new Ledger.Key(r.pair.reversed(), r.point), 0);
            }
        }
        if (needed.isEmpty()) {
            return ConfirmationPlan.NONE;
        }
        for (PairOutcome o : all) {
            needed.computeIfPresent(new Ledger.Key(o.pair(), o.point()), (k, n) -> n + 1);
        }
        List<Confirmation> confirmations = new ArrayList<>();
        needed.forEach((k, have) -> {
            if (have < want) {
                confirmations.add(new Confirmation(k.pair(), k.point(), want - have));
            }
        });
        return new ConfirmationPlan(confirmations, rounds(confirmations));
    }

    /** The fleet reference every stage is judged against: the first round's. */
    static PairJudge judge(Observations first, BlameSettings settings) {
        return new PairJudge(FleetRelative.of(
                first.outcomes(), settings.thresholds(), first.registered().size()));
    }

    private static boolean runnable(Ledger l, Set<String> registered, Pair pair) {
        for (String n : List.of(pair.initiator(), pair.target())) {
            int i = l.indexOf(n);
            if (!registered.contains(n) || l.outcomes[i] > 0 && l.unreachable[i] == l.outcomes[i]) {
                return false;
            }
        }
        return true;
    }

    private static List<RerunRound> rounds(List<Confirmation> confirmations) {
        Map<Point, List<Confirmation>> byPoint = new LinkedHashMap<>();
        confirmations.forEach(
                c -> byPoint.computeIfAbsent(c.point(), p -> new ArrayList<>()).add(c));
        List<RerunRound> rounds = new ArrayList<>();
        byPoint.forEach((point, list) -> {
            int most = list.stream().mapToInt(Confirmation::runs).max().orElse(0);
            for (int k = 1; k <= most; k++) {
                List<Pair> wave = new ArrayList<>();
                for (Confirmation c : list) {
                    if (c.runs() >= k) {
                        wave.add(c.pair());
                    }
                }
                for (Round r : Round.packDisjoint(wave)) {
                    rounds.add(new RerunRound(point, r.pairs()));
                }
            }
        });
        return rounds;
    }
}
