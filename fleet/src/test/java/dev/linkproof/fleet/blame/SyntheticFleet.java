package dev.linkproof.fleet.blame;

import dev.linkproof.fleet.plan.Pair;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.SplittableRandom;

/**
 * A fleet that exists only as a model of how each directed pair does at each point: healthy pairs
 * near a base bandwidth and latency (a few per cent of deterministic jitter), and faults injected
 * on nodes or links. Its first round is every ordered pair (both directions of each of the
 * n(n−1)/2 pairs a pairwise plan visits), and it answers retests from the same model, as the
 * engine would by running them. Seeded, so every run of a test sees the same fleet.
 */
final class SyntheticFleet {
    static final double BASE_GBPS = 10.0;
    static final double BASE_US = 5.0;
    /** Healthy pairs vary by ±3 %: well inside the 7 % ClusterKit allows below the median. */
    static final double JITTER = 0.03;

    private final List<String> nodes = new ArrayList<>();
    private final List<Point> points;
    private final Set<String> slowNodes = new HashSet<>();
    private final Set<String> slowSenders = new HashSet<>();
    private final Set<Set<String>> slowLinks = new HashSet<>();
    private final Set<Set<String>> corruptLinks = new HashSet<>();
    private final Set<String> deadNodes = new HashSet<>();
    private final Set<String> corruptingNodes = new HashSet<>();
    private final Set<String> missingNodes = new HashSet<>();
    private final Map<String, Integer> index = new HashMap<>();
    private final long seed;
    private double slowFactor = 0.5;
    private double jitter = JITTER;
    /** Links slow in the first round only: a transient (a neighbour's burst), which confirmation must clear. */
    private final Set<Set<String>> flakyLinks = new HashSet<>();

    SyntheticFleet(int size, long seed, Point... points) {
        for (int i = 1; i <= size; i++) {
            String name = "lpn" + i;
            index.put(name, nodes.size());
            nodes.add(name);
        }
        this.points = List.of(points.length == 0 ? new Point[] {new Point("write-1MiB", "write 1 MiB")} : points);
        this.seed = seed;
    }

    SyntheticFleet slowNode(String n) {
        slowNodes.add(n);
        return this;
    }

    /** A node slow only when it sends, as tc's tbf on its egress makes it. */
    SyntheticFleet slowSender(String n) {
        slowSenders.add(n);
        return this;
    }

    SyntheticFleet slowLink(String a, String b) {
        slowLinks.add(Set.of(a, b));
        return this;
    }

    SyntheticFleet corruptLink(String a, String b) {
        corruptLinks.add(Set.of(a, b));
        return this;
    }

    SyntheticFleet deadNode(String n) {
        deadNodes.add(n);
        return this;
    }

    SyntheticFleet corruptingNode(String n) {
        corruptingNodes.add(n);
        return this;
    }

    SyntheticFleet missingNode(String n) {
        missingNodes.add(n);
        return this;
    }

    SyntheticFleet flakyLink(String a, String b) {
        flakyLinks.add(Set.of(a, b));
        return this;
    }

    /** How far healthy pairs vary: ±{@code j} of the base. */
    SyntheticFleet jitter(double j) {
        jitter = j;
        return this;
    }

    SyntheticFleet slowFactor(double f) {
        slowFactor = f;
        return this;
    }

    List<String> nodes() {
        return nodes;
    }

    List<Point> points() {
        return points;
    }

    /** The first round: every ordered pair of registered nodes at every point (a missing node's pairs are not run). */
    Observations firstRound() {
        Set<String> registered = new LinkedHashSet<>(nodes);
        registered.removeAll(missingNodes);
        List<PairOutcome> outcomes = new ArrayList<>();
        for (int i = 0; i < nodes.size(); i++) {
            for (int j = 0; j < nodes.size(); j++) {
                if (i != j && registered.contains(nodes.get(i)) && registered.contains(nodes.get(j))) {
                    Pair pair = new Pair(nodes.get(i), nodes.get(j));
                    for (Point p : points) {
                        outcomes.add(outcome(pair, p));
                    }
                }
            }
        }
        return new Observations(nodes, registered, outcomes);
    }

    /** The reruns as the campaign would carry them out: every pair of every round, from this model. */
    Verdicts.Reruns reruns() {
        return (stage, rounds) -> {
            List<PairOutcome> out = new ArrayList<>();
            for (RerunRound r : rounds) {
                for (Pair p : r.pairs()) {
                    out.add(outcome(p, r.point(), stage));
                }
            }
            return out;
        };
    }

    /** The first round, every rerun it needs, and the verdicts: what a campaign over this fleet concludes. */
    Blame conclude(BlameSettings settings) {
        return Verdicts.reach(firstRound(), reruns(), settings);
    }

    /** How {@code pair} does at {@code point} in the first round. */
    PairOutcome outcome(Pair pair, Point point) {
        return outcome(pair, point, Stage.FIRST);
    }

    /** How {@code pair} does at {@code point} under the injected faults, in {@code stage}. */
    PairOutcome outcome(Pair pair, Point point, Stage stage) {
        String a = pair.initiator();
        String b = pair.target();
        if (deadNodes.contains(a) || deadNodes.contains(b)) {
            return PairOutcome.unmeasured(pair, point, OutcomeKind.UNREACHABLE).at(stage, 0);
        }
        // Jitter from the pair and point alone, so a retest of the same pair sees the same figures.
        SplittableRandom r = new SplittableRandom(seed
                ^ (index.get(a) * 1_000_003L + index.get(b)) * 31 + point.id().hashCode());
        double bw = BASE_GBPS * (1 + jitter * (2 * r.nextDouble() - 1));
        double us = BASE_US * (1 + jitter * (2 * r.nextDouble() - 1));
        Set<String> link = Set.of(a, b);
        if (slowNodes.contains(a)
                || slowNodes.contains(b)
                || slowSenders.contains(a)
                || slowLinks.contains(link)
                || stage == Stage.FIRST && flakyLinks.contains(link)) {
            bw *= slowFactor;
            us /= slowFactor;
        }
        OutcomeKind kind = corruptingNodes.contains(a) || corruptingNodes.contains(b) || corruptLinks.contains(link)
                ? OutcomeKind.CORRUPT
                : OutcomeKind.PASSED;
        return new PairOutcome(pair, point, kind, bw, us, stage, 0);
    }
}
