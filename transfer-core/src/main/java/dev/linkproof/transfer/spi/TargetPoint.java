package dev.linkproof.transfer.spi;

import java.util.Map;

/**
 * The target rank's side of one point: it serves the region until closed. Its endpoint
 * description travels to the initiator in the control protocol's PREPARED reply.
 */
public interface TargetPoint extends AutoCloseable {
    /** What the initiator needs to reach this point (addresses, keys), as strings. */
    Map<String, String> endpoint();

    /** Stops serving and releases what the transport holds. Idempotent. */
    @Override
    void close();
}
