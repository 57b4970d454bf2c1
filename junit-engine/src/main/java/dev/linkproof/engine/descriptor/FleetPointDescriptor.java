package dev.linkproof.engine.descriptor;

import dev.linkproof.engine.api.SweepPoint;
import dev.linkproof.engine.judging.HostLoads;
import dev.linkproof.engine.run.FleetRun;
import dev.linkproof.engine.run.LinkproofExecutionContext;
import dev.linkproof.fleet.blame.Point;
import dev.linkproof.fleet.campaign.PointCheck;
import dev.linkproof.fleet.coordinate.PairRun;
import dev.linkproof.fleet.plan.Pair;
import dev.linkproof.transfer.TransferSpec;
import dev.linkproof.transfer.session.TransferSession;
import java.lang.reflect.Method;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.stream.Collectors;
import org.junit.platform.engine.TestTag;
import org.junit.platform.engine.UniqueId;
import org.junit.platform.engine.support.descriptor.AbstractTestDescriptor;
import org.junit.platform.engine.support.descriptor.MethodSource;
import org.junit.platform.engine.support.hierarchical.Node;

/**
 * One point of a sweep in a fleet run: a container whose tests are the plan's pairs
 * ({@link FleetPairDescriptor}, {@code [pair:lpn1->lpn2]}). Running it runs the plan's rounds for
 * the pairs selected (each round's pairs at once); each pair's test then reports and judges its own.
 */
public final class FleetPointDescriptor extends AbstractTestDescriptor implements Node<LinkproofExecutionContext> {
    private final Class<?> testClass;
    private final Method method;
    private final SweepPoint point;
    private Map<Pair, PairRun> results = Map.of();

    public FleetPointDescriptor(UniqueId id, Class<?> testClass, Method method, SweepPoint point) {
        super(id, point.displayName(), MethodSource.from(testClass, method));
        this.testClass = testClass;
        this.method = method;
        this.point = point;
    }

    public SweepPoint point() {
        return point;
    }

    Class<?> testClass() {
        return testClass;
    }

    Method method() {
        return method;
    }

    @Override
    public Type getType() {
        return Type.CONTAINER;
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
    public LinkproofExecutionContext before(LinkproofExecutionContext context) throws InterruptedException {
        FleetRun fleet = context.fleet().orElseThrow();
        // Normally the registration container opened the registry already; a filter may have left it out.
        fleet.register();
        Set<Pair> selected = getChildren().stream()
                .filter(FleetPairDescriptor.class::isInstance)
                .map(d -> ((FleetPairDescriptor) d).pair())
                .collect(Collectors.toCollection(LinkedHashSet::new));
        // A rerun of a pair (a confirmation, a retest) is held to the profile's criteria as its test is.
        PointCheck check = (pair, m) -> {
            SweepPoint p = FleetPairDescriptor.forPair(point, pair);
            return context.judge()
                    .judge(p.spec().pointId(), p, m, HostLoads.NONE, List.of())
                    .failureKind();
        };
        TransferSpec spec = context.profile().placement().apply(point.spec());
        results = fleet.runPoint(
                fleetPoint(),
                spec,
                dev.linkproof.reports.prometheus.PointLabels.of(
                        testClass.getName(), method.getName(), point.displayName(), spec, point.rails()),
                selected,
                check);
        return context;
    }

    /** This point as the campaign names it. */
    Point fleetPoint() {
        return FleetRun.point(getUniqueId().toString(), point);
    }

    /** A method that wants the pair's session cannot have one: the coordinator is neither rank of a fleet's pairs. */
    @Override
    public SkipResult shouldBeSkipped(LinkproofExecutionContext context) {
        return java.util.Arrays.asList(method.getParameterTypes()).contains(TransferSession.class)
                ? SkipResult.skip(method.getName() + " takes a TransferSession, which a fleet run cannot give it (the "
                        + "coordinator is neither rank of a fleet's pairs)")
                : SkipResult.doNotSkip();
    }

    /** What the pair did in this point's rounds; empty before they ran. */
    Optional<PairRun> result(Pair pair) {
        return Optional.ofNullable(results.get(pair));
    }
}
