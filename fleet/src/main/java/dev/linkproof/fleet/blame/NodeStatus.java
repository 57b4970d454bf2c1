package dev.linkproof.fleet.blame;

/**
 * How a node stands after the blame. A node on a bad link is {@link #CLEAR}: the link is blamed,
 * and draining the node would take a good node out for a cable's fault.
 */
public enum NodeStatus {
    CLEAR,
    BAD,
    CORRUPTING,
    UNREACHABLE,
    MISSING,
    /** Failing in a fleet that fails as a whole ({@link VerdictKind#FLEET_DEGRADED}): not singled out, not acted on. */
    SUSPECT;

    static NodeStatus of(VerdictKind kind) {
        return switch (kind) {
            case BAD_NODE -> BAD;
            case CORRUPTING_NODE -> CORRUPTING;
            case UNREACHABLE_NODE -> UNREACHABLE;
            case MISSING_NODE -> MISSING;
            case BAD_LINK -> CLEAR;
            case FLEET_DEGRADED -> SUSPECT;
        };
    }
}
