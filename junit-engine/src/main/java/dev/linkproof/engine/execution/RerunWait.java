package dev.linkproof.engine.execution;

import dev.linkproof.transfer.measure.HostContention;
import dev.linkproof.transfer.measure.HostCpuMeter;
import java.time.Duration;
import java.util.Optional;

/**
 * Before a busy-host rerun: a burst of someone else's work (a compiler, a test fork) is often over
 * within a second or two, and a rerun straight into it would only measure it again. So wait, in
 * short windows, until other processes leave room for what the failed attempt used, or give up.
 */
public final class RerunWait {
    /** How long a rerun waits at most, and the window it judges the host by. */
    public static final Duration LIMIT = Duration.ofSeconds(3);
    public static final Duration WINDOW = Duration.ofMillis(250);

    private RerunWait() {
    }

    /**
     * Waits until this host has room for work of ours that needs {@code ownCpus}
     * ({@link HostContention#busyFor}) or {@code limit} has passed (checked after each window, so up
     * to one window more); returns the last window's figure, empty without {@code /proc}.
     */
    public static Optional<HostContention> forRoom(double ownCpus, Duration limit, Duration window) throws InterruptedException {
        long deadline = System.nanoTime() + limit.toNanos();
        Optional<HostContention> last;
        do {
            HostCpuMeter.Window w = HostCpuMeter.start();
            Thread.sleep(window);
            last = w.stop();
        } while (last.map(h -> h.busyFor(ownCpus)).orElse(false) && System.nanoTime() < deadline);
        return last;
    }
}
