package dev.linkproof.engine.discovery;

/** A {@code @TransferTest} whose sweep cannot be expanded; reported as a discovery issue. */
public final class InvalidSweepException extends Exception {
    public InvalidSweepException(String message) {
        super(message);
    }
}
