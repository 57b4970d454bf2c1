package dev.linkproof.engine.descriptor;

import dev.linkproof.engine.api.SweepPoint;
import dev.linkproof.engine.failure.PointFailure;
import dev.linkproof.engine.run.LinkproofExecutionContext;
import dev.linkproof.transfer.FailureKind;
import java.lang.reflect.Method;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import org.junit.platform.engine.TestTag;
import org.junit.platform.engine.UniqueId;
import org.junit.platform.engine.support.descriptor.AbstractTestDescriptor;
import org.junit.platform.engine.support.descriptor.MethodSource;
import org.junit.platform.engine.support.hierarchical.Node;

/** A {@code @TransferTest} method: the container of its sweep's points. */
public final class TransferMethodDescriptor extends AbstractTestDescriptor implements Node<LinkproofExecutionContext> {
    public static final String SEGMENT = "method";

    private final Class<?> testClass;
    private final Method method;
    private final List<SweepPoint> points;
    /** The points by unique-id segment: each point's selector finds its point here, not by a walk of the sweep. */
    private final Map<String, SweepPoint> bySegment;

    public TransferMethodDescriptor(UniqueId id, Class<?> testClass, Method method, List<SweepPoint> points) {
        super(id, method.getName(), MethodSource.from(testClass, method));
        this.testClass = testClass;
        this.method = method;
        this.points = List.copyOf(points);
        this.bySegment = HashMap.newHashMap(points.size());
        for (SweepPoint p : this.points) {
            this.bySegment.putIfAbsent(p.segment(), p);
        }
    }

    /** The unique-id segment value of a method: its name and parameter types, like Jupiter's. */
    public static String segmentValue(Method m) {
        StringBuilder sb = new StringBuilder(m.getName()).append('(');
        Class<?>[] types = m.getParameterTypes();
        for (int i = 0; i < types.length; i++) {
            sb.append(i == 0 ? "" : ",").append(types[i].getName());
        }
        return sb.append(')').toString();
    }

    public List<SweepPoint> points() {
        return points;
    }

    public Optional<SweepPoint> point(String segment) {
        return Optional.ofNullable(bySegment.get(segment));
    }

    public Class<?> testClass() {
        return testClass;
    }

    public Method method() {
        return method;
    }

    @Override
    public Type getType() {
        return Type.CONTAINER;
    }

    /** The profile's curve rules judge the sweep as a whole once its points ran. */
    @Override
    public void after(LinkproofExecutionContext context) {
        java.util.List<String> failed = context.judge().judgeSweep(getUniqueId().toString());
        if (!failed.isEmpty()) {
            String message = "below criterion (curve rule) of profile '"
                    + context.profile().id() + "': " + String.join("; ", failed);
            context.progress().sweepFailed(getDisplayName(), message);
            throw new PointFailure(FailureKind.BELOW_CRITERION, message);
        }
    }

    /** Once every point ran: the sweep's chart and CSV. */
    @Override
    public void nodeFinished(
            LinkproofExecutionContext context,
            org.junit.platform.engine.TestDescriptor descriptor,
            org.junit.platform.engine.TestExecutionResult result) {
        context.reporter()
                .sweepFinished(getUniqueId().toString(), testClass.getSimpleName() + "." + method.getName())
                .forEach((name, file) -> context.publishFile(
                        this, name, file.getKey(), file.getValue().getBytes(java.nio.charset.StandardCharsets.UTF_8)));
    }

    @Override
    public Set<TestTag> getTags() {
        Set<TestTag> tags = new LinkedHashSet<>(Tags.of(testClass));
        tags.addAll(Tags.of(method));
        return tags;
    }
}
