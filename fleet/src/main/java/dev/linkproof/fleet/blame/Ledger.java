package dev.linkproof.fleet.blame;

import java.util.ArrayList;
import java.util.BitSet;
import java.util.Collection;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The outcomes of a fleet run tallied by node and by (unordered) pair, once, so each rule of the
 * blame is a walk over nodes or failing pairs rather than over every outcome again. Nodes are
 * numbered (the expected ones in the launcher's order, then any other an outcome names) and partners
 * kept as bit sets: a 1,024-node pairwise run has half a million pairs, and a set of names per node
 * would hold each of them twice.
 */
final class Ledger {
    final List<String> names;
    private final Map<String, Integer> index;
    /** Per node: how many (pair, point) outcomes name it, and how many of those were unreachable. */
    final int[] outcomes;
    final int[] unreachable;
    /** Per node: a fault of its own in the first round (so it did not pass everything). */
    final boolean[] faultedFirst;
    /** Per node: whether a retest named it. */
    final boolean[] retested;
    /** Per node: every node it was paired with, either way round, first round or retest. */
    final BitSet[] partners;
    /** The pairs with at least one fault, keyed by {@link #key}, in the order first seen. */
    final Map<Long, FailingPair> failing = new LinkedHashMap<>();
    /** Per node: its failing pairs. */
    final List<List<FailingPair>> failingOf;

    /** Two nodes (a before b in node order) and the evidence against them together. */
    static final class FailingPair {
        final int a;
        final int b;
        final List<Evidence> evidence = new ArrayList<>(2);

        FailingPair(int a, int b) {
            this.a = a;
            this.b = b;
        }

        int other(int node) {
            return node == a ? b : a;
        }

        boolean has(PairFault fault) {
            return evidence.stream().anyMatch(e -> e.fault() == fault);
        }
    }

    private Ledger(List<String> names, Map<String, Integer> index) {
        this.names = names;
        this.index = index;
        int n = names.size();
        outcomes = new int[n];
        unreachable = new int[n];
        faultedFirst = new boolean[n];
        retested = new boolean[n];
        partners = new BitSet[n];
        failingOf = new ArrayList<>(n);
        for (int i = 0; i < n; i++) {
            partners[i] = new BitSet(n);
            failingOf.add(new ArrayList<>(0));
        }
    }

    static Ledger of(List<String> expected, Collection<PairOutcome> first, Collection<PairOutcome> retests, PairJudge judge) {
        Map<String, Integer> index = new HashMap<>();
        List<String> names = new ArrayList<>();
        for (String e : expected) {
            index.computeIfAbsent(e, k -> { names.add(k); return names.size() - 1; });
        }
        // A million outcomes name a thousand nodes: look each up, add the few unexpected ones.
        for (Collection<PairOutcome> list : List.of(first, retests)) {
            for (PairOutcome o : list) {
                if (!index.containsKey(o.pair().initiator())) {
                    names.add(o.pair().initiator());
                    index.put(o.pair().initiator(), names.size() - 1);
                }
                if (!index.containsKey(o.pair().target())) {
                    names.add(o.pair().target());
                    index.put(o.pair().target(), names.size() - 1);
                }
            }
        }
        Ledger l = new Ledger(List.copyOf(names), index);
        first.forEach(o -> l.add(o, false, judge));
        retests.forEach(o -> l.add(o, true, judge));
        return l;
    }

    int size() {
        return names.size();
    }

    int indexOf(String node) {
        Integer i = index.get(node);
        return i == null ? -1 : i;
    }

    static long key(int a, int b) {
        return (long) Math.min(a, b) << 32 | Math.max(a, b);
    }

    private void add(PairOutcome o, boolean retest, PairJudge judge) {
        int i = index.get(o.pair().initiator());
        int t = index.get(o.pair().target());
        outcomes[i]++;
        outcomes[t]++;
        if (o.kind() == OutcomeKind.UNREACHABLE) {
            unreachable[i]++;
            unreachable[t]++;
        }
        partners[i].set(t);
        if (retest) {
            retested[i] = true;
            retested[t] = true;
        }
        partners[t].set(i);
        judge.fault(o, retest).ifPresent(e -> {
            if (!retest) {
                faultedFirst[i] = true;
                faultedFirst[t] = true;
            }
            FailingPair p = failing.computeIfAbsent(key(i, t), k -> {
                FailingPair fp = new FailingPair(Math.min(i, t), Math.max(i, t));
                failingOf.get(i).add(fp);
                failingOf.get(t).add(fp);
                return fp;
            });
            p.evidence.add(e);
        });
    }
}
