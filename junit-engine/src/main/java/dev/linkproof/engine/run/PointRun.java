package dev.linkproof.engine.run;

import dev.linkproof.engine.api.SweepPoint;
import dev.linkproof.engine.failure.PointError;
import dev.linkproof.engine.failure.PointFailure;
import dev.linkproof.engine.judging.Attempt;
import dev.linkproof.engine.judging.HostLoads;
import dev.linkproof.engine.judging.Judgement;
import dev.linkproof.engine.judging.RerunKind;
import dev.linkproof.engine.judging.RunProfile;
import dev.linkproof.transfer.FailureKind;
import dev.linkproof.transfer.measure.Measurement;
import dev.linkproof.transfer.PeerFailureException;
import dev.linkproof.transfer.TransferException;
import dev.linkproof.transfer.session.TransferSession;
import dev.linkproof.transfer.TransferSpec;
import dev.linkproof.transfer.control.Messages;
import dev.linkproof.transfer.control.RemoteErrorException;
import dev.linkproof.transfer.measure.HostContention;
import dev.linkproof.transfer.measure.HostCpuMeter;
import dev.linkproof.transfer.session.Rails;
import dev.linkproof.transfer.session.TimedRun;
import dev.linkproof.transfer.Availability;
import dev.linkproof.transfer.spi.Transport;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import org.opentest4j.TestAbortedException;

/**
 * One point's run on its pair of ranks: what skips it, what the profile requires of both ranks, the
 * session, the measured attempts and their reruns (on a busy host, or short of the baseline), and
 * the failures, each of its kind. It asks the judge for verdicts and decides none itself.
 */
public final class PointRun {
    private final LinkproofExecutionContext context;
    private final SweepPoint point;
    private final String uniqueId;
    private final String sweepId;
    private Measurement measurement;
    private Judgement judgement;

