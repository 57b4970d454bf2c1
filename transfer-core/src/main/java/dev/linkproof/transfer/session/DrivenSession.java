package dev.linkproof.transfer.session;

import dev.linkproof.transfer.Availability;
import dev.linkproof.transfer.PeerFailureException;
import dev.linkproof.transfer.TransferException;
import dev.linkproof.transfer.TransferSpec;
import dev.linkproof.transfer.control.ControlChannel;
import dev.linkproof.transfer.control.MessageType;
import dev.linkproof.transfer.control.Messages;
import dev.linkproof.transfer.measure.HostContention;
import dev.linkproof.transfer.measure.LoopGate;
import dev.linkproof.transfer.measure.Measurement;
import java.time.Duration;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Points run by another agent as their initiator, at this coordinator's request: {@code via} is
 * this side's session with the driving agent, the target is a third agent (or one on this host: the
 * way back of a both-ways rail). The driving agent gets the spec from here, so both ranks still get
 * their parameters from one source; it validates on both ranks as this side's sessions do, and sends
 * back its measurement. Gated, the drive stops before its timed loop until the gate here opens, and
 * its loop's window is placed on this side's clock from when GO was sent (plus how long after GO the
 * loop started, as the driver measured): the one-way latency of GO, microseconds, is its error.
 */
public final class DrivenSession implements TransferSession {
    private static final AtomicLong DRIVES = new AtomicLong();

    private final TransferSession via;
    private final String targetHost;
    private final int targetPort;
    private final String targetToken;
    private final Timeouts timeouts;

    /**
     * @param via    this side's session with the agent that is to drive (its control connection is
     *               used for the drive; nothing else may use it meanwhile)
     * @param target where the driving agent finds the point's target agent (host, port, token)
     */
    public DrivenSession(
            TransferSession via, String targetHost, int targetPort, String targetToken, Timeouts timeouts) {
        this.via = via;
        this.targetHost = targetHost;
        this.targetPort = targetPort;
        this.targetToken = targetToken;
        this.timeouts = timeouts;
    }

    @Override
    public Measurement run(TransferSpec spec, LoopGate gate) throws TransferException {
        ControlChannel control = via.control();
        String id = spec.pointId() + "#drive" + DRIVES.incrementAndGet();
        boolean gated = gate != LoopGate.NONE;
        Messages.DriveState state = control.call(
                MessageType.DRIVE,
                new Messages.Drive(
                        id,
                        spec,
                        targetHost,
                        targetPort,
                        targetToken,
                        gated,
                        timeouts.control().toMillis()),
                MessageType.DRIVE_STATE,
                Messages.DriveState.class,
                timeouts.control());
        state = pollWhile(control, state, "PROVISIONING");
        long goAt = 0;
        if (state.state().equals("ARMED")) {
            try {
                gate.beforeTimedLoop();
            } catch (TransferException e) {
                // The other rails did not all start: the driver is told, and frees the point at its target.
                Messages.DriveState cancelled = control.call(
                        MessageType.GO,
                        new Messages.Go(id, true),
                        MessageType.DRIVE_STATE,
                        Messages.DriveState.class,
                        timeouts.control());
                pollWhile(control, cancelled, cancelled.state());
                throw e;
            }
            goAt = System.nanoTime();
            state = control.call(
                    MessageType.GO,
                    new Messages.Go(id, false),
                    MessageType.DRIVE_STATE,
                    Messages.DriveState.class,
                    timeouts.control());
        }
        while (!state.state().equals("DONE") && !state.state().equals("FAILED")) {
            state = poll(control, id, state.state());
        }
        if (state.state().equals("FAILED")) {
            String why = "driven by the agent at " + control.peer() + ": " + state.failure();
            throw state.peerFailure() ? new PeerFailureException(why) : new TransferException(why);
        }
        Messages.DrivenMeasurement driven = state.measurement();
        if (driven == null) {
            throw new TransferException(
                    "the agent at " + control.peer() + " reported drive " + id + " done without its measurement");
        }
        Measurement m = driven.measurement();
        if (gated) {
            long start = goAt + driven.loopStartAfterGoNanos();
            gate.timedLoop(start, start + m.totalNanos());
        }
        return m;
    }

    /** Polls while the drive is in {@code state}; each poll answers within a second, each has the control deadline. */
    private Messages.DriveState pollWhile(ControlChannel control, Messages.DriveState state, String while_)
            throws TransferException {
        while (state.state().equals(while_)) {
            state = poll(control, state.driveId(), state.state());
        }
        return state;
    }

    private Messages.DriveState poll(ControlChannel control, String id, String seen) throws TransferException {
        return control.call(
                MessageType.POLL,
                new Messages.Poll(id, seen),
                MessageType.DRIVE_STATE,
                Messages.DriveState.class,
                timeouts.control());
    }

    /** As the session with the driving agent sees it: the same hosts, the other way round. */
    @Override
    public Availability supports(TransferSpec spec) {
        return via.supports(spec);
    }

    @Override
    public Messages.Welcome agent() {
        return via.agent();
    }

    @Override
    public Optional<HostContention> targetLoad(Duration window) throws TransferException {
        return via.targetLoad(window);
    }

    @Override
    public boolean usable() {
        return via.usable();
    }

    @Override
    public ControlChannel control() {
        return via.control();
    }

    /** The session with the driver belongs to whoever opened it. */
    @Override
    public void close() {}
}
