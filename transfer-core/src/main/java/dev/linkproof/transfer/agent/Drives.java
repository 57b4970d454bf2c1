package dev.linkproof.transfer.agent;

import dev.linkproof.transfer.PeerFailureException;
import dev.linkproof.transfer.TransferException;
import dev.linkproof.transfer.control.Messages;
import dev.linkproof.transfer.control.ProtocolException;
import dev.linkproof.transfer.measure.LoopGate;
import dev.linkproof.transfer.measure.Measurement;
import dev.linkproof.transfer.session.Session;
import dev.linkproof.transfer.session.Timeouts;
import dev.linkproof.transfer.spi.IoSettings;
import dev.linkproof.transfer.spi.Transports;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.logging.Level;
import java.util.logging.Logger;

/**
 * The points one coordinator's session asked this agent to drive (DRIVE) as the initiator against
 * another agent, so that a point can run from the far side of a node pair (a both-ways rail's way
 * back) or between two nodes the coordinator is neither of (a fleet's pairs). Each drive has its own
 * thread and session to its target; a gated one waits before its timed loop (ARMED) until GO, to
 * start with the point's other rails. DRIVE_STATE replies come as soon as the state moves or within
 * {@link Messages.Drive#STATE_WAIT_MILLIS}, so no request waits out a point. When the session ends,
 * every drive still running is cancelled: an ARMED one fails, a running one loses its session.
 */
final class Drives {
    private static final Logger LOG = Logger.getLogger(Drives.class.getName());
    /** How many drives one session may have at once: a node's rails both ways, with room. */
    static final int MAX_DRIVES = 64;

    enum State {
        PROVISIONING,
        ARMED,
        RUNNING,
        DONE,
        FAILED
    }

    private final Map<String, Drive> drives = new LinkedHashMap<>();
    private final IoSettings io;
    /** The agent's transports, discovered once when it started: every drive's session runs on them. */
    private final Transports transports;

    Drives(IoSettings io, Transports transports) {
        this.io = io;
        this.transports = transports;
    }

    synchronized Messages.DriveState start(Messages.Drive request) throws ProtocolException, InterruptedException {
        if (drives.containsKey(request.driveId())) {
            throw new ProtocolException(
                    "duplicate-drive", "drive '" + request.driveId() + "' is already running", false);
        }
        if (drives.size() >= MAX_DRIVES) {
            throw new ProtocolException(
                    "too-many-drives",
                    "this session already has " + drives.size() + " drives; let one finish first",
                    false);
        }
        Drive d = new Drive(request, io, transports);
        drives.put(request.driveId(), d);
        d.thread = Thread.ofPlatform()
                .daemon()
                .name("linkproof-drive-" + request.driveId())
                .start(d::run);
        return reply(d, d.awaitChange(State.PROVISIONING));
    }

    Messages.DriveState go(Messages.Go go) throws ProtocolException, InterruptedException {
        Drive d = drive(go.driveId());
        d.open(go.cancel());
        return reply(d, d.awaitChange(State.ARMED));
    }

    Messages.DriveState poll(Messages.Poll poll) throws ProtocolException, InterruptedException {
        Drive d = drive(poll.driveId());
        State seen;
        try {
            seen = poll.seen() == null ? null : State.valueOf(poll.seen());
        } catch (IllegalArgumentException e) {
            throw new ProtocolException("bad-request", "no drive state '" + poll.seen() + "'", false);
        }
        return reply(d, d.awaitChange(seen));
    }

    private synchronized Drive drive(String id) throws ProtocolException {
        Drive d = drives.get(id);
        if (d == null) {
            throw new ProtocolException("unknown-drive", "no drive '" + id + "' is running", false);
        }
        return d;
    }

    /** The drive's state as a reply; a finished drive is forgotten once its end is told. */
    private Messages.DriveState reply(Drive d, State state) {
        if (state == State.DONE || state == State.FAILED) {
            synchronized (this) {
                drives.remove(d.request.driveId());
            }
        }
        return switch (state) {
            case DONE ->
                new Messages.DriveState(
                        d.request.driveId(),
                        state.name(),
                        Messages.DrivenMeasurement.of(d.measured, d.loopStartAfterGo),
                        null,
                        false);
            case FAILED -> new Messages.DriveState(d.request.driveId(), state.name(), null, d.failure, d.peerFailure);
            default -> new Messages.DriveState(d.request.driveId(), state.name(), null, null, false);
        };
    }

