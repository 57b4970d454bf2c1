package dev.linkproof.engine.descriptor;

import dev.linkproof.engine.api.SweepPoint;
import dev.linkproof.engine.execution.HostLoads;
import dev.linkproof.engine.execution.LinkproofExecutionContext;
import dev.linkproof.engine.execution.MethodInvoker;
import dev.linkproof.engine.execution.RerunWait;
import dev.linkproof.engine.execution.RunReporter;
import dev.linkproof.engine.execution.TransferFailure;
import dev.linkproof.transfer.Availability;
import dev.linkproof.transfer.PeerFailureException;
import dev.linkproof.transfer.TransferException;
import dev.linkproof.transfer.TransferSpec;
import dev.linkproof.transfer.control.Messages;
import dev.linkproof.transfer.measure.HostContention;
import dev.linkproof.transfer.measure.HostCpuMeter;
import dev.linkproof.transfer.measure.Measurement;
import dev.linkproof.transfer.session.TimedRun;
import dev.linkproof.transfer.session.TransferSession;
import java.lang.reflect.Method;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import org.junit.platform.engine.TestExecutionResult;
import org.junit.platform.engine.TestTag;
import org.junit.platform.engine.UniqueId;
import org.junit.platform.engine.support.descriptor.AbstractTestDescriptor;
import org.junit.platform.engine.support.descriptor.MethodSource;
import org.junit.platform.engine.support.hierarchical.Node;
import org.opentest4j.AssertionFailedError;
import org.opentest4j.TestAbortedException;

/**
 * One point of a sweep: provision on both ranks, warm up, time, verify, then run the test method.
 * A point whose transport or memory kind is missing is skipped with the reason; corrupted data
 * fails naming slot and byte offset; a dead or silent peer fails within the deadline and the next
 * point gets a fresh pair. A point that falls short of a performance criterion while other
 * processes keep a host busy is run again ({@code linkproof.busyHost.reruns}), every attempt reported.
 */
public final class SweepPointDescriptor extends AbstractTestDescriptor implements Node<LinkproofExecutionContext> {
    public static final String SEGMENT = "point";

    private final Class<?> testClass;
    private final Method method;
    private final SweepPoint point;
    private Measurement measurement;
    private RunReporter.Judgement judgement;

    public SweepPointDescriptor(UniqueId id, Class<?> testClass, Method method, SweepPoint point) {
        super(id, point.displayName(), MethodSource.from(testClass, method));
        this.testClass = testClass;
        this.method = method;
        this.point = point;
    }

    public SweepPoint point() {
        return point;
    }

    @Override
    public Type getType() {
        return Type.TEST;
    }

    /** {@code method[write 4 KiB ×8 · 4 conn · tcp]}: unique within a class, for reports that key on names. */
    @Override
    public String getLegacyReportingName() {
        return method.getName() + "[" + point.displayName() + "]";
    }

    @Override
    public Set<TestTag> getTags() {
        Set<TestTag> tags = new LinkedHashSet<>(Tags.of(testClass));
        tags.addAll(Tags.of(method));
        tags.add(TestTag.create(point.spec().transport()));
        tags.add(TestTag.create(point.spec().op().label()));
        return tags;
    }

    @Override
    public SkipResult shouldBeSkipped(LinkproofExecutionContext context) {
        // In this order: memory the profile does not provide (GPUs, huge pages) skips, required or not;
        // a required transport this host lacks (no library, device or provider, or no device the
        // profile resolves) fails in execute; what the transport cannot do for this point (an op, a
        // memory kind), and an RDMA device the profile resolves none of when not required, skip; a point
        // on a NIC of the profile's kind that is not fit for it (a port down) fails.
        var profile = context.reporter().profile();
        Optional<String> notProvided = profile.notProvided(point.spec());
        if (notProvided.isPresent()) {
            return SkipResult.skip(notProvided.get());
        }
        if (unmetRequirementHere(context).isPresent()) {
            return SkipResult.doNotSkip();
        }
        Availability local = context.localAvailability(profile.placeGpus(point.spec()));
        if (!local.available()) {
            return SkipResult.skip(local.reason());
        }
        if (profile.unfitNic(point.spec()).isPresent()) {
            return SkipResult.doNotSkip(); // a broken NIC of the profile's kind fails in execute
        }
        return profile.noDevice(point.spec()).map(SkipResult::skip).orElse(SkipResult.doNotSkip());
    }

