package dev.linkproof.fleet.act;

import dev.linkproof.fleet.blame.Verdict;
import java.util.List;
import java.util.function.UnaryOperator;

/**
 * Marking blamed nodes in Kubernetes, as Google's cluster-health-scanner does: per bad, corrupting or unreachable
 * node, a label {@code linkproof.dev/verdict=<kind>} for selectors and dashboards, and a NoSchedule taint
 * {@code linkproof.dev/<kind>=true}, so new pods stay off it while running ones carry on (no cordon). Both replace
 * what an earlier run set: a second run on a node the first marked must not fail. Bad links mark nothing. The
 * commands are {@link NodeEdit}s for {@link KubernetesApi}; {@code print} shows their argv, kubectl's line.
 *
 * @param machineOf a blamed fleet node's Kubernetes node: an agent pod's name to its node's; else the identity
 */
public record KubernetesMark(UnaryOperator<String> machineOf) {
    public static final KubernetesMark DEFAULT = new KubernetesMark(UnaryOperator.identity());
    /** The prefix of every label and taint key linkproof sets, so an operator can find and clear them. */
    public static final String KEY_PREFIX = "linkproof.dev/";
    /** The label naming the verdict a node was taken out for: what {@link #query} looks for. */
    public static final String VERDICT_LABEL = KEY_PREFIX + "verdict";

    static final String EFFECT = "NoSchedule";

    /**
     * The same, marking the Kubernetes node each blamed fleet node runs on: a verdict names the pod,
     * and a label or taint on the pod's node is what keeps new work off the hardware.
     */
    public KubernetesMark onMachines(UnaryOperator<String> machineOf) {
        return new KubernetesMark(machineOf);
    }

    public ActPlan plan(Selection selection) {
        return Blamed.plan(selection, v -> List.of(label(v), taint(v)));
    }

    /** Lists the machines Linkproof labelled, one per line: {@code node1 bad-node}. */
    public Command query() {
        return Command.kubernetes(new NodeEdit.ListLabelled(VERDICT_LABEL), "", null);
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
        return List.of(
                Command.kubernetes(new NodeEdit.Unlabel(VERDICT_LABEL), node, null),
                Command.kubernetes(new NodeEdit.Untaint(KEY_PREFIX + slug, EFFECT), node, null));
    }

    public Command label(Verdict v) {
        return Command.kubernetes(new NodeEdit.Label(VERDICT_LABEL, v.kind().slug()), node(v), v.kind());
    }

    public Command taint(Verdict v) {
        return Command.kubernetes(new NodeEdit.Taint(KEY_PREFIX + v.kind().slug(), "true", EFFECT), node(v), v.kind());
    }

    private String node(Verdict v) {
        if (!Blamed.actedOn(v.kind())) {
            throw new IllegalArgumentException("a " + v.kind().slug() + " verdict marks no node: " + v.describe());
        }
        return NodeNames.check(machineOf.apply(v.node()));
    }
}
