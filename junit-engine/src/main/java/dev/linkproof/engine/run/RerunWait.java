package dev.linkproof.engine.run;

import dev.linkproof.transfer.measure.HostContention;
import dev.linkproof.transfer.measure.HostCpuMeter;
import java.time.Duration;
import java.util.Optional;

/**
 * Before a busy-host rerun: a burst of someone else's work (a compiler, a test fork) is often over
 * within a second or two, and a rerun straight into it would only measure it again. So wait, in
 * short windows, until other processes leave a host room for what the failed attempt used there,
 * or give up.
 */
public final class RerunWait {
    /** How long a rerun waits at most (for both hosts together), and the window each look takes. */
    public static final Duration LIMIT = Duration.ofSeconds(3);

    public static final Duration WINDOW = Duration.ofMillis(250);

    private RerunWait() {}

    /** One look at a host's load over a window: this host's /proc, or the target's agent (LOAD). */
    @FunctionalInterface
    public interface Look {
        Optional<HostContention> over(Duration window) throws Exception;
    }

    /** A look at this host. */
    public static final Look THIS_HOST = HostCpuMeter::over;

    /**
     * Looks until the host has room for work of ours that needs {@code ownCpus}
     * ({@link HostContention#busyFor}) or {@code limit} has passed (checked after each window, so up
     * to one window more); returns the last look, empty when the host cannot be measured.
     */
    public static Optional<HostContention> forRoom(Look look, double ownCpus, Duration limit, Duration window)
            throws Exception {
        long deadline = System.nanoTime() + limit.toNanos();
        Optional<HostContention> last;
        do {
            last = look.over(window);
        } while (last.map(h -> h.busyFor(ownCpus)).orElse(false) && System.nanoTime() < deadline);
        return last;
    }
}