    /**
     * A required transport (the profile's {@code transport.required}) that this host lacks: the
     * transport itself is unavailable, or it needs an RDMA device and the profile resolves none
     * (unless the point names a NIC of the profile's kind that is not fit: that NIC is the finding).
     */
    private Optional<String> unmetRequirementHere(LinkproofExecutionContext context) {
        String transport = point.spec().transport();
        Availability here = context.transportAvailability(transport);
        var profile = context.reporter().profile();
        String why = !here.available() ? here.reason()
                : profile.unfitNic(point.spec()).isPresent() ? null : profile.noDevice(point.spec()).orElse(null);
        return why == null ? Optional.empty() : profile.requiredButUnavailable(transport, "this host", why);
    }

    /**
     * The same on the target, as its agent's WELCOME lists its transports; never for a transport that
     * needs both ranks on one host when the target is on another (it could not run there anyway).
     */
    private Optional<String> unmetRequirementThere(LinkproofExecutionContext context, TransferSession session) {
        String transport = point.spec().transport();
        if (!sameKernel(context, session.agent())
                && context.transport(transport).map(dev.linkproof.transfer.spi.Transport::sameHostOnly).orElse(false)) {
            return Optional.empty();
        }
        Optional<Messages.TransportInfo> there = session.agent().transports().stream()
                .filter(t -> t.id().equals(transport)).findFirst();
        if (there.filter(Messages.TransportInfo::available).isPresent()) {
            return Optional.empty();
        }
        return context.reporter().profile().requiredButUnavailable(transport, "the target (" + session.agent().host() + ")",
                there.map(Messages.TransportInfo::reason)
                        .orElse("its agent has no such transport (an older agent? run the same build on both hosts)"));
    }

    /**
     * Whether the target agent shares this JVM's kernel: a local pair, or {@code linkproof.peer} on this
     * host (same boot id). Its CPU time is then ours, and one-host transports work.
     */
    private static boolean sameKernel(LinkproofExecutionContext context, Messages.Welcome agent) {
        return context.config().peer().isEmpty()
                || HostCpuMeter.kernelBootId().filter(id -> id.equals(agent.bootId())).isPresent();
    }

    @Override
    public LinkproofExecutionContext execute(LinkproofExecutionContext context, DynamicTestExecutor executor) throws Exception {
        context.reporter().pointStarted(sweepId(), method.getName(), point);
        context.progress().started(point);
        Optional<String> unmet = unmetRequirementHere(context);
        if (unmet.isPresent()) {
            throw new AssertionFailedError(point.displayName() + ": " + unmet.get());
        }
        Optional<String> unfit = context.reporter().profile().unfitNic(point.spec());
        if (unfit.isPresent()) {
            throw new AssertionFailedError(point.displayName() + ": " + unfit.get());
        }
        TransferSession session;
        try {
            session = context.sessions().acquire();
        } catch (TransferException e) {
            throw new TransferFailure(point.displayName() + ": no target rank: " + e.getMessage()
                    + context.config().deadlineNote(e), e);
        }
        var spec = context.reporter().profile().apply(point.spec());
        Availability there = session.supports(spec);
        if (!there.available()) {
            Optional<String> unmetThere = unmetRequirementThere(context, session);
            if (unmetThere.isPresent()) {
                throw new AssertionFailedError(point.displayName() + ": " + unmetThere.get());
            }
            throw new TestAbortedException(there.reason());
        }
        measure(context, session, spec);
        context.publish(this, measurement);
        context.reporter().accept(sweepId(), measurement, judgement);
        judgement.enforce();
        MethodInvoker.invoke(testClass, method, measurement, point, session);
        return context;
    }

