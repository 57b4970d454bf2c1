package dev.linkproof.transfer.spi;

import dev.linkproof.transfer.TransferException;

/**
 * The initiator's side of one point on a connected transport: it posts whole batches and waits for
 * them, oldest first. Implementations pre-build everything a batch needs when they are created, so
 * {@link #post()} and {@link #awaitOldest()} allocate nothing.
 */
public interface DataPath extends AutoCloseable {
    /** Posts the next batch (all of its transfers). Must not block for longer than the I/O deadline. */
    void post() throws TransferException;

    /**
     * Waits until the oldest posted batch has completed. Fails with a
     * {@link dev.linkproof.transfer.PeerFailureException} when the peer is gone or makes no progress
     * within the I/O deadline.
     */
    void awaitOldest() throws TransferException;

    @Override
    void close();
}
