package dev.linkproof.transfer;

/** A failure that knows its {@link FailureKind}: whoever throws it decided the kind, no reader guesses it from the message. */
public interface KindedFailure {
    FailureKind kind();
}
