package dev.linkproof.fleet.act;

import dev.linkproof.fleet.blame.Verdict;

/** A verdict no command acts on, why, and the detail a reader needs (how often history saw it, the breaker's limit). */
public record NotActedOn(Verdict verdict, Why why, String detail) {
    public NotActedOn(Verdict verdict, Why why) {
        this(verdict, why, "");
    }

    public enum Why {
        /** A bad link's nodes are fine with every other partner: draining them would take good nodes out for a cable's fault. */
        LINK_NODES_ARE_FINE,
        /**
         * A node that never registered may never have been started (a placement, an image pull, the
         * launcher): the run knows nothing of the node itself.
         */
        NEVER_REGISTERED,
        /** The fleet fails as a whole (the circuit breaker): no node is singled out or acted on. */
        FLEET_DEGRADED,
        /** Acting on every blamed node would take out more of the fleet than the breaker allows. */
        TOO_MANY_NODES,
        /** A suspect: blamed in fewer of the last runs than acting needs (the history does not agree yet). */
        NOT_CONFIRMED_BY_HISTORY
    }

    /** "bad-node lpn3: … (not confirmed by history: blamed in 1 of the last 3 runs, acting needs 2)". */
    public String describe() {
        return verdict.describe() + " ("
                + why.name().toLowerCase(java.util.Locale.ROOT).replace('_', ' ')
                + (detail.isEmpty() ? "" : ": " + detail) + ")";
    }
}
