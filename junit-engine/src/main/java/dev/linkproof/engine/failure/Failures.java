package dev.linkproof.engine.failure;

import dev.linkproof.transfer.FailureKind;
import dev.linkproof.transfer.KindedFailure;
import java.util.List;

/** The kind of whatever ended a point: the kind its failure carries, else what its type says. */
public final class Failures {
    private Failures() {}

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
            case FAILED ->
                java.util.Optional.of(
                        result.getThrowable().map(Failures::kindOf).orElse(FailureKind.ERROR));
        };
    }

    /**
     * The engine's internal rooms and its engine class: from their first frame down a trace shows
     * only how JUnit called the engine. Not {@code engine.api}: its assertions run inside a test
     * method, whose frames are the reader's.
     */
    private static final List<String> ENGINE_INTERNALS = List.of(
            "dev.linkproof.engine.LinkproofTestEngine",
            "dev.linkproof.engine.config.",
            "dev.linkproof.engine.failure.",
            "dev.linkproof.engine.judging.",
            "dev.linkproof.engine.reporting.",
            "dev.linkproof.engine.run.",
            "dev.linkproof.engine.descriptor.",
            "dev.linkproof.engine.discovery.");

    /** Whether {@code frame} is the engine's own, not a transfer's or a test method's. */
    public static boolean isEngineFrame(StackTraceElement frame) {
        String c = frame.getClassName();
        return ENGINE_INTERNALS.stream().anyMatch(c::startsWith);
    }

    /**
     * {@code cause} and each throwable in its cause chain (and their suppressed ones) cut at their
     * first {@linkplain #isEngineFrame frame of the engine}: a transfer's failure keeps its frames in
     * transfer-core (a test method's, in the method) and loses the engine's and JUnit's below them.
     * Returns {@code cause}; null stays null.
     */
    public static Throwable withoutEngineFrames(Throwable cause) {
        java.util.Set<Throwable> seen = java.util.Collections.newSetFromMap(new java.util.IdentityHashMap<>());
        java.util.ArrayDeque<Throwable> todo = new java.util.ArrayDeque<>();
        if (cause != null) {
            todo.add(cause);
        }
        while (!todo.isEmpty()) {
            Throwable t = todo.poll();
            if (!seen.add(t)) {
                continue;
            }
            StackTraceElement[] frames = t.getStackTrace();
            for (int i = 0; i < frames.length; i++) {
                if (isEngineFrame(frames[i])) {
                    t.setStackTrace(java.util.Arrays.copyOf(frames, i));
                    break;
                }
            }
            if (t.getCause() != null) {
                todo.add(t.getCause());
            }
            todo.addAll(List.of(t.getSuppressed()));
        }
        return cause;
    }

    /** A failure's first trace line: its class, its kind's tag, its message. */
    static String describe(Throwable t, FailureKind kind) {
        String message = t.getLocalizedMessage();
        return t.getClass().getName() + " " + kind.traceTag() + (message == null ? "" : ": " + message);
    }
}
