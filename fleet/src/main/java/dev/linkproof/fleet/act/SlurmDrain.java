package dev.linkproof.fleet.act;

import dev.linkproof.fleet.blame.Verdict;
import java.util.List;

/**
 * Draining blamed nodes in Slurm, as LBNL NHC does: per bad, corrupting or unreachable node,
 * {@code scontrol update nodename=<n> state=drain reason="linkproof: <kind>: <reason>"}. Running
 * jobs finish; the node takes no new ones until an operator resumes it, and {@code sinfo -R} shows
 * why. Bad links drain nothing: both their nodes are fine with every other partner.
 *
 * @param scontrol   the program to run ({@code scontrol} on the PATH, or a path)
 * @param reasonMax  the drain reason's length limit, {@code linkproof: } included
 */
public record SlurmDrain(String scontrol, int reasonMax) {
    public static final SlurmDrain DEFAULT = new SlurmDrain("scontrol", ReasonText.DEFAULT_MAX);

    public ActPlan plan(List<Verdict> verdicts) {
        return Blamed.plan(verdicts, v -> List.of(drain(v)));
    }

    /** The drain of a node verdict's node. */
    public Command drain(Verdict v) {
        if (!Blamed.actedOn(v.kind())) {
            throw new IllegalArgumentException("a " + v.kind().slug() + " verdict drains nothing: " + v.describe());
        }
        String node = NodeNames.check(v.node());
        String reason = ReasonText.sanitise("linkproof: " + v.kind().slug() + ": " + v.reason(), reasonMax);
        return new Command(List.of(scontrol, "update", "nodename=" + node, "state=drain", "reason=" + reason), node, v.kind());
    }
}
