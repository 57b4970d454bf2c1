package dev.linkproof.fleet.blame;

import java.util.ArrayList;
import java.util.BitSet;
import java.util.List;
import java.util.Set;

/**
 * The blame's rules over a {@link Ledger}, in the order that lets each explain away what the next
 * would otherwise count: nodes that never registered, then nodes nobody reached, then the node
 * common to the pairs with corrupt data, then nodes that fail with most of their partners, and
 * last the links: failing pairs neither of whose nodes is blamed. Both the retest planner (on the
 * first round) and the blame (with the retests) decide with these, so they agree on who is suspect.
 */
final class Rules {
    /** A node fails with most of its partners when it fails with more than half, and with at least this many. */
    static final int MIN_FAILING_PARTNERS = 2;

    private Rules() {}

    /** What the rules decided: a kind per blamed node (null when not blamed), and the failing pairs left to links. */
    record Decision(VerdictKind[] nodeKind, List<Ledger.FailingPair> links) {
        boolean blamed(int node) {
            return nodeKind[node] != null;
        }
    }

    static Decision decide(Ledger l, List<String> expected, Set<String> registered) {
        int n = l.size();
        VerdictKind[] kind = new VerdictKind[n];
        BitSet blamed = new BitSet(n);
        for (String e : expected) {
            if (!registered.contains(e)) {
                kind[l.indexOf(e)] = VerdictKind.MISSING_NODE;
                blamed.set(l.indexOf(e));
            }
        }
        for (int i = 0; i < n; i++) {
            // Two unreachable runs at least (two partners, two points or a confirmation): never one sample.
            if (!blamed.get(i) && l.outcomes[i] >= 2 && l.unreachable[i] == l.outcomes[i]) {
                kind[i] = VerdictKind.UNREACHABLE_NODE;
            }
        }
        mark(kind, blamed);
        corrupting(l, kind, blamed);
        mark(kind, blamed);
        // Every node against the same blamed set, so the order of the nodes cannot change who is bad.
        for (int i = 0; i < n; i++) {
            if (!blamed.get(i) && failsWithMost(l, i, blamed)) {
                kind[i] = VerdictKind.BAD_NODE;
            }
        }
        mark(kind, blamed);
        List<Ledger.FailingPair> links = new ArrayList<>();
        for (Ledger.FailingPair p : l.failing.values()) {
            if (!blamed.get(p.a) && !blamed.get(p.b)) {
                links.add(p);
            }
        }
        // In node order, as the verdicts are, rather than in the order the outcomes came.
        links.sort(
                java.util.Comparator.comparingInt((Ledger.FailingPair p) -> p.a).thenComparingInt(p -> p.b));
        return new Decision(kind, links);
    }

    /**
     * The node common to the pairs whose data failed validation: the node on most such pairs is
     * blamed while it is on at least two, and its pairs are explained by it. A corrupt pair left
     * over has no common node, and is the link's (a retest with a good partner usually settles it).
     */
    private static void corrupting(Ledger l, VerdictKind[] kind, BitSet blamed) {
        int n = l.size();
        int[] count = new int[n];
        List<List<Ledger.FailingPair>> corruptOf = new ArrayList<>(n);
        for (int i = 0; i < n; i++) {
            corruptOf.add(new ArrayList<>(0));
        }
        for (Ledger.FailingPair p : l.failing.values()) {
            if (p.has(PairFault.CORRUPT) && !blamed.get(p.a) && !blamed.get(p.b)) {
                count[p.a]++;
                count[p.b]++;
                corruptOf.get(p.a).add(p);
                corruptOf.get(p.b).add(p);
            }
        }
        BitSet explained = new BitSet(n);
        while (true) {
            int best = -1;
            for (int i = 0; i < n; i++) {
                if (!explained.get(i) && (best < 0 || count[i] > count[best])) {
                    best = i;
                }
            }
            if (best < 0 || count[best] < MIN_FAILING_PARTNERS) {
                return;
            }
            kind[best] = VerdictKind.CORRUPTING_NODE;
            explained.set(best);
            for (Ledger.FailingPair p : corruptOf.get(best)) {
                int other = p.other(best);
                if (!explained.get(other)) {
                    count[other]--;
                }
            }
            count[best] = 0;
        }
    }

    private static boolean failsWithMost(Ledger l, int node, BitSet blamed) {
        int failing = failingPartners(l, node, blamed);
        return failing >= MIN_FAILING_PARTNERS && 2 * failing > partners(l, node, blamed);
    }

    /** Its partners that are not blamed. */
    static int partners(Ledger l, int node, BitSet blamed) {
        BitSet p = (BitSet) l.partners[node].clone();
        p.andNot(blamed);
        return p.cardinality();
    }

    /** Its partners that are not blamed and it failed with. */
    static int failingPartners(Ledger l, int node, BitSet blamed) {
        int failing = 0;
        for (Ledger.FailingPair p : l.failingOf.get(node)) {
            if (!blamed.get(p.other(node))) {
                failing++;
            }
        }
        return failing;
    }

    static BitSet blamedSet(Decision d) {
        BitSet b = new BitSet(d.nodeKind().length);
        for (int i = 0; i < d.nodeKind().length; i++) {
            if (d.blamed(i)) {
                b.set(i);
            }
        }
        return b;
    }

    private static void mark(VerdictKind[] kind, BitSet blamed) {
        for (int i = 0; i < kind.length; i++) {
            if (kind[i] != null) {
                blamed.set(i);
            }
        }
    }
}
