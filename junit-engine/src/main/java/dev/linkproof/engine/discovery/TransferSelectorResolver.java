package dev.linkproof.engine.discovery;

import static org.junit.platform.engine.support.discovery.SelectorResolver.Resolution.unresolved;

import dev.linkproof.engine.api.SweepPoint;
import dev.linkproof.engine.api.TransferTest;
import dev.linkproof.engine.descriptor.FleetPairDescriptor;
import dev.linkproof.engine.descriptor.FleetPointDescriptor;
import dev.linkproof.engine.descriptor.SweepPointDescriptor;
import dev.linkproof.engine.descriptor.TransferClassDescriptor;
import dev.linkproof.engine.descriptor.TransferMethodDescriptor;
import dev.linkproof.engine.run.MethodInvoker;
import dev.linkproof.fleet.campaign.FleetPlan;
import dev.linkproof.fleet.plan.Pair;
import java.lang.reflect.Method;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.function.Predicate;
import java.util.stream.Collectors;
import org.junit.platform.commons.support.AnnotationSupport;
import org.junit.platform.commons.support.ReflectionSupport;
import org.junit.platform.engine.DiscoveryIssue;
import org.junit.platform.engine.DiscoverySelector;
import org.junit.platform.engine.TestDescriptor;
import org.junit.platform.engine.UniqueId;
import org.junit.platform.engine.discovery.ClassSelector;
import org.junit.platform.engine.discovery.DiscoverySelectors;
import org.junit.platform.engine.discovery.MethodSelector;
import org.junit.platform.engine.discovery.UniqueIdSelector;
import org.junit.platform.engine.support.descriptor.MethodSource;
import org.junit.platform.engine.support.discovery.DiscoveryIssueReporter;
import org.junit.platform.engine.support.discovery.SelectorResolver;

/**
 * Resolves class, method and unique-id selectors into class → method → point descriptors. A method
 * selected as a whole expands to all its points; a point's unique id selects just that point.
 * Methods that cannot run (bad sweep, unsupported parameter) become discovery issues.
 */
final class TransferSelectorResolver implements SelectorResolver {
    private final SweepExpander expander;
    private final DiscoveryIssueReporter issues;
    private final Predicate<String> classNameFilter;
    /** A fleet run's plan: each point is then a container of the plan's pairs. Null for a run of one pair. */
    private final FleetPlan fleet;

    TransferSelectorResolver(
            SweepExpander expander, DiscoveryIssueReporter issues, Predicate<String> classNameFilter, FleetPlan fleet) {
        this.expander = expander;
        this.issues = issues;
        this.classNameFilter = classNameFilter;
        this.fleet = fleet;
    }

    @Override
    public Resolution resolve(ClassSelector selector, Context context) {
        Class<?> c;
        try {
            c = selector.getJavaClass();
        } catch (RuntimeException e) {
            return unresolved();
        }
        if (!TransferTestPredicates.isCandidateClass(c)) {
            return unresolved();
        }
        return context.addToParent(parent -> Optional.of(classDescriptor(parent, c)))
                .map(d -> Resolution.match(Match.exact(d, () -> methodSelectors(c))))
                .orElse(unresolved());
    }

    @Override
    public Resolution resolve(MethodSelector selector, Context context) {
        Method m;
        Class<?> c;
        try {
            m = selector.getJavaMethod();
            c = selector.getJavaClass();
        } catch (RuntimeException e) {
            return unresolved();
        }
        if (!AnnotationSupport.isAnnotated(m, TransferTest.class)) {
            return unresolved();
        }
        return methodDescriptor(c, m, context)
                .map(d -> Resolution.match(Match.exact(d, () -> pointSelectors(d))))
                .orElse(unresolved());
    }

