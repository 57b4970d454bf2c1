package dev.linkproof.engine.discovery;

import dev.linkproof.engine.descriptor.FleetNodeDescriptor;
import dev.linkproof.engine.descriptor.FleetPointDescriptor;
import dev.linkproof.engine.descriptor.FleetRegistrationDescriptor;
import dev.linkproof.engine.descriptor.FleetVerdictsDescriptor;
import dev.linkproof.engine.descriptor.LinkproofEngineDescriptor;
import dev.linkproof.fleet.campaign.FleetPlan;
import org.junit.platform.engine.EngineDiscoveryRequest;
import org.junit.platform.engine.TestDescriptor;
import org.junit.platform.engine.support.discovery.DiscoveryIssueReporter;
import org.junit.platform.engine.support.discovery.EngineDiscoveryRequestResolver;

/** Wires the selector resolvers: class path roots, packages and modules go through JUnit's own. */
public final class LinkproofDiscovery {
    private final SweepExpander expander;
    private final FleetPlan fleet;

    /** @param fleet a fleet run's plan, or null for a run of one pair */
    public LinkproofDiscovery(SweepExpander expander, FleetPlan fleet) {
        this.expander = expander;
        this.fleet = fleet;
    }

    public void discover(EngineDiscoveryRequest request, LinkproofEngineDescriptor engine) {
        DiscoveryIssueReporter issues = DiscoveryIssueReporter.deduplicating(
                DiscoveryIssueReporter.forwarding(request.getDiscoveryListener(), engine.getUniqueId()));
        EngineDiscoveryRequestResolver.<LinkproofEngineDescriptor>builder()
                .addClassContainerSelectorResolver(TransferTestPredicates::isCandidateClass)
                .addSelectorResolver(
                        ctx -> new TransferSelectorResolver(expander, issues, ctx.getClassNameFilter(), fleet))
                .build()
                .resolve(request, engine, issues);
        if (fleet != null) {
            // Registration first (every node a test), the verdicts last; the points in between.
            FleetRegistrationDescriptor registration = new FleetRegistrationDescriptor(engine.getUniqueId());
            java.util.Set<org.junit.platform.engine.TestTag> tags = new java.util.LinkedHashSet<>();
            engine.getDescendants().stream()
                    .filter(d -> d instanceof FleetPointDescriptor)
                    .forEach(d -> tags.addAll(d.getTags()));
            fleet.nodes()
                    .forEach(n -> registration.addChild(new FleetNodeDescriptor(registration.getUniqueId(), n, tags)));
            java.util.List<TestDescriptor> points = new java.util.ArrayList<>(engine.getChildren());
            points.forEach(engine::removeChild);
            engine.addChild(registration);
            points.forEach(engine::addChild);
            engine.addChild(new FleetVerdictsDescriptor(engine.getUniqueId(), tags));
        }
    }
}