    public PointRun(LinkproofExecutionContext context, SweepPoint point, String uniqueId, String sweepId) {
        this.context = context;
        this.point = point;
        this.uniqueId = uniqueId;
        this.sweepId = sweepId;
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
     * Why a point is skipped before it starts, if it is. In this order: memory the profile does not
     * provide (GPUs, huge pages) skips, required or not; a required transport this host lacks (no
     * library, device or provider, or no device the profile resolves) fails in {@link #run}; so does a
     * point whose device lacks a capability it needs under a profile that requires its transport (a
     * verbs device without atomics: {@link Availability.Kind#DEVICE_LACKS_CAPABILITY}); otherwise what
     * the transport cannot do for this point (an op, a memory kind, a device's capability), and an RDMA
     * device the profile resolves none of when not required, skip; a point on a NIC of the profile's
     * kind that is not fit for it (a port down) fails.
     */
    public static Optional<String> skipReason(LinkproofExecutionContext context, SweepPoint point) {
        RunProfile profile = context.profile();
        Optional<String> notProvided = profile.notProvided(point.spec());
        if (notProvided.isPresent()) {
            return notProvided;
        }
        if (unmetRequirementHere(context, point).isPresent()) {
            return Optional.empty();
        }
        TransferSpec placed = profile.placeGpus(point.spec());
        Availability local = context.localSupport(placed);
        if (!local.available()) {
            // A device that lacks what the point needs, where the profile requires its transport: run fails it.
            return unmetCapability(context, point, local).isPresent() ? Optional.empty()
                    : Optional.of(context.named(placed, local).reason());
        }
        if (profile.unfitNic(point.spec()).isPresent()) {
            return Optional.empty(); // a broken NIC of the profile's kind fails in run
        }
        if (point.hasRails()) {
            // Short of rails: a skip, unless the profile requires the transport (then run fails it).
            RailPlan.Plan plan = rails(context, point);
            Optional<String> shortfall = plan.shortfall();
            if (shortfall.isPresent()) {
                return profile.requiredButUnavailable(point.spec().transport(), "this host", shortfall.get()).isPresent()
                        ? Optional.empty() : shortfall;
            }
            // A rail of its own GPUs: what the transport says of each (a GPU the runtime cannot use), named.
            for (int i = 0; i < plan.spots().size(); i++) {
                RailPlan.Spot spot = plan.spots().get(i);
                if (spot.memory().isPresent()) {
                    Availability rail = context.localAvailability(spot.placed(profile.placeGpus(point.spec())));
                    if (!rail.available()) {
                        return Optional.of("rail " + i + " (" + spot.label() + "): " + rail.reason());
                    }
                }
            }
            return Optional.empty();
        }
        return profile.noDevice(point.spec());
    }

    /** The point's rails; a transport of one host (gpu-ipc, and decorators of it) runs its rails on pairs of GPUs. */
    private static RailPlan.Plan rails(LinkproofExecutionContext context, SweepPoint point) {
        boolean oneHost = context.transport(point.spec().transport()).map(Transport::sameHostOnly).orElse(false);
        return RailPlan.of(context.profile(), context.config().tcpRails(), point, oneHost);
    }

    /**
     * A point whose device here lacks a capability it needs ({@code local}, the transport's own answer,
     * of kind {@link Availability.Kind#DEVICE_LACKS_CAPABILITY}: a verbs device whose atomic_cap is
     * IBV_ATOMIC_NONE, for an atomic point) while the profile requires the point's transport: a NIC the
     * profile is for must do what the suite asks of it, so the point fails instead of skipping. What
     * the transport itself does not do ({@link Availability.Kind#NOT_SUPPORTED}: tcp's and gpu-ipc's
     * atomics, verbs atomics on GPU memory) stays a skip under any profile: nothing of the hardware is
     * missing, and requiring the transport cannot make linkproof cover it.
     */
    private static Optional<String> unmetCapability(LinkproofExecutionContext context, SweepPoint point, Availability local) {
        if (local.kind() != Availability.Kind.DEVICE_LACKS_CAPABILITY) {
            return Optional.empty();
        }
        return context.profile().requiredButIncapable(point.spec().transport(), "this host", local.reason());
    }

    /**
     * A required transport (the profile's {@code transport.required}) that this host lacks: the
     * transport itself is unavailable, or it needs an RDMA device and the profile resolves none
     * (unless the point names a NIC of the profile's kind that is not fit: that NIC is the finding).
     */
    private static Optional<String> unmetRequirementHere(LinkproofExecutionContext context, SweepPoint point) {
        String transport = point.spec().transport();
        Availability here = context.transportAvailability(transport);
        RunProfile profile = context.profile();
        String why = !here.available() ? here.reason()
                : profile.unfitNic(point.spec()).isPresent() ? null : profile.noDevice(point.spec()).orElse(null);
        return why == null ? Optional.empty() : profile.requiredButUnavailable(transport, "this host", why);
    }

    /**
     * The same on the target, as its agent's WELCOME lists its transports; never for a transport that
     * needs both ranks on one host when the target is on another (it could not run there anyway).
     */
    private Optional<String> unmetRequirementThere(TransferSession session) {
        String transport = point.spec().transport();
        if (!sameKernel(session.agent()) && context.transport(transport).map(Transport::sameHostOnly).orElse(false)) {
            return Optional.empty();
        }
        Optional<Messages.TransportInfo> there = session.agent().transports().stream()
                .filter(t -> t.id().equals(transport)).findFirst();
        if (there.filter(Messages.TransportInfo::available).isPresent()) {
            return Optional.empty();
        }
        return context.profile().requiredButUnavailable(transport, "the target (" + session.agent().host() + ")",
                there.map(Messages.TransportInfo::reason)
                        .orElse("its agent has no such transport (an older agent? run the same build on both hosts)"));
    }

    /**
     * Whether the target agent shares this JVM's kernel: a local pair, or {@code linkproof.peer} on this
     * host (same boot id). Its CPU time is then ours, and one-host transports work.
     */
    private boolean sameKernel(Messages.Welcome agent) {
        return context.config().peer().isEmpty()
                || HostCpuMeter.kernelBootId().filter(id -> id.equals(agent.bootId())).isPresent();
    }

    /**
     * Runs the point: checks what the profile requires of both ranks, provisions, measures (again
     * while a rerun is due), and reports the last attempt to the judge's sweep and the reporter.
     * Returns the session, for the test method; throws the point's failure, of its kind.
     */
    public TransferSession run() throws Exception {
        Optional<String> unmet = unmetRequirementHere(context, point);
        if (unmet.isPresent()) {
            throw new PointFailure(FailureKind.REQUIRED_TRANSPORT_UNAVAILABLE, point.displayName() + ": " + unmet.get());
        }
        Optional<String> unfit = context.profile().unfitNic(point.spec());
        if (unfit.isPresent()) {
            throw new PointFailure(FailureKind.NIC_NOT_FIT, point.displayName() + ": " + unfit.get());
        }
        if (context.profile().requires(point.spec().transport())) {
            // Asked again only under a requirement: the answer may open the device (verbs: its atomic_cap).
            Optional<String> incapable = unmetCapability(context, point,
                    context.localSupport(context.profile().placeGpus(point.spec())));
            if (incapable.isPresent()) {
                throw new PointFailure(FailureKind.REQUIRED_CAPABILITY_UNAVAILABLE, point.displayName() + ": " + incapable.get());
            }
        }
        RailPlan.Plan rails = point.hasRails() ? rails(context, point) : null;
        if (rails != null) {
            Optional<String> required = rails.shortfall().flatMap(why -> context.profile().requiredButUnavailable(
                    point.spec().transport(), "this host", why));
            if (required.isPresent()) {
                throw new PointFailure(FailureKind.REQUIRED_TRANSPORT_UNAVAILABLE, point.displayName() + ": " + required.get());
            }
            for (int i = 0; i < rails.spots().size(); i++) {
                RailPlan.Spot spot = rails.spots().get(i);
                Optional<String> unfitRail = context.profile().unfitNic(point.spec().withSettings(spot.settings()));
                if (unfitRail.isPresent()) {
                    throw new PointFailure(FailureKind.NIC_NOT_FIT, point.displayName() + ": rail " + i + " (" + spot.label()
                            + "): " + unfitRail.get());
                }
            }
        }
        TransferSession session;
        try {
            session = rails == null ? context.sessions().acquire() : railSession(rails);
        } catch (TransferException e) {
            throw new PointError(FailureKind.PEER_FAILURE, point.displayName() + ": no target rank: " + e.getMessage()
                    + context.config().deadlineNote(e), e);
        }
        TransferSpec spec = context.profile().apply(point.spec());
        Availability there = session.supports(spec);
        if (!there.available()) {
            Optional<String> unmetThere = unmetRequirementThere(session);
            if (unmetThere.isPresent()) {
                throw new PointFailure(FailureKind.REQUIRED_TRANSPORT_UNAVAILABLE, point.displayName() + ": " + unmetThere.get());
            }
            throw new TestAbortedException(there.reason());
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
        List<TransferSession> sessions = context.sessions().acquireRails(rails.spots().size());
        List<Rails.Lane> lanes = new ArrayList<>();
        for (int i = 0; i < sessions.size(); i++) {
            RailPlan.Spot spot = rails.spots().get(i);
            TransferSession lane = sessions.get(i);
            // The way back: the target's agent drives the rail toward this host's agent.
            Optional<Rails.Home> back = spot.back() ? Optional.of(context.sessions().home(lane)) : Optional.empty();
            lanes.add(Rails.lane(spot.label(), lane, spot.settings(), spot.memory(), back, context.config().timeouts()));
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
                throw new PointError(e.kind(), e.getMessage() + " [attempt " + (earlier.size() + 1) + ": a rerun; attempt "
                        + earlier.size() + " " + last.reason() + " (" + last.describe() + ")]", e);
            }
            measurement = attempt;
            HostLoads hosts = HostLoads.of(window.stop(), measurement, !sameKernel);
            judgement = context.judge().judge(uniqueId, point, measurement, hosts, earlier);
            Optional<RerunKind> rerun = judgement.rerunFor(context.config().busyHostReruns(), context.config().baselineReruns());
            if (rerun.isEmpty()) {
                break;
            }
            earlier.add(new Attempt(measurement, hosts, judgement.failure().orElseThrow(), rerun.get()));
            if (hosts.busy()) {
                waitForRoom(session, hosts);
            } else {
                // A regression on a quiet host: nothing to wait for; the rerun tells a regression from a blip.
                context.progress().rerunToConfirm(point, measurement, judgement.failure().get());
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
                throw new PointError(FailureKind.PEER_FAILURE, point.displayName() + ": the target agent did not say how busy "
                        + "its host is, before a rerun: " + e.getMessage() + context.config().deadlineNote(e)
                        + " [the attempt before: " + measurement.summary() + ", " + hosts.describe() + "]", e);
            }
            stillBusy |= target.map(h -> h.busyFor(there.get().ownCpus())).orElse(false);
        }
        context.progress().rerun(point, measurement, hosts, Duration.ofNanos(System.nanoTime() - start),
                new HostLoads(initiator, target), stillBusy);
    }

    private Measurement attempt(TransferSession session, TransferSpec spec) {
        try {
            var duration = context.config().duration();
            return duration.isPresent() ? TimedRun.run(session, spec, duration.get()) : session.run(spec);
        } catch (PeerFailureException e) {
            context.sessions().invalidate();
            throw new PointError(e.kind(), point.displayName() + ": peer failure: " + e.getMessage()
                    + context.config().deadlineNote(e), e);
        } catch (RemoteErrorException e) {
            if (e.deviceLacksCapability()) {
                // The target's device lacks what the point needs (a verbs device without atomics where this
                // host's has them; the agent's code says so, not its words): as on this host, a failure of its
                // kind under a profile that requires the transport, else a skip with the reason.
                Optional<String> required = context.profile().requiredButIncapable(point.spec().transport(),
                        "the target (" + session.agent().host() + ")", e.getMessage());
                if (required.isPresent()) {
                    throw new PointFailure(FailureKind.REQUIRED_CAPABILITY_UNAVAILABLE, point.displayName() + ": " + required.get());
                }
                throw new TestAbortedException(e.getMessage());
            }
            throw new PointError(e.kind(), point.displayName() + ": " + e.getMessage() + context.config().deadlineNote(e), e);
        } catch (TransferException e) {
            throw new PointError(e.kind(), point.displayName() + ": " + e.getMessage() + context.config().deadlineNote(e), e);
        }
    }
}
