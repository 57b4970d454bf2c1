package dev.linkproof.engine.run;

import dev.linkproof.engine.api.SweepPoint;
import dev.linkproof.engine.failure.PointError;
import dev.linkproof.engine.failure.PointFailure;
import dev.linkproof.engine.judging.Attempt;
import dev.linkproof.engine.judging.HostLoads;
import dev.linkproof.engine.judging.Judgement;
import dev.linkproof.engine.judging.RerunKind;
import dev.linkproof.transfer.Availability;
import dev.linkproof.transfer.FailureKind;
import dev.linkproof.transfer.PeerFailureException;
import dev.linkproof.transfer.TransferException;
import dev.linkproof.transfer.TransferSpec;
import dev.linkproof.transfer.control.Messages;
import dev.linkproof.transfer.control.RemoteErrorException;
import dev.linkproof.transfer.measure.HostContention;
import dev.linkproof.transfer.measure.HostCpuMeter;
import dev.linkproof.transfer.measure.Measurement;
import dev.linkproof.transfer.session.Rails;
import dev.linkproof.transfer.session.TimedRun;
import dev.linkproof.transfer.session.TransferSession;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import org.opentest4j.TestAbortedException;

/**
 * One point's run on its pair of ranks, as {@link Admission} admitted it: the session, what the profile
 * requires of the target, the measured attempts and their reruns (on a busy host, or short of the
 * baseline), and the failures, each of its kind. It asks the judge for verdicts and decides none itself.
 */
public final class PointRun {
    private final LinkproofExecutionContext context;
    private final SweepPoint point;
    private final String uniqueId;
    private final String sweepId;
    private final Admission admission;
    private Measurement measurement;
    private Judgement judgement;

    /** @param admission what {@link Admission#decide} said of the point before it started; a skip never gets here */
    public PointRun(
            LinkproofExecutionContext context, SweepPoint point, String uniqueId, String sweepId, Admission admission) {
        this.context = context;
        this.point = point;
        this.uniqueId = uniqueId;
        this.sweepId = sweepId;
        this.admission = admission;
    }

    /** The last attempt's figures; null when none was measured. */
    public Measurement measurement() {
        return measurement;
    }

    /** What the judge said of the last attempt; null when none was measured. */
    public Judgement judgement() {
        return judgement;
    }

    /**
     * Whether the target agent shares this JVM's kernel: a local pair, or {@code linkproof.peer} on this
     * host (same boot id). Its CPU time is then ours, and one-host transports work.
     */
    /**
     * What a point the target cannot serve ends as: its failure, of its kind, is thrown here; a skip
     * is returned for the caller to throw (as an abort, with the reason).
     */
    private RuntimeException stopped(Admission decision) {
        return switch (decision) {
            case Admission.Fail f -> throw new PointFailure(f.kind(), point.displayName() + ": " + f.reason());
            case Admission.Skip k -> new TestAbortedException(k.reason());
            case Admission.Run r ->
                new IllegalStateException(point.displayName() + ": the target cannot serve it, yet admitted");
        };
    }

    private boolean sameKernel(Messages.Welcome agent) {
        return context.config().peer().isEmpty()
                || HostCpuMeter.kernelBootId()
                        .filter(id -> id.equals(agent.bootId()))
                        .isPresent();
    }

    /**
     * Runs the point as admitted (a failure decided before the start is thrown here, of its kind):
     * provisions, checks what the profile requires of the target, measures (again while a rerun is
     * due), and reports the last attempt to the judge's sweep and the reporter.
     * Returns the session, for the test method; throws the point's failure, of its kind.
     */
    public TransferSession run() throws Exception {
        RailPlan.Plan rails = switch (admission) {
            case Admission.Fail f -> throw new PointFailure(f.kind(), point.displayName() + ": " + f.reason());
            case Admission.Skip k ->
                throw new IllegalStateException(point.displayName() + " was to be skipped: " + k.reason());
            case Admission.Run r -> r.rails().orElse(null);
        };
        TransferSession session;
        try {
            session = rails == null ? context.sessions().acquire() : railSession(rails);
        } catch (TransferException e) {
            throw new PointError(
                    FailureKind.PEER_FAILURE,
                    point.displayName() + ": no target rank: " + e.getMessage()
                            + context.config().deadlineNote(e),
                    e);
        }
        TransferSpec spec = context.profile().placement().apply(point.spec());
        Availability there = session.supports(spec);
        if (!there.available()) {
            throw stopped(
                    Admission.onTarget(context, point, session.agent(), sameKernel(session.agent()), there.reason()));
        }
        measure(session, spec);
        context.judge().accept(sweepId, measurement);
        context.reporter().accept(measurement, judgement);
        return session;
    }

    /**
     * The rails as one session: a session to the target agent per rail, each rail's settings its own
     * (device, addresses), all starting together; the start barrier waits the control deadline. A rail
     * back runs over its own session to the target's agent, which drives it toward this host's agent.
     */
    private TransferSession railSession(RailPlan.Plan rails) throws TransferException {
        List<TransferSession> sessions =
                context.sessions().acquireRails(rails.spots().size());
        List<Rails.Lane> lanes = new ArrayList<>();
        for (int i = 0; i < sessions.size(); i++) {
            RailPlan.Spot spot = rails.spots().get(i);
            TransferSession lane = sessions.get(i);
            // The way back: the target's agent drives the rail toward this host's agent.
            Optional<Rails.Home> back =
                    spot.back() ? Optional.of(context.sessions().home(lane)) : Optional.empty();
            lanes.add(Rails.lane(
                    spot.label(),
                    lane,
                    spot.settings(),
                    spot.memory(),
                    back,
                    context.config().timeouts()));
        }
        if (!rails.notes().isEmpty()) {
            context.reporter().railNotes(rails.notes());
        }
        return Rails.asSession(lanes, context.config().timeouts().control());
    }

