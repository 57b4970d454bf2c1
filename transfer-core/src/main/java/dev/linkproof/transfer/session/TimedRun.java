package dev.linkproof.transfer.session;

import dev.linkproof.transfer.TransferException;
import dev.linkproof.transfer.TransferSpec;
import dev.linkproof.transfer.measure.Measurement;
import java.time.Duration;

/**
 * A point run for about a given time rather than a count of iterations, as perftest's {@code -D} and
 * a burn-in soak do. The spec runs once as written, and once more sized to a tenth of the duration if
 * that took under a twentieth (a few milliseconds is a poor measure of a minute's pace: cold caches,
 * a JIT still compiling); then, unless it filled the duration, once sized from that pace, and again
 * from its own pace if it took under half. The last run is the measurement; the others give its
 * pace. Sizing from the point itself keeps the probes as short as the point already was, however
 * slow the path (Soft-RoCE under TCG moves a 1-byte write in half a millisecond).
 */
public final class TimedRun {
    /** The most iterations a point may have ({@link TransferSpec}'s limit). */
    static final int MAX_ITERATIONS = 1_000_000_000;

    private TimedRun() {}

    /**
     * Runs {@code spec} for about {@code duration} (at least its own iterations): returns a run that
     * already took that long or whose data did not validate, else the run sized to fill it.
     */
    public static Measurement run(TransferSession session, TransferSpec spec, Duration duration)
            throws TransferException {
        return run(session::run, spec, duration);
    }

    /** What runs a point once: one session's {@code run}, or the rails of a point run at once ({@link Rails}). */
    @FunctionalInterface
    public interface Runner {
        Measurement run(TransferSpec spec) throws TransferException;
    }

    /**
     * As {@link #run(TransferSession, TransferSpec, Duration)}, each run made by {@code runner}: for a
     * point of several rails, all of them at once, paced by their aggregate's window (every rail runs
     * the spec's iterations, so the window over the iterations is the pace of them all).
     */
    public static Measurement run(Runner runner, TransferSpec spec, Duration duration) throws TransferException {
        long want = duration.toNanos();
        Measurement last = runner.run(spec);
        if (last.isValid() && last.totalNanos() < want / 20) {
            last = runner.run(sized(spec, pace(last), duration.dividedBy(10)));
        }
        if (last.totalNanos() >= want || !last.isValid()) {
            return last;
        }
        Measurement sized = runner.run(sized(spec, pace(last), duration));
        // The probes ran cold (a JIT compiling, caches filling) or on a busier host: the sized run was
        // far quicker than their pace said. Once more, sized from its own pace, so the point runs for
        // about the time asked rather than a fraction of it.
        return sized.isValid() && sized.totalNanos() < want / 2
                ? runner.run(sized(spec, pace(sized), duration))
                : sized;
    }

    /** Nanoseconds per iteration of {@code m}'s run. */
    private static double pace(Measurement m) {
        return (double) m.totalNanos() / m.spec().iterations();
    }

    /** {@code spec} with as many iterations as fill {@code duration} at {@code nanosPerIteration}; never fewer than its own. */
    static TransferSpec sized(TransferSpec spec, double nanosPerIteration, Duration duration) {
        long wanted = (long) Math.ceil(duration.toNanos() / Math.max(1.0, nanosPerIteration));
        int iterations = (int) Math.min(MAX_ITERATIONS, Math.max(spec.iterations(), wanted));
        return spec.withIterations(iterations, spec.warmup());
    }
}
