package dev.linkproof.engine.descriptor;

import dev.linkproof.engine.api.SweepPoint;
import dev.linkproof.engine.run.Admission;
import dev.linkproof.engine.run.LinkproofExecutionContext;
import dev.linkproof.engine.run.MethodInvoker;
import dev.linkproof.engine.run.PointRun;
import dev.linkproof.transfer.session.TransferSession;
import java.lang.reflect.Method;
import java.util.LinkedHashSet;
import java.util.Set;
import org.junit.platform.engine.TestDescriptor;
import org.junit.platform.engine.TestExecutionResult;
import org.junit.platform.engine.TestTag;
import org.junit.platform.engine.UniqueId;
import org.junit.platform.engine.support.descriptor.AbstractTestDescriptor;
import org.junit.platform.engine.support.descriptor.MethodSource;
import org.junit.platform.engine.support.hierarchical.Node;

/**
 * One point of a sweep, as JUnit sees it: its id, name, tags and source. Running it is
 * {@link PointRun}'s job (skip rules, both ranks, reruns, failures of their kind); then the test
 * method runs with what it asks for.
 */
public final class SweepPointDescriptor extends AbstractTestDescriptor implements Node<LinkproofExecutionContext> {
    public static final String SEGMENT = "point";

    private final Class<?> testClass;
    private final Method method;
    private final SweepPoint point;
    private PointRun run;
    /** What Admission decided in shouldBeSkipped, carried to execute. */
    private Admission admission;

    private String sweepId;

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
        admission = Admission.decide(context, point);
        return admission instanceof Admission.Skip skip ? SkipResult.skip(skip.reason()) : SkipResult.doNotSkip();
    }

    @Override
    public LinkproofExecutionContext execute(LinkproofExecutionContext context, DynamicTestExecutor executor)
            throws Exception {
        context.reporter().pointStarted(sweepId(), method.getName(), point);
        context.progress().started(point);
        run = new PointRun(context, point, getUniqueId().toString(), sweepId(), admission);
        TransferSession session = run.run();
        context.publish(this, run.measurement());
        run.judgement().enforce();
        MethodInvoker.invoke(testClass, method, run.measurement(), point, session);
        return context;
    }

    @Override
    public void nodeFinished(LinkproofExecutionContext context, TestDescriptor descriptor, TestExecutionResult result) {
        var m = run == null ? null : run.measurement();
        var judgement = run == null ? null : run.judgement();
        context.progress().finished(point, m, judgement == null ? "" : judgement.headline(), result);
        context.reporter()
                .pointFinished(
                        getUniqueId().toString(), sweepId(), testClass, method.getName(), point, m, judgement, result);
    }

    /**
     * The sweep's (its method's) unique id, as text: formatted once, not three times a point (a
     * removed segment is a new UniqueId, whose text JUnit formats and encodes afresh).
     */
    private String sweepId() {
        String id = sweepId;
        if (id == null) {
            id = getUniqueId().removeLastSegment().toString();
            sweepId = id;
        }
        return id;
    }

    @Override
    public void nodeSkipped(LinkproofExecutionContext context, TestDescriptor descriptor, SkipResult result) {
        String reason = result.getReason().orElse("skipped");
        context.progress().skipped(point, reason);
        context.reporter()
                .pointSkipped(getUniqueId().toString(), sweepId(), testClass, method.getName(), point, reason);
    }
}