    /**
     * Runs the point, and again while it falls short on a busy host or of its baseline and reruns are
     * left ({@link Judgement#rerunFor}); leaves the last attempt in {@link #measurement} and its
     * verdict in {@link #judgement}.
     */
    private void measure(TransferSession session, TransferSpec spec) throws Exception {
        List<Attempt> earlier = new ArrayList<>();
        // An agent on this kernel (a local pair, or linkproof.peer on this host) shares our CPUs: its
        // time is ours, and its own figure would count this JVM as "other".
        Messages.Welcome agent = session.agent();
        boolean sameKernel = sameKernel(agent);
        Set<Long> agentPid = sameKernel ? Set.of(agent.pid()) : Set.of();
        while (true) {
            // A rerun that breaks must not leave the last attempt's figures as the point's own.
            measurement = null;
            judgement = null;
            HostCpuMeter.Window window = HostCpuMeter.start(agentPid);
            Measurement attempt;
            try {
                attempt = attempt(session, spec);
            } catch (PointError e) {
                if (earlier.isEmpty()) {
                    throw e;
                }
                Attempt last = earlier.getLast();
                throw new PointError(
                        e.kind(),
                        e.getMessage() + " [attempt " + (earlier.size() + 1) + ": a rerun; attempt " + earlier.size()
                                + " " + last.reason() + " (" + last.describe() + ")]",
                        e);
            }
            measurement = attempt;
            HostLoads hosts = HostLoads.of(window.stop(), measurement, !sameKernel);
            judgement = context.judge().judge(uniqueId, point, measurement, hosts, earlier);
            Optional<RerunKind> rerun = judgement.rerunFor(
                    context.config().busyHostReruns(), context.config().baselineReruns());
            if (rerun.isEmpty()) {
                break;
            }
            earlier.add(new Attempt(measurement, hosts, judgement.failure().orElseThrow(), rerun.get()));
            if (hosts.busy()) {
                waitForRoom(session, hosts);
            } else {
                // A regression on a quiet host: nothing to wait for; the rerun tells a regression from a blip.
                context.progress()
                        .rerunToConfirm(point, measurement, judgement.failure().get());
            }
        }
    }

    /**
     * Waits for each busy host in turn (this one through /proc, a remote target through its agent)
     * to leave room for what the attempt used there, within {@link RerunWait#LIMIT} together.
     */
    private void waitForRoom(TransferSession session, HostLoads hosts) throws Exception {
        long start = System.nanoTime();
        Optional<HostContention> initiator = Optional.empty();
        Optional<HostContention> target = Optional.empty();
        boolean stillBusy = false;
        Optional<HostContention> here = hosts.initiator().filter(HostContention::busy);
        if (here.isPresent()) {
            initiator = RerunWait.forRoom(RerunWait.THIS_HOST, here.get().ownCpus(), RerunWait.LIMIT, RerunWait.WINDOW);
            stillBusy = initiator.map(h -> h.busyFor(here.get().ownCpus())).orElse(false);
        }
        Optional<HostContention> there = hosts.target().filter(HostContention::busy);
        Duration left = RerunWait.LIMIT.minusNanos(System.nanoTime() - start);
        if (there.isPresent() && !left.isNegative()) {
            try {
                target = RerunWait.forRoom(session::targetLoad, there.get().ownCpus(), left, RerunWait.WINDOW);
            } catch (TransferException e) {
                // The agent broke off while asked about its host: the point fails as a peer failure would,
                // with what the attempt before measured.
                if (e instanceof PeerFailureException) {
                    context.sessions().invalidate();
                }
                throw new PointError(
                        FailureKind.PEER_FAILURE,
                        point.displayName() + ": the target agent did not say how busy "
                                + "its host is, before a rerun: " + e.getMessage()
                                + context.config().deadlineNote(e)
                                + " [the attempt before: " + measurement.summary() + ", " + hosts.describe() + "]",
                        e);
            }
            stillBusy |= target.map(h -> h.busyFor(there.get().ownCpus())).orElse(false);
        }
        context.progress()
                .rerun(
                        point,
                        measurement,
                        hosts,
                        Duration.ofNanos(System.nanoTime() - start),
                        new HostLoads(initiator, target),
                        stillBusy);
    }

    private Measurement attempt(TransferSession session, TransferSpec spec) {
        try {
            var duration = context.config().duration();
            return duration.isPresent() ? TimedRun.run(session, spec, duration.get()) : session.run(spec);
        } catch (PeerFailureException e) {
            context.sessions().invalidate();
            throw new PointError(
                    e.kind(),
                    point.displayName() + ": peer failure: " + e.getMessage()
                            + context.config().deadlineNote(e),
                    e);
        } catch (RemoteErrorException e) {
            if (e.deviceLacksCapability()) {
                // The target's device lacks what the point needs (a verbs device without atomics where this
                // host's has them; the agent's code says so, not its words): as on this host, a failure of its
                // kind under a profile that requires the transport, else a skip with the reason.
                throw stopped(Admission.targetIncapable(
                        context, point, session.agent().host(), e.getMessage()));
            }
            throw new PointError(
                    e.kind(),
                    point.displayName() + ": " + e.getMessage()
                            + context.config().deadlineNote(e),
                    e);
        } catch (TransferException e) {
            throw new PointError(
                    e.kind(),
                    point.displayName() + ": " + e.getMessage()
                            + context.config().deadlineNote(e),
                    e);
        }
    }
}
