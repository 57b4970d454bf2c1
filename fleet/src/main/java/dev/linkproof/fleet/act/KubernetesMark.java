package dev.linkproof.fleet.act;

import dev.linkproof.fleet.blame.Verdict;
import java.util.List;

/**
 * Marking blamed nodes in Kubernetes, as Google's cluster-health-scanner does: per bad, corrupting
 * or unreachable node, a label saying the verdict ({@code linkproof.dev/verdict=<kind>}, for
 * selectors and dashboards) and a NoSchedule taint ({@code linkproof.dev/<kind>=true}, so new pods
 * stay off it while running ones carry on). Both with {@code --overwrite}: a second run on a node
 * the first marked would otherwise fail ("already has taint"). Bad links mark nothing.
 *
 * @param kubectl the program to run ({@code kubectl} on the PATH, or a path)
 */
public record KubernetesMark(String kubectl, java.util.function.UnaryOperator<String> machineOf) {
    public static final KubernetesMark DEFAULT = new KubernetesMark("kubectl");

    /** Marks the blamed node itself: the fleet's nodes are Kubernetes nodes. */
    public KubernetesMark(String kubectl) {
        this(kubectl, java.util.function.UnaryOperator.identity());
    }

    /**
     * The same, marking the Kubernetes node each blamed fleet node runs on ({@code machineOf}: an
     * agent pod's name to its node's, as the agents registered them): a verdict names the pod, and
     * a label or taint on the pod's node is what keeps new work off the hardware.
     */
    public KubernetesMark onMachines(java.util.function.UnaryOperator<String> machineOf) {
        return new KubernetesMark(kubectl, machineOf);
    }
    /** The prefix of every label and taint key linkproof sets, so an operator can find and clear them. */
    public static final String KEY_PREFIX = "linkproof.dev/";

    public ActPlan plan(Selection selection) {
        return Blamed.plan(selection, v -> List.of(label(v), taint(v)));
    }

    /** Lists the machines Linkproof labelled, one per line: {@code node1 bad-node}. */
    public Command query() {
        return new Command(List.of(kubectl, "get", "nodes", "-l", KEY_PREFIX + "verdict", "--no-headers", "-o",
                "custom-columns=NAME:.metadata.name,VERDICT:.metadata.labels.linkproof\\.dev/verdict"), "", null);
    }

    /** The machines {@link #query} lists, with the verdict their label names. */
    public List<Mark> marks(String queryOutput) {
        List<Mark> marks = new java.util.ArrayList<>();
        for (String line : queryOutput.lines().toList()) {
            String[] f = line.strip().split("\\s+");
            if (f.length == 2 && !f[1].equals("<none>")) {
                marks.add(new Mark(f[0], f[1]));
            }
        }
        return List.copyOf(marks);
    }

    /** The label and the taint off a machine Linkproof marked that passes again ({@code mark.reason()}: the verdict's slug). */
    public List<Command> clear(Mark mark) {
        String node = NodeNames.check(mark.node());
        String slug = NodeNames.check(mark.reason());
        return List.of(new Command(List.of(kubectl, "label", "node", node, KEY_PREFIX + "verdict-"), node, null),
                new Command(List.of(kubectl, "taint", "node", node, KEY_PREFIX + slug + ":NoSchedule-"), node, null));
    }

    public Command label(Verdict v) {
        String node = node(v);
        return new Command(List.of(kubectl, "label", "node", node, KEY_PREFIX + "verdict=" + v.kind().slug(), "--overwrite"), node, v.kind());
    }

    public Command taint(Verdict v) {
        String node = node(v);
        return new Command(List.of(kubectl, "taint", "node", node, KEY_PREFIX + v.kind().slug() + "=true:NoSchedule", "--overwrite"), node,
                v.kind());
    }

    private String node(Verdict v) {
        if (!Blamed.actedOn(v.kind())) {
            throw new IllegalArgumentException("a " + v.kind().slug() + " verdict marks no node: " + v.describe());
        }
        return NodeNames.check(machineOf.apply(v.node()));
    }
}
