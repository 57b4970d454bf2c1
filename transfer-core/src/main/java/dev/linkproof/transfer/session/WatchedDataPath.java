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

    @Override
    public void post() throws TransferException {
        String gone = watch.goneBecause();
        if (gone != null) {
            throw new PeerFailureException("the data transfer stopped: " + gone);
        }
        path.post();
    }

    @Override
    public void awaitOldest() throws TransferException {
        path.awaitOldest();
    }

    @Override
    public void close() {
        path.close();
    }
}
