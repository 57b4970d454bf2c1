package dev.linkproof.fleet.blame;

import dev.linkproof.fleet.plan.Pair;
import java.util.ArrayList;
import java.util.BitSet;
import java.util.Collection;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The outcomes of a fleet run tallied once by node, by run of a (directed pair, point) and by (unordered) pair, so
 * each rule of the blame walks nodes or failing pairs, not every outcome again. Nodes are numbered and partners kept
 * as bit sets: a 1,024-node pairwise run has half a million pairs, and a set of names per node would hold each twice.
 *
 * <p>A (directed pair, point) <em>fails</em> when it ran at least twice and failed in a majority of its runs; a
 * sampled node's other candidates ({@link ConfirmationPlanner#PER_NODE}) count once it vouches for them
 * ({@link #vouches}). Rules downstream see only failing pairs, so no verdict rests on one sample or one confirmed pair.
 */
final class Ledger {
    final List<String> names;
    private final Map<String, Integer> index;
    /** Per node: how many outcomes name it, and how many of those were unreachable. */
    final int[] outcomes;

    final int[] unreachable;
    /** Per node: whether a retest named it. */
    final boolean[] retested;
    /** Per node: every node it was paired with, either way round, in any stage. */
    final BitSet[] partners;
    /**
     * Every (directed pair, point) that failed at least once, with all its runs, in the order first
     * seen. The others are only counted: a 1,024-node fleet has a million good pairs per point.
     */
    final Map<Key, Runs> runs = new LinkedHashMap<>();
    /** The pairs with at least one failing (directed pair, point), keyed by {@link #key}, in the order first seen. */
    final Map<Long, FailingPair> failing = new LinkedHashMap<>();
    /** Per node: its failing pairs. */
    final List<List<FailingPair>> failingOf;

    record Key(Pair pair, Point point) {}

    /** Every run of one directed pair at one point, judged. */
    static final class Runs {
        final Pair pair;
        final Point point;
        final List<Evidence> samples = new ArrayList<>(2);
        int faults;

        Runs(Pair pair, Point point) {
            this.pair = pair;
            this.point = point;
        }

        /** Ran at least twice and failed in a majority of its runs. */
        boolean fails() {
            return samples.size() >= 2 && 2 * faults > samples.size();
        }

        /** Failed in its one run, never run again: a candidate, counted only when one of its nodes vouches for it. */
        boolean candidate() {
            return samples.size() == 1 && faults == 1;
        }

        /** Ran again and failed in at most half its runs: its other runs cleared it. */
        boolean cleared() {
            return faults > 0 && samples.size() >= 2 && !fails();
        }
    }

    /** Two nodes (a before b in node order), the failing runs of either direction, and their evidence. */
    static final class FailingPair {
        final int a;
        final int b;
        final List<Runs> runs = new ArrayList<>(2);

        FailingPair(int a, int b) {
            this.a = a;
            this.b = b;
        }

        int other(int node) {
            return node == a ? b : a;
        }

        /** Every run of the failing (directed pair, point)s, passed ones included. */
        List<Evidence> evidence() {
            return runs.stream().flatMap(r -> r.samples.stream()).toList();
        }

        boolean has(PairFault fault) {
            return runs.stream()
                    .anyMatch(r -> r.samples.stream().anyMatch(e -> e.fault().orElse(null) == fault));
        }
    }

    private Ledger(List<String> names, Map<String, Integer> index) {
        this.names = names;
        this.index = index;
        int n = names.size();
        outcomes = new int[n];
        unreachable = new int[n];
        retested = new boolean[n];
        partners = new BitSet[n];
        failingOf = new ArrayList<>(n);
        for (int i = 0; i < n; i++) {
            partners[i] = new BitSet(n);
            failingOf.add(new ArrayList<>(0));
        }
    }

    /** @param all every outcome of the run, of every stage */
    static Ledger of(List<String> expected, Collection<PairOutcome> all, PairJudge judge) {
        Map<String, Integer> index = new HashMap<>();
        List<String> names = new ArrayList<>();
        for (String e : expected) {
            index.computeIfAbsent(e, k -> {
                names.add(k);
                return names.size() - 1;
            });
        }
        // A million outcomes name a thousand nodes: look each up, add the few unexpected ones.
        for (PairOutcome o : all) {
            for (String n : List.of(o.pair().initiator(), o.pair().target())) {
                if (!index.containsKey(n)) {
                    names.add(n);
                    index.put(n, names.size() - 1);
                }
            }
        }
        Ledger l = new Ledger(List.copyOf(names), index);
        java.util.Set<Key> faulted = new java.util.HashSet<>();
        for (PairOutcome o : all) {
            l.count(o);
            if (judge.fault(o).isPresent()) {
                faulted.add(new Key(o.pair(), o.point()));
            }
        }
        // The runs of a (pair, point) that failed once are all kept: its evidence shows the majority.
        for (PairOutcome o : all) {
            Key k = new Key(o.pair(), o.point());
            if (faulted.contains(k)) {
                Evidence e = judge.sample(o);
                Runs r = l.runs.computeIfAbsent(k, x -> new Runs(x.pair(), x.point()));
                r.samples.add(e);
                if (e.failed()) {
                    r.faults++;
                }
            }
        }
        int[] confirmed = new int[l.size()];
        int[] cleared = new int[l.size()];
        for (Runs r : l.runs.values()) {
            for (String n : List.of(r.pair.initiator(), r.pair.target())) {
                confirmed[index.get(n)] += r.fails() ? 1 : 0;
                cleared[index.get(n)] += r.cleared() ? 1 : 0;
            }
        }
        for (Runs r : l.runs.values()) {
            int i0 = index.get(r.pair.initiator());
            int t0 = index.get(r.pair.target());
            if (r.fails()
                    || r.candidate() && (vouches(confirmed[i0], cleared[i0]) || vouches(confirmed[t0], cleared[t0]))) {
                int i = index.get(r.pair.initiator());
                int t = index.get(r.pair.target());
                l.failing
                        .computeIfAbsent(key(i, t), k -> {
                            FailingPair fp = new FailingPair(Math.min(i, t), Math.max(i, t));
                            l.failingOf.get(i).add(fp);
                            l.failingOf.get(t).add(fp);
                            return fp;
                        })
                        .runs
                        .add(r);
            }
        }
        return l;
    }

    /**
     * A node vouches for its unconfirmed candidates when at least two of its pairs failed by majority, and more
     * failed than were cleared.
     */
    private static boolean vouches(int confirmed, int cleared) {
        return confirmed >= 2 && confirmed > cleared;
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

    /** The (directed pair, point)s that failed once and that no verdict counts: cleared by their runs, or never confirmed. */
    List<Runs> unconfirmed() {
        java.util.Set<Runs> counted = new java.util.HashSet<>();
        failing.values().forEach(p -> counted.addAll(p.runs));
        return runs.values().stream()
                .filter(r -> r.faults > 0 && !counted.contains(r))
                .toList();
    }

    private void count(PairOutcome o) {
        int i = index.get(o.pair().initiator());
        int t = index.get(o.pair().target());
        outcomes[i]++;
        outcomes[t]++;
        if (o.kind() == OutcomeKind.UNREACHABLE) {
            unreachable[i]++;
            unreachable[t]++;
        }
        partners[i].set(t);
        partners[t].set(i);
        if (o.stage() == Stage.RETEST) {
            retested[i] = true;
            retested[t] = true;
        }
    }
}