    /** Cancels every drive and waits (a bounded time) for their threads: the session that asked for them is gone. */
    void close() {
        java.util.List<Drive> all;
        synchronized (this) {
            all = java.util.List.copyOf(drives.values());
            drives.clear();
        }
        for (Drive d : all) {
            d.cancel();
        }
        for (Drive d : all) {
            try {
                d.thread.join(Duration.ofSeconds(5));
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return;
            }
            if (d.thread.isAlive()) {
                LOG.warning("drive " + d.request.driveId() + " still running 5 s after its session ended");
            }
        }
        if (!all.isEmpty()) {
            LOG.info(() -> "the session ended with " + all.size() + " drive(s): cancelled");
        }
    }

    /** One drive: its thread runs the point against the target; the session's thread reads its state. */
    private static final class Drive {
        final Messages.Drive request;
        final IoSettings io;
        final Transports transports;
        Thread thread;
        private State state = State.PROVISIONING;
        private boolean go;
        private boolean cancelled;
        private long goNanos;
        private volatile Session session;
        Measurement measured;
        long loopStartAfterGo;
        String failure;
        boolean peerFailure;

        Drive(Messages.Drive request, IoSettings io, Transports transports) {
            this.request = request;
            this.io = io;
            this.transports = transports;
        }

        void run() {
            Duration control = Duration.ofMillis(request.controlMillis());
            LoopGate gate = !request.gated()
                    ? LoopGate.NONE
                    : new LoopGate() {
                        @Override
                        public void beforeTimedLoop() throws TransferException {
                            awaitGo(control.multipliedBy(2));
                        }

                        @Override
                        public void timedLoop(long startNanos, long endNanos) {
                            loopStartAfterGo = Math.max(0, startNanos - goNanos);
                        }
                    };
            try (Session s = Session.open(
                    request.targetHost(),
                    request.targetPort(),
                    request.targetToken(),
                    new Timeouts(control, control, io),
                    transports)) {
                session = s;
                synchronized (this) {
                    if (cancelled) {
                        throw new TransferException("cancelled: the coordinator's session ended");
                    }
                }
                Measurement m = s.run(request.spec(), gate);
                synchronized (this) {
                    measured = m;
                    set(State.DONE);
                }
            } catch (TransferException | RuntimeException e) {
                LOG.log(Level.FINE, "drive " + request.driveId() + " failed", e);
                synchronized (this) {
                    failure = "the target " + request.targetHost() + ":" + request.targetPort()
                            + ", driven from this agent: " + e.getMessage();
                    peerFailure = e instanceof PeerFailureException;
                    set(State.FAILED);
                }
            }
        }

        private synchronized void awaitGo(Duration max) throws TransferException {
            set(State.ARMED);
            long deadline = System.nanoTime() + max.toNanos();
            while (!go && !cancelled) {
                long left = deadline - System.nanoTime();
                if (left <= 0) {
                    throw new TransferException(
                            "armed, and no GO came within " + max.toMillis() + " ms (twice the control deadline)");
                }
                try {
                    wait(Math.max(1, left / 1_000_000));
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    throw new TransferException("interrupted while armed");
                }
            }
            if (cancelled) {
                throw new TransferException(
                        "cancelled before its timed loop (the point's other rails did not all start)");
            }
            set(State.RUNNING);
        }

        synchronized void open(boolean cancel) {
            goNanos = System.nanoTime();
            if (cancel) {
                cancelled = true;
            } else {
                go = true;
            }
            notifyAll();
        }

        /** Cancels the drive: an armed one fails at its gate; a running one loses its session. */
        void cancel() {
            synchronized (this) {
                cancelled = true;
                notifyAll();
            }
            Session s = session;
            if (s != null && state() == State.RUNNING) {
                s.close();
            }
        }

        private synchronized State state() {
            return state;
        }

        private void set(State s) {
            state = s;
            notifyAll();
        }

        /** The state once it is no longer {@code seen}, or as it is after {@link Messages.Drive#STATE_WAIT_MILLIS}. */
        synchronized State awaitChange(State seen) throws InterruptedException {
            long deadline = System.nanoTime()
                    + Duration.ofMillis(Messages.Drive.STATE_WAIT_MILLIS).toNanos();
            while (state == seen) {
                long left = deadline - System.nanoTime();
                if (left <= 0) {
                    break;
                }
                wait(Math.max(1, left / 1_000_000));
            }
            return state;
        }
    }
}
