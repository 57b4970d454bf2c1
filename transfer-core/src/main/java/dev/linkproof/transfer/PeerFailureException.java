package dev.linkproof.transfer;

/**
 * The other rank is gone or silent: a closed connection, a reset, or no progress within the
 * deadline (then {@link #deadline()} names it). The session that saw it is no longer usable; the
 * next point re-provisions.
 */
public class PeerFailureException extends TransferException {
    public PeerFailureException(String message) {
        super(message);
    }

    public PeerFailureException(String message, Throwable cause) {
        super(message, cause);
    }

    @Override
    public FailureKind kind() {
        return FailureKind.PEER_FAILURE;
    }

    /** As {@link TransferException#expired}, still a peer failure. */
    @Override
    public PeerFailureException expired(Deadline expired) {
        super.expired(expired);
        return this;
    }
}
