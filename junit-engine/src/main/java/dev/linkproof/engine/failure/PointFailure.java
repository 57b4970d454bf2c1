package dev.linkproof.engine.failure;

import dev.linkproof.transfer.FailureKind;
import dev.linkproof.transfer.KindedFailure;
import org.opentest4j.AssertionFailedError;

/**
 * A point that ran and was judged to fail (its data, a criterion, its baseline, the profile's demands
 * on the host): JUnit reports it as a failed assertion. Its kind says which. Its trace is its first
 * line alone: the frames of the engine that judged it would tell a reader nothing.
 */
public final class PointFailure extends AssertionFailedError implements KindedFailure {
    private static final StackTraceElement[] NO_FRAMES = new StackTraceElement[0];
    private final FailureKind kind;

    public PointFailure(FailureKind kind, String message) {
        super(message);
        this.kind = kind;
        setStackTrace(NO_FRAMES);
    }

    @Override
    public FailureKind kind() {
        return kind;
    }

    /** "dev.linkproof.engine.failure.PointFailure [DATA_CORRUPTION]: …": the first line of its trace names its kind. */
    @Override
    public String toString() {
        return Failures.describe(this, kind);
    }
}
