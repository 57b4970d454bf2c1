package dev.linkproof.transfer.spi;

import dev.linkproof.transfer.validate.CompletionCheck;
import java.util.Map;

/**
 * The target rank's side of one point: it serves the region until closed. Its endpoint
 * description travels to the initiator in the control protocol's PREPARED reply.
 */
public interface TargetPoint extends AutoCloseable {
    /** What the initiator needs to reach this point (addresses, keys), as strings. */
    Map<String, String> endpoint();

    /**
     * Takes the initiator's half of a two-phase connection (CONNECT) and answers with what the
     * initiator still needs; one-way transports never receive it.
     */
    default Map<String, String> accept(Map<String, String> initiatorEndpoint)
            throws dev.linkproof.transfer.TransferException {
        throw new dev.linkproof.transfer.TransferException("this transport connects in one phase: no CONNECT expected");
    }

    /**
     * After the verification pass, on the initiator's CHECKSUM request: waits until the completions
     * of {@code batches} batches have arrived on this side (at most until {@code deadline}) and says
     * what it found in them. The default suits transports whose target sees no completions of its
     * own (one-sided RDMA, tcp, UCX RMA): nothing checked.
     */
    default CompletionCheck completions(long batches, java.time.Duration deadline) {
        return CompletionCheck.NONE;
    }

    /** Stops serving and releases what the transport holds. Idempotent. */
    @Override
    void close();
}
