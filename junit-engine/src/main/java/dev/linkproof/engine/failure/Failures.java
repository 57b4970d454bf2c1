package dev.linkproof.engine.failure;

import dev.linkproof.transfer.FailureKind;
import dev.linkproof.transfer.KindedFailure;

/** The kind of whatever ended a point: the kind its failure carries, else what its type says. */
public final class Failures {
    private Failures() {
    }

    /**
     * A {@link KindedFailure}'s own kind; any other {@link AssertionError} is the test method's own
     * assertion, anything else an {@link FailureKind#ERROR}.
     */
    public static FailureKind kindOf(Throwable t) {
        if (t instanceof KindedFailure k) {
            return k.kind();
        }
        return t instanceof AssertionError ? FailureKind.TEST_ASSERTION : FailureKind.ERROR;
    }

    /**
     * The kind of a point's outcome: none when it passed, {@link FailureKind#UNAVAILABLE} when it was
     * skipped (aborted), else its failure's.
     */
    public static java.util.Optional<FailureKind> kindOf(org.junit.platform.engine.TestExecutionResult result) {
        return switch (result.getStatus()) {
            case SUCCESSFUL -> java.util.Optional.empty();
            case ABORTED -> java.util.Optional.of(FailureKind.UNAVAILABLE);
            case FAILED -> java.util.Optional.of(result.getThrowable().map(Failures::kindOf).orElse(FailureKind.ERROR));
        };
    }

    /** A failure's first trace line: its class, its kind's tag, its message. */
    static String describe(Throwable t, FailureKind kind) {
        String message = t.getLocalizedMessage();
        return t.getClass().getName() + " " + kind.traceTag() + (message == null ? "" : ": " + message);
    }
}
