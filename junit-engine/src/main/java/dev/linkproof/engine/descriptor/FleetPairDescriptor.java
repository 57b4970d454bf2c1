package dev.linkproof.engine.descriptor;

import dev.linkproof.engine.api.SweepPoint;
import dev.linkproof.engine.run.FleetPairRun;
import dev.linkproof.engine.run.LinkproofExecutionContext;
import dev.linkproof.engine.run.MethodInvoker;
import dev.linkproof.fleet.plan.Pair;
import org.junit.platform.engine.TestDescriptor;
import org.junit.platform.engine.TestExecutionResult;
import org.junit.platform.engine.support.descriptor.AbstractTestDescriptor;
import org.junit.platform.engine.support.descriptor.MethodSource;
import org.junit.platform.engine.support.hierarchical.Node;

/**
 * One pair of a fleet point, as JUnit sees it: {@code [pair:lpn1->lpn2]} under its point, named
 * {@code write 1 MiB ×16 · 1 conn · tcp · lpn1→lpn2}. Its point ran the rounds; this test reports what
 * the pair did, judged by the profile ({@link FleetPairRun}), then runs the test method with the
 * pair's measurement. How it stands against the fleet is the verdicts' to say, once a failure is
 * confirmed: one run of one pair is never a verdict.
 */
public final class FleetPairDescriptor extends AbstractTestDescriptor implements Node<LinkproofExecutionContext> {
    public static final String SEGMENT = "pair";
    private final Pair pair;
    private final SweepPoint point;
    private FleetPairRun run;

    public FleetPairDescriptor(FleetPointDescriptor parent, Pair pair) {
        super(
                parent.getUniqueId().append(SEGMENT, pair.label()),
                forPair(parent.point(), pair).displayName(),
                MethodSource.from(parent.testClass(), parent.method()));
        this.pair = pair;
        this.point = forPair(parent.point(), pair);
    }

    /** The point as this pair runs it: its name and point id say which pair. */
    static SweepPoint forPair(SweepPoint point, Pair pair) {
        return new SweepPoint(
                point.spec().withPointId(point.spec().pointId() + "/pair=" + pair.label()),
                point.displayName() + " · " + pair.initiator() + "→" + pair.target(),
                point.segment() + ",pair=" + pair.label(),
                point.rails(),
                point.bothWays());
    }

    public Pair pair() {
        return pair;
    }

    @Override
    public Type getType() {
        return Type.TEST;
    }

    /** Its point's tags (class, method, transport, op): a tag filter selects a fleet's pairs as it selects points. */
    @Override
    public java.util.Set<org.junit.platform.engine.TestTag> getTags() {
        return parentPoint().getTags();
    }

    private FleetPointDescriptor parentPoint() {
        return (FleetPointDescriptor) getParent().orElseThrow();
    }

    @Override
    public String getLegacyReportingName() {
        return parentPoint().method().getName() + "[" + point.displayName() + "]";
    }

    @Override
    public LinkproofExecutionContext execute(LinkproofExecutionContext context, DynamicTestExecutor executor)
            throws Exception {
        FleetPointDescriptor parent = parentPoint();
        context.reporter().pointStarted(sweepId(), parent.method().getName(), point);
        context.progress().started(point);
        run = new FleetPairRun(context, point, parent.result(pair));
        run.run();
        context.publish(this, run.measurement());
        run.judgement().enforce();
        MethodInvoker.invoke(parent.testClass(), parent.method(), run.measurement(), point, null);
        return context;
    }

    @Override
    public void nodeFinished(LinkproofExecutionContext context, TestDescriptor descriptor, TestExecutionResult result) {
        FleetPointDescriptor parent = parentPoint();
        var m = run == null ? null : run.measurement();
        var judgement = run == null ? null : run.judgement();
        context.progress().finished(point, m, judgement == null ? "" : judgement.headline(), result);
        context.reporter()
                .pointFinished(
                        getUniqueId().toString(),
                        sweepId(),
                        parent.testClass(),
                        parent.method().getName(),
                        point,
                        m,
                        judgement,
                        result);
        context.fleet()
                .orElseThrow()
                .recordTest(parent.fleetPoint(), pair, m, dev.linkproof.engine.failure.Failures.kindOf(result));
    }

    @Override
    public void nodeSkipped(LinkproofExecutionContext context, TestDescriptor descriptor, SkipResult result) {
        FleetPointDescriptor parent = parentPoint();
        String reason = result.getReason().orElse("skipped");
        context.progress().skipped(point, reason);
        context.reporter()
                .pointSkipped(
                        getUniqueId().toString(),
                        sweepId(),
                        parent.testClass(),
                        parent.method().getName(),
                        point,
                        reason);
    }

    /** The sweep is the method's: every pair of every point of it. */
    private String sweepId() {
        return parentPoint().getUniqueId().removeLastSegment().toString();
    }
}
