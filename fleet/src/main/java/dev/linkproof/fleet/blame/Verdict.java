package dev.linkproof.fleet.blame;

import java.util.List;
import java.util.Objects;

/**
 * One thing the fleet run blames: its kind, the node (one) or the link's two nodes, the evidence it
 * rests on and a line for humans.
 *
 * @param nodes           one node, a link's two in the launcher's order, or a degraded fleet's failing ones
 * @param evidence        the (pair, point)s it rests on, at most the blame's evidence limit
 * @param evidenceOmitted how many more there were: a bad node of a 4,000-node fleet fails 8,000
 *                        pairs, and every one of them is in the results file already
 */
public record Verdict(
        VerdictKind kind, List<String> nodes, List<Evidence> evidence, int evidenceOmitted, String reason) {
    public Verdict {
        Objects.requireNonNull(kind, "kind");
        nodes = List.copyOf(nodes);
        evidence = List.copyOf(evidence);
        Objects.requireNonNull(reason, "reason");
        boolean fits = switch (kind) {
            case BAD_LINK -> nodes.size() == 2;
            case FLEET_DEGRADED -> !nodes.isEmpty();
            default -> nodes.size() == 1;
        };
        if (!fits) {
            throw new IllegalArgumentException(kind + " names "
                    + switch (kind) {
                        case BAD_LINK -> "two nodes";
                        case FLEET_DEGRADED -> "the failing nodes";
                        default -> "one node";
                    }
                    + ", not " + nodes);
        }
    }

    /** The blamed node of a node verdict. */
    public String node() {
        if (!kind.blamesANode()) {
            throw new IllegalStateException("a link verdict blames no node: " + nodes);
        }
        return nodes.getFirst();
    }

    /** "bad-link lpn1<->lpn2: …", "bad-node lpn3: …" or "fleet-degraded lpn1, lpn2, lpn5: …". */
    public String describe() {
        return kind.slug() + " " + String.join(kind == VerdictKind.FLEET_DEGRADED ? ", " : "<->", nodes) + ": "
                + reason;
    }
}
