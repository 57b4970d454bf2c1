package dev.linkproof.fleet.act;

import dev.linkproof.fleet.blame.Verdict;
import java.util.List;

/**
 * Draining blamed nodes in Slurm, as LBNL NHC does: per bad, corrupting or unreachable node,
 * {@code scontrol update nodename=<n> state=drain reason="linkproof: <kind>: <reason>"}. Running jobs finish, the
 * node takes no new ones, and {@code sinfo -R} shows why. Bad links drain nothing: both their nodes are fine with
 * every other partner. Undo resumes a node whose drain reason starts with {@code linkproof:} and that passes again;
 * a node an operator drained for another reason is never touched.
 *
 * @param reasonMax the drain reason's length limit, {@code linkproof: } included
 */
public record SlurmDrain(String scontrol, String sinfo, int reasonMax) {
    public static final SlurmDrain DEFAULT = new SlurmDrain("scontrol", "sinfo", ReasonText.DEFAULT_MAX);
    /** How every drain reason of ours starts: what undo looks for. */
    public static final String REASON_PREFIX = "linkproof: ";

    public ActPlan plan(Selection selection) {
        return Blamed.plan(selection, v -> List.of(drain(v)));
    }

    /** Lists every drained or down node with its reason, one per line: {@code lpn3|linkproof: bad-node: …}. */
    public Command query() {
        return new Command(List.of(sinfo, "-h", "-N", "-R", "-o", "%N|%E"), "", null);
    }

    /** The nodes {@link #query} shows drained by Linkproof (its reason prefix), each once. */
    public List<Mark> marks(String queryOutput) {
        java.util.Map<String, Mark> marks = new java.util.LinkedHashMap<>();
        for (String line : queryOutput.lines().toList()) {
            int bar = line.indexOf('|');
            if (bar > 0 && line.substring(bar + 1).strip().startsWith(REASON_PREFIX.strip())) {
                String node = line.substring(0, bar).strip();
                marks.putIfAbsent(node, new Mark(node, line.substring(bar + 1).strip()));
            }
        }
        return List.copyOf(marks.values());
    }

    /** Back into service: a node Linkproof drained that passes again. */
    public Command resume(Mark mark) {
        String node = NodeNames.check(mark.node());
        return new Command(List.of(scontrol, "update", "nodename=" + node, "state=resume"), node, null);
    }

    /** The drain of a node verdict's node. */
    public Command drain(Verdict v) {
        if (!Blamed.actedOn(v.kind())) {
            throw new IllegalArgumentException("a " + v.kind().slug() + " verdict drains nothing: " + v.describe());
        }
        String node = NodeNames.check(v.node());
        String reason = ReasonText.sanitise(REASON_PREFIX + v.kind().slug() + ": " + v.reason(), reasonMax);
        return new Command(
                List.of(scontrol, "update", "nodename=" + node, "state=drain", "reason=" + reason), node, v.kind());
    }
}