    @Override
    public Resolution resolve(UniqueIdSelector selector, Context context) {
        UniqueId id = selector.getUniqueId();
        List<UniqueId.Segment> segments = id.getSegments();
        UniqueId.Segment last = segments.getLast();
        switch (last.getType()) {
            case TransferClassDescriptor.SEGMENT -> {
                return ReflectionSupport.tryToLoadClass(last.getValue())
                        .toOptional()
                        .map(c -> resolve(DiscoverySelectors.selectClass(c), context))
                        .orElse(unresolved());
            }
            case TransferMethodDescriptor.SEGMENT -> {
                UniqueId.Segment classSegment = segments.get(segments.size() - 2);
                Optional<Class<?>> c = ReflectionSupport.tryToLoadClass(classSegment.getValue())
                        .toOptional();
                if (c.isEmpty()) {
                    return unresolved();
                }
                String value = last.getValue();
                Optional<Method> m = TransferTestPredicates.transferMethods(c.get()).stream()
                        .filter(x -> TransferMethodDescriptor.segmentValue(x).equals(value))
                        .findFirst();
                return m.map(x -> resolve(DiscoverySelectors.selectMethod(c.get(), x), context))
                        .orElse(unresolved());
            }
            case SweepPointDescriptor.SEGMENT -> {
                UniqueId methodId = id.removeLastSegment();
                return context.addToParent(() -> DiscoverySelectors.selectUniqueId(methodId), parent -> {
                            if (parent instanceof TransferMethodDescriptor md) {
                                return md.point(last.getValue()).map(p -> pointDescriptor(md, p));
                            }
                            return Optional.empty();
                        })
                        .map(d -> Resolution.match(
                                d instanceof FleetPointDescriptor fp
                                        ? Match.exact(d, () -> pairSelectors(fp))
                                        : Match.exact(d)))
                        .orElse(unresolved());
            }
            case FleetPairDescriptor.SEGMENT -> {
                if (fleet == null) {
                    return unresolved();
                }
                Optional<Pair> pair = fleet.pairs().stream()
                        .filter(p -> p.label().equals(last.getValue()))
                        .findFirst();
                if (pair.isEmpty()) {
                    return unresolved();
                }
                UniqueId pointId = id.removeLastSegment();
                return context.addToParent(
                                () -> DiscoverySelectors.selectUniqueId(pointId),
                                parent -> parent instanceof FleetPointDescriptor fp
                                        ? Optional.of(new FleetPairDescriptor(fp, pair.get()))
                                        : Optional.empty())
                        .map(d -> Resolution.match(Match.exact(d)))
                        .orElse(unresolved());
            }
            default -> {
                return unresolved();
            }
        }
    }

    private TransferClassDescriptor classDescriptor(TestDescriptor parent, Class<?> c) {
        return new TransferClassDescriptor(
                parent.getUniqueId().append(TransferClassDescriptor.SEGMENT, c.getName()), c);
    }

    private Optional<TransferMethodDescriptor> methodDescriptor(Class<?> c, Method m, Context context) {
        MethodSource source = MethodSource.from(c, m);
        // The method's signature and its sweep are checked both, and reported as one issue, so every
        // mistake in a method shows in one run.
        List<String> problems = new java.util.ArrayList<>();
        MethodInvoker.problem(c, m).ifPresent(problems::add);
        List<SweepPoint> points = List.of();
        try {
            points = expander.expand(
                    m, AnnotationSupport.findAnnotation(m, TransferTest.class).orElseThrow());
        } catch (InvalidSweepException e) {
            problems.add("has an invalid sweep: " + e.getMessage());
        }
        if (!problems.isEmpty()) {
            issues.reportIssue(DiscoveryIssue.builder(
                            DiscoveryIssue.Severity.ERROR,
                            "@TransferTest method " + c.getName() + "#" + m.getName() + " "
                                    + String.join("; and ", problems))
                    .source(source));
            return Optional.empty();
        }
        List<SweepPoint> expanded = points;
        return context.addToParent(
                () -> DiscoverySelectors.selectClass(c),
                parent -> Optional.of(new TransferMethodDescriptor(
                        parent.getUniqueId()
                                .append(TransferMethodDescriptor.SEGMENT, TransferMethodDescriptor.segmentValue(m)),
                        c,
                        m,
                        expanded)));
    }

    private TestDescriptor pointDescriptor(TransferMethodDescriptor md, SweepPoint p) {
        UniqueId id = md.getUniqueId().append(SweepPointDescriptor.SEGMENT, p.segment());
        return fleet == null
                ? new SweepPointDescriptor(id, md.testClass(), md.method(), p)
                : new FleetPointDescriptor(id, md.testClass(), md.method(), p);
    }

    private Set<? extends DiscoverySelector> pairSelectors(FleetPointDescriptor point) {
        return fleet.pairs().stream()
                .map(p -> DiscoverySelectors.selectUniqueId(
                        point.getUniqueId().append(FleetPairDescriptor.SEGMENT, p.label())))
                .collect(Collectors.toCollection(LinkedHashSet::new));
    }

    private Set<? extends DiscoverySelector> methodSelectors(Class<?> c) {
        return TransferTestPredicates.transferMethods(c).stream()
                .map(m -> DiscoverySelectors.selectMethod(c, m))
                .collect(Collectors.toCollection(LinkedHashSet::new));
    }

    private static Set<? extends DiscoverySelector> pointSelectors(TransferMethodDescriptor md) {
        return md.points().stream()
                .map(p -> DiscoverySelectors.selectUniqueId(
                        md.getUniqueId().append(SweepPointDescriptor.SEGMENT, p.segment())))
                .collect(Collectors.toCollection(LinkedHashSet::new));
    }
}