    /**
     * Runs the point, and again while it falls short on a busy host or of its baseline and reruns are
     * left ({@link RunReporter.Judgement#rerun}); leaves the last attempt in {@link #measurement} and
     * its verdict in {@link #judgement}.
     */
    private void measure(LinkproofExecutionContext context, TransferSession session, TransferSpec spec) throws Exception {
        List<RunReporter.Attempt> earlier = new ArrayList<>();
        // An agent on this kernel (a local pair, or linkproof.peer on this host) shares our CPUs: its
        // time is ours, and its own figure would count this JVM as "other".
        Messages.Welcome agent = session.agent();
        boolean sameKernel = sameKernel(context, agent);
        Set<Long> agentPid = sameKernel ? Set.of(agent.pid()) : Set.of();
        while (true) {
            // A rerun that breaks must not leave the last attempt's figures as the point's own.
            measurement = null;
            judgement = null;
            HostCpuMeter.Window window = HostCpuMeter.start(agentPid);
            Measurement attempt;
            try {
                attempt = run(context, session, spec);
            } catch (TransferFailure e) {
                if (earlier.isEmpty()) {
                    throw e;
                }
                RunReporter.Attempt last = earlier.getLast();
                throw new TransferFailure(e.getMessage() + " [attempt " + (earlier.size() + 1) + ": a rerun; attempt "
                        + earlier.size() + " " + last.reason() + " (" + last.describe() + ")]", e);
            }
            measurement = attempt;
            HostLoads hosts = HostLoads.of(window.stop(), measurement, !sameKernel);
            judgement = context.reporter().judge(getUniqueId().toString(), point, measurement, hosts, earlier);
            Optional<RunReporter.RerunKind> rerun = judgement.rerunFor(context.config().busyHostReruns(),
                    context.config().baselineReruns());
            if (rerun.isEmpty()) {
                break;
            }
            earlier.add(new RunReporter.Attempt(measurement, hosts, judgement.failure().orElseThrow(), rerun.get()));
            if (hosts.busy()) {
                waitForRoom(context, session, hosts);
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
    private void waitForRoom(LinkproofExecutionContext context, TransferSession session, HostLoads hosts) throws Exception {
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
                throw new TransferFailure(point.displayName() + ": the target agent did not say how busy its host is, "
                        + "before a rerun: " + e.getMessage() + context.config().deadlineNote(e)
                        + " [the attempt before: " + measurement.summary() + ", " + hosts.describe() + "]", e);
            }
            stillBusy |= target.map(h -> h.busyFor(there.get().ownCpus())).orElse(false);
        }
        context.progress().rerun(point, measurement, hosts, Duration.ofNanos(System.nanoTime() - start),
                new HostLoads(initiator, target), stillBusy);
    }

    private Measurement run(LinkproofExecutionContext context, TransferSession session, TransferSpec spec) {
        try {
            var duration = context.config().duration();
            return duration.isPresent() ? TimedRun.run(session, spec, duration.get()) : session.run(spec);
        } catch (PeerFailureException e) {
            context.sessions().invalidate();
            throw new TransferFailure(point.displayName() + ": peer failure: " + e.getMessage()
                    + context.config().deadlineNote(e), e);
        } catch (TransferException e) {
            throw new TransferFailure(point.displayName() + ": " + e.getMessage() + context.config().deadlineNote(e), e);
        }
    }

    @Override
    public void nodeFinished(LinkproofExecutionContext context, org.junit.platform.engine.TestDescriptor descriptor,
                             TestExecutionResult result) {
        context.progress().finished(point, measurement, judgement == null ? "" : judgement.headline(), result);
        context.reporter().pointFinished(getUniqueId().toString(), sweepId(), testClass, method.getName(), point,
                measurement, judgement, result);
    }

    private String sweepId() {
        return getUniqueId().removeLastSegment().toString();
    }

    @Override
    public void nodeSkipped(LinkproofExecutionContext context, org.junit.platform.engine.TestDescriptor descriptor,
                            SkipResult result) {
        context.progress().skipped(point, result.getReason().orElse("skipped"));
        context.reporter().pointSkipped(getUniqueId().toString(), sweepId(), testClass, method.getName(), point,
                result.getReason().orElse("skipped"));
    }
}
