package dev.linkproof.transfer.session;

import dev.linkproof.transfer.control.ControlChannel;
import dev.linkproof.transfer.spi.PeerLiveness;
import java.util.concurrent.locks.LockSupport;

/**
 * Watches the control connection while one point's data path runs, when the connection is otherwise
 * idle: a platform thread asks {@link ControlChannel#peerGone()} every {@link #INTERVAL_NANOS} and
 * remembers the first answer that says the agent is gone. A killed agent's socket is closed by its
 * kernel, so this notices a dead target within tens of milliseconds whatever the transport does;
 * one-sided transports rely on it (see {@link PeerLiveness}).
 */
final class ControlWatch implements PeerLiveness, AutoCloseable {
    /** Between two looks; also bounds how long a dead target goes unnoticed. */
    static final long INTERVAL_NANOS = 50_000_000L;

    private final ControlChannel control;
    private final Thread thread;
    private volatile String gone;
    private volatile boolean stopped;

    private ControlWatch(ControlChannel control) {
        this.control = control;
        this.thread = Thread.ofPlatform().daemon().name("linkproof-control-watch").unstarted(this::watch);
    }

    static ControlWatch start(ControlChannel control) {
        ControlWatch w = new ControlWatch(control);
        w.thread.start();
        return w;
    }

    private void watch() {
        while (!stopped) {
            String why = control.peerGone();
            if (why != null) {
                gone = why;
                return;
            }
            LockSupport.parkNanos(INTERVAL_NANOS);
        }
    }

    @Override
    public String goneBecause() {
        return gone;
    }

    /** Stops watching; the thread ends within one interval and never touches the channel again. */
    @Override
    public void close() {
        stopped = true;
        LockSupport.unpark(thread);
    }
}
