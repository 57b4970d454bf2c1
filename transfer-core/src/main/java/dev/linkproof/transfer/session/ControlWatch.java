package dev.linkproof.transfer.session;

import dev.linkproof.transfer.control.ControlChannel;
import dev.linkproof.transfer.spi.PeerLiveness;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.ScheduledThreadPoolExecutor;
import java.util.concurrent.TimeUnit;

/**
 * Watches the control connection while one point's data path runs: every {@link #INTERVAL_NANOS} it
 * asks {@link ControlChannel#peerGone()} and remembers the first answer that says the agent is gone.
 * A killed agent's kernel closes its socket, so this notices a dead target within tens of
 * milliseconds whatever the transport does; one-sided transports rely on it ({@link PeerLiveness}).
 * The first look comes one interval in, on a daemon thread every watch shares, so a point of a few
 * milliseconds starts no thread and its CONNECT and CHECKSUM never wait behind a look: a thread per
 * point, looking at once, cost points of 1..1000 B 0.3-0.5 ms each (1,000 points measured).
 */
final class ControlWatch implements PeerLiveness, AutoCloseable {
    /** Between two looks, and before the first; also bounds how long a dead target goes unnoticed. */
    static final long INTERVAL_NANOS = 50_000_000L;

    private static final ScheduledThreadPoolExecutor LOOKS = looks();

    private final ControlChannel control;
    private volatile ScheduledFuture<?> looking;
    private volatile String gone;

    private ControlWatch(ControlChannel control) {
        this.control = control;
    }

    private static ScheduledThreadPoolExecutor looks() {
        ScheduledThreadPoolExecutor e = new ScheduledThreadPoolExecutor(
                1, Thread.ofPlatform().daemon().name("linkproof-control-watch").factory());
        // A closed watch leaves the queue at once, not when its next look was due.
        e.setRemoveOnCancelPolicy(true);
        return e;
    }

    static ControlWatch start(ControlChannel control) {
        ControlWatch w = new ControlWatch(control);
        w.looking = LOOKS.scheduleWithFixedDelay(w::look, INTERVAL_NANOS, INTERVAL_NANOS, TimeUnit.NANOSECONDS);
        return w;
    }

    private void look() {
        if (gone != null) {
            return;
        }
        String why = control.peerGone();
        if (why != null) {
            gone = why;
            ScheduledFuture<?> f = looking;
            if (f != null) {
                f.cancel(false);
            }
        }
    }

    @Override
    public String goneBecause() {
        return gone;
    }

    /** Why the agent is gone, waiting up to {@code nanos} for the looks to find it; null when they did not. */
    String goneWithin(long nanos) throws InterruptedException {
        long end = System.nanoTime() + nanos;
        while (gone == null && System.nanoTime() < end) {
            Thread.sleep(5);
        }
        return gone;
    }

    /** Stops watching: a look under way ends within its millisecond, and none follows. */
    @Override
    public void close() {
        looking.cancel(false);
    }
}
