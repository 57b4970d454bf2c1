package dev.linkproof.transfer.spi;

import dev.linkproof.transfer.TransferException;
import java.util.Map;

/**
 * The initiator's side of one point before its data path runs. Transports whose two sides must
 * both learn about each other (RC queue pairs: QP numbers, PSNs, GIDs) publish their half here;
 * the session hands it to the target (CONNECT) and passes the target's answer to {@link #start}.
 */
public interface InitiatorPoint extends AutoCloseable {
    /** What the target needs from this side; empty when the transport is one-way (tcp, UCX). */
    Map<String, String> endpoint();

    /** Completes the connection with the target's reply to {@link #endpoint()} and builds the data path. */
    DataPath start(Map<String, String> targetReply) throws TransferException;

    /** Releases what {@link #start} did not take over. Idempotent. */
    @Override
    default void close() {}

    /** A one-phase point: nothing to publish, the data path is built on {@link #start}. */
    static InitiatorPoint direct(Starter starter) {
        return new InitiatorPoint() {
            @Override
            public Map<String, String> endpoint() {
                return Map.of();
            }

            @Override
            public DataPath start(Map<String, String> targetReply) throws TransferException {
                return starter.start();
            }
        };
    }

    @FunctionalInterface
    interface Starter {
        DataPath start() throws TransferException;
    }
}
