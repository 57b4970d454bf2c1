package dev.linkproof.fleet.blame;

import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The verdicts of a fleet run, with what reports draw beside them: every node and how it stands,
 * and the fleet's reference per point (and its judge, so a report marks exactly the pairs the blame
 * counted against their nodes, without judging them again itself).
 */
public final class Blame {
    private final List<String> nodes;
    private final List<Verdict> verdicts;
    private final Map<String, NodeStatus> status;
    private final PairJudge judge;

    Blame(List<String> nodes, List<Verdict> verdicts, PairJudge judge) {
        this.nodes = List.copyOf(nodes);
        this.verdicts = List.copyOf(verdicts);
        this.judge = judge;
        Map<String, NodeStatus> s = new LinkedHashMap<>();
        nodes.forEach(n -> s.put(n, NodeStatus.CLEAR));
        for (Verdict v : verdicts) {
            if (v.kind().blamesANode()) {
                s.put(v.node(), NodeStatus.of(v.kind()));
            }
        }
        this.status = Collections.unmodifiableMap(s);
    }

    /** Every node: the expected ones in the launcher's order, then any other an outcome named. */
    public List<String> nodes() {
        return nodes;
    }

    /** Missing, unreachable, corrupting and bad nodes, then bad links, each in node order. */
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

    public List<PointStats> points() {
        return judge.fleet().points();
    }

    public PairJudge judge() {
        return judge;
    }
}
