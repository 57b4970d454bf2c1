package dev.linkproof.transfer.spi;

/**
 * What the initiator knows, outside the data path, about whether the target rank is still there:
 * the session watches the control connection while a point's data path runs, and a closed
 * connection means the agent died. One-sided transports need this: over shared memory the target's
 * region stays mapped after the target dies, so puts and gets keep succeeding and nothing in the
 * data path would ever notice. Data paths ask it from their wait loops and before a forced close.
 */
@FunctionalInterface
public interface PeerLiveness {
    /** Nobody watches: the peer is never known to be gone (transport unit tests, tools). */
    PeerLiveness UNWATCHED = () -> null;

    /**
     * Null while the peer is not known to be gone; otherwise why it is (a sentence that ends by
     * asking whether it died). Cheap, one volatile read: callable from wait loops.
     */
    String goneBecause();
}
