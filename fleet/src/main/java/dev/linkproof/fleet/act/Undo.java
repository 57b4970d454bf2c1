package dev.linkproof.fleet.act;

import dev.linkproof.fleet.blame.Blame;
import dev.linkproof.fleet.blame.NodeStatus;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * Which of the nodes Linkproof took out earlier to bring back: a marked machine every fleet node of
 * which registered in this run and is clear. Nothing when the fleet is degraded (the run cannot
 * tell a good node from a bad one), nothing for a machine with no node in this run.
 */
public final class Undo {
    private Undo() {}

    /**
     * @param machineOf a fleet node's machine (the node itself outside Kubernetes), for the registered nodes
     */
    public static List<Mark> of(List<Mark> marks, Blame blame, Map<String, String> machineOf) {
        if (blame.degraded()) {
            return List.of();
        }
        List<Mark> back = new ArrayList<>();
        for (Mark m : marks) {
            List<String> here = machineOf.entrySet().stream()
                    .filter(e -> e.getValue().equals(m.node()))
                    .map(Map.Entry::getKey)
                    .toList();
            if (!here.isEmpty() && here.stream().allMatch(n -> blame.statusOf(n) == NodeStatus.CLEAR)) {
                back.add(m);
            }
        }
        return List.copyOf(back);
    }
}
