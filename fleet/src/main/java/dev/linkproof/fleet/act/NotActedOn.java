package dev.linkproof.fleet.act;

import dev.linkproof.fleet.blame.Verdict;

/** A verdict no command acts on, and why, so a dry run can say so beside the commands. */
public record NotActedOn(Verdict verdict, Why why) {
    public enum Why {
        /** A bad link's nodes are fine with every other partner: draining them would take good nodes out for a cable's fault. */
        LINK_NODES_ARE_FINE,
        /**
         * A node that never registered may never have been started (a placement, an image pull, the
         * launcher): the run knows nothing of the node itself.
         */
        NEVER_REGISTERED
    }
}
