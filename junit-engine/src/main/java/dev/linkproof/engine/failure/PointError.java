package dev.linkproof.engine.failure;

import dev.linkproof.transfer.FailureKind;
import dev.linkproof.transfer.KindedFailure;

/**
 * A point that could not be carried out (the peer died, a request was refused, a deadline passed):
 * JUnit reports it as an error, "broken" in the results file and Allure. Its kind says which
 * ({@link FailureKind#PEER_FAILURE}, {@link FailureKind#TRANSFER_ERROR}).
 *
 * <p>Its trace is its first line and its cause's: it has no frames of its own (where the engine
 * noticed is no news to a reader), and its causes lose the engine's frames below theirs
 * ({@link Failures#withoutEngineFrames}), so Surefire shows what failed and where in the transfer.
 */
public final class PointError extends RuntimeException implements KindedFailure {
    private final FailureKind kind;

    public PointError(FailureKind kind, String message, Throwable cause) {
        super(message, Failures.withoutEngineFrames(cause), true, false);
        this.kind = kind;
    }

    @Override
    public FailureKind kind() {
        return kind;
    }

    /** "dev.linkproof.engine.failure.PointError [PEER_FAILURE]: …": the first line of its trace names its kind. */
    @Override
    public String toString() {
        return Failures.describe(this, kind);
    }
}
