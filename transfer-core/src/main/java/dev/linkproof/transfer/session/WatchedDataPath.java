package dev.linkproof.transfer.session;

import dev.linkproof.transfer.PeerFailureException;
import dev.linkproof.transfer.TransferException;
import dev.linkproof.transfer.spi.DataPath;

/**
 * A point's data path that stops at the next batch once the {@link ControlWatch} has seen the agent
 * go: for transports whose transfers cannot notice a dead target themselves (one-sided RMA over
 * shared memory completes without it). One volatile read per batch.
 */
final class WatchedDataPath implements DataPath {
    private final DataPath path;
    private final ControlWatch watch;

    WatchedDataPath(DataPath path, ControlWatch watch) {
        this.path = path;
        this.watch = watch;
    }

    /** How long a transfer error waits for the watch to say whether the agent is gone: two of its looks, and some. */
    static final long GRACE_NANOS = 3 * ControlWatch.INTERVAL_NANOS;

    @Override
    public void post() throws TransferException {
        String gone = watch.goneBecause();
        if (gone != null) {
            throw new PeerFailureException("the data transfer stopped: " + gone);
        }
        try {
            path.post();
        } catch (PeerFailureException e) {
            throw e;
        } catch (TransferException e) {
            throw peerFailureIfGone(e);
        }
    }

    @Override
    public void awaitOldest() throws TransferException {
        try {
            path.awaitOldest();
        } catch (PeerFailureException e) {
            throw e;
        } catch (TransferException e) {
            throw peerFailureIfGone(e);
        }
    }

    /**
     * A transfer error its transport could not tell from a local one (a verbs work request flushed when
     * the dead peer's connection went down, say) is a peer failure when the watch finds the agent gone
     * within {@link #GRACE_NANOS}; otherwise it stays what it was.
     */
    private TransferException peerFailureIfGone(TransferException e) {
        String gone;
        try {
            gone = watch.goneWithin(GRACE_NANOS);
        } catch (InterruptedException ie) {
            Thread.currentThread().interrupt();
            return e;
        }
        if (gone == null) {
            return e;
        }
        return new PeerFailureException(e.getMessage() + "; the target agent is gone: " + gone, e);
    }

    @Override
    public void close() {
        path.close();
    }
}
