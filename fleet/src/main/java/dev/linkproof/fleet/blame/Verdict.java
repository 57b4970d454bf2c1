package dev.linkproof.fleet.blame;

import java.util.List;
import java.util.Objects;

/**
 * One thing the fleet run blames: its kind, the node (one) or the link's two nodes, the evidence it
 * rests on and a line for humans.
 *
 * @param nodes           one node, or a link's two in the launcher's order
 * @param evidence        the (pair, point)s it rests on, at most the blame's evidence limit
 * @param evidenceOmitted how many more there were: a bad node of a 4,000-node fleet fails 8,000
 *                        pairs, and every one of them is in the results file already
 */
public record Verdict(VerdictKind kind, List<String> nodes, List<Evidence> evidence, int evidenceOmitted, String reason) {
    public Verdict {
        Objects.requireNonNull(kind, "kind");
        nodes = List.copyOf(nodes);
        evidence = List.copyOf(evidence);
        Objects.requireNonNull(reason, "reason");
        if (nodes.size() != (kind == VerdictKind.BAD_LINK ? 2 : 1)) {
            throw new IllegalArgumentException(kind + " names " + (kind == VerdictKind.BAD_LINK ? "two nodes" : "one node") + ", not " + nodes);
        }
    }

    /** The blamed node of a node verdict. */
    public String node() {
        if (!kind.blamesANode()) {
            throw new IllegalStateException("a link verdict blames no node: " + nodes);
        }
        return nodes.getFirst();
    }

    /** "bad-link lpn1<->lpn2: …" or "bad-node lpn3: …". */
    public String describe() {
        return kind.slug() + " " + String.join("<->", nodes) + ": " + reason;
    }
}
