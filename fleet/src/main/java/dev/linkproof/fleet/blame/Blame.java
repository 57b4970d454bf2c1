package dev.linkproof.fleet.blame;

import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The verdicts of a fleet run, with what reports draw beside them: every node and how it stands,
 * the fleet's reference per point (and its judge, so a report marks exactly the runs the blame
 * counted, without judging them again itself), and the failures that confirmation cleared.
 */
public final class Blame {
    private final List<String> nodes;
    private final List<Verdict> verdicts;
    private final Map<String, NodeStatus> status;
    private final PairJudge judge;
    private final List<Cleared> cleared;
    private final BlameSettings settings;

    /**
     * A (directed pair, point) that failed and was cleared by its other runs: no verdict rests on it.
     *
     * @param runs every run of it, the failed ones first in time order as they came
     */
    public record Cleared(List<Evidence> runs) {
        public Cleared {
            runs = List.copyOf(runs);
        }

        public long failed() {
            return runs.stream().filter(Evidence::failed).count();
        }

        /** "lpn4->lpn1 @ write 1 MiB: failed 1 of 4 runs". */
        public String describe() {
            Evidence first = runs.getFirst();
            return first.pair().label() + " @ " + first.point().name() + ": failed " + failed() + " of " + runs.size()
                    + " run" + (runs.size() == 1 ? " (not confirmed: no confirmation could run)" : "s");
        }
    }

    Blame(List<String> nodes, List<Verdict> verdicts, PairJudge judge, List<Cleared> cleared, BlameSettings settings) {
        this.settings = settings;
        this.nodes = List.copyOf(nodes);
        this.verdicts = List.copyOf(verdicts);
        this.judge = judge;
        this.cleared = List.copyOf(cleared);
        Map<String, NodeStatus> s = new LinkedHashMap<>();
        nodes.forEach(n -> s.put(n, NodeStatus.CLEAR));
        for (Verdict v : verdicts) {
            if (v.kind().blamesANode() || v.kind() == VerdictKind.FLEET_DEGRADED) {
                v.nodes().forEach(n -> s.put(n, NodeStatus.of(v.kind())));
            }
        }
        this.status = Collections.unmodifiableMap(s);
    }

    /** Every node: the expected ones in the launcher's order, then any other an outcome named. */
    public List<String> nodes() {
        return nodes;
    }

    /** Missing, unreachable, corrupting and bad nodes, then bad links, each in node order; or one fleet-degraded verdict. */
    public List<Verdict> verdicts() {
        return verdicts;
    }

    public Map<String, NodeStatus> status() {
        return status;
    }

    public NodeStatus statusOf(String node) {
        return status.getOrDefault(node, NodeStatus.CLEAR);
    }

    public boolean blamesNobody() {
        return verdicts.isEmpty();
    }

    /** Whether the circuit breaker tripped: one {@link VerdictKind#FLEET_DEGRADED} verdict, no node singled out. */
    public boolean degraded() {
        return verdicts.stream().anyMatch(v -> v.kind() == VerdictKind.FLEET_DEGRADED);
    }

    /** The failures their other runs cleared, in the order first seen. */
    public List<Cleared> cleared() {
        return cleared;
    }

    public List<PointStats> points() {
        return judge.fleet().points();
    }

    public PairJudge judge() {
        return judge;
    }

    /** How the verdicts were reached: thresholds, confirmations, the breaker. */
    public BlameSettings settings() {
        return settings;
    }
}
