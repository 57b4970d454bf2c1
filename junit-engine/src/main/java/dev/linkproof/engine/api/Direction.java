package dev.linkproof.engine.api;

/** Which way a point's data moves between its two nodes. */
public enum Direction {
    /** From the initiator's node to the target's (the default). */
    ONE_WAY,
    /**
     * Both ways at once, on every rail, as perftest's {@code -b}: each rail's pair also runs from the
     * target's node back to the initiator's, driven there by the target's agent, all rails and both
     * directions starting together.
     */
    BOTH_WAYS
}
