package dev.linkproof.transfer.session;

import dev.linkproof.transfer.Measurement;
import dev.linkproof.transfer.TransferException;
import dev.linkproof.transfer.TransferSession;
import dev.linkproof.transfer.TransferSpec;
import java.time.Duration;

/**
 * A point run for about a given time rather than a fixed count of iterations, as perftest's
 * {@code -D} and a burn-in soak do: the spec runs once as written, and when that took less than the
 * duration, once more with its iterations sized from the first run's pace to fill it. The second
 * run is the measurement (timed, validated, judged like any other); the first is only its pace.
 * Sizing from a run of the point itself, not a fixed probe, keeps the probe as short as the point
 * already was, however slow the path (Soft-RoCE under TCG moves a 1-byte write in half a millisecond).
 */
public final class TimedRun {
    /** The most iterations a point may have ({@link TransferSpec}'s limit). */
    static final int MAX_ITERATIONS = 1_000_000_000;

    private TimedRun() {
    }

    /**
     * Runs {@code spec} for about {@code duration} (at least its own iterations): returns the first
     * run when it already took that long or its data did not validate, else a run sized to fill it.
     */
    public static Measurement run(TransferSession session, TransferSpec spec, Duration duration) throws TransferException {
        Measurement first = session.run(spec);
        return first.totalNanos() >= duration.toNanos() || !first.isValid() ? first
                : session.run(sized(spec, first.totalNanos(), duration));
    }

    /** {@code spec} with as many iterations as fill {@code duration} at the pace of {@code nanos} for its own. */
    static TransferSpec sized(TransferSpec spec, long nanos, Duration duration) {
        double perIteration = Math.max(1.0, (double) nanos / spec.iterations());
        long wanted = (long) Math.ceil(duration.toNanos() / perIteration);
        int iterations = (int) Math.min(MAX_ITERATIONS, Math.max(spec.iterations(), wanted));
        return spec.withIterations(iterations, spec.warmup());
    }
}
