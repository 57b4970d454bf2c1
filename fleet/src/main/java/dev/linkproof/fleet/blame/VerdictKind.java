package dev.linkproof.fleet.blame;

import java.util.Locale;

/** What a verdict blames. */
public enum VerdictKind {
    /** A node that fails with most of its partners, retests with partners that passed included. */
    BAD_NODE,
    /** A pair that fails while both its nodes pass elsewhere: the cable, the port, the switch path, not the nodes. */
    BAD_LINK,
    /** A node no pair reached: registered (or expected) but every connect to it failed. */
    UNREACHABLE_NODE,
    /** A node the launcher expected that never registered with the coordinator. */
    MISSING_NODE,
    /** The node common to the pairs whose data failed validation. */
    CORRUPTING_NODE,
    /**
     * The circuit breaker: the verdicts would single out more of the fleet than a fault of a few
     * nodes explains (a switch, a fabric manager, the coordinator's own host). No node is named
     * alone and none is acted on; the verdict lists the failing nodes and the evidence.
     */
    FLEET_DEGRADED;

    /** As reports, labels and taints name it: {@code bad-node}. */
    public String slug() {
        return name().toLowerCase(Locale.ROOT).replace('_', '-');
    }

    /** Whether the verdict is about one node itself (a link's nodes are fine; a degraded fleet singles out nobody). */
    public boolean blamesANode() {
        return this != BAD_LINK && this != FLEET_DEGRADED;
    }
}
