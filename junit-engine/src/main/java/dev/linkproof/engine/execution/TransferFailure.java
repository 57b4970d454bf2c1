package dev.linkproof.engine.execution;

/** A point that could not be carried out (peer died, request refused, deadline passed). */
public final class TransferFailure extends RuntimeException {
    public TransferFailure(String message, Throwable cause) {
        super(message, cause);
    }
}
