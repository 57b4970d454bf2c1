package dev.linkproof.engine.discovery;

import dev.linkproof.engine.descriptor.LinkproofEngineDescriptor;
import org.junit.platform.engine.EngineDiscoveryRequest;
import org.junit.platform.engine.support.discovery.DiscoveryIssueReporter;
import org.junit.platform.engine.support.discovery.EngineDiscoveryRequestResolver;

/** Wires the selector resolvers: class path roots, packages and modules go through JUnit's own. */
public final class LinkproofDiscovery {
    private final SweepExpander expander;

    public LinkproofDiscovery(SweepExpander expander) {
        this.expander = expander;
    }

    public void discover(EngineDiscoveryRequest request, LinkproofEngineDescriptor engine) {
        DiscoveryIssueReporter issues = DiscoveryIssueReporter.deduplicating(
                DiscoveryIssueReporter.forwarding(request.getDiscoveryListener(), engine.getUniqueId()));
        EngineDiscoveryRequestResolver.<LinkproofEngineDescriptor>builder()
                .addClassContainerSelectorResolver(TransferTestPredicates::isCandidateClass)
                .addSelectorResolver(ctx -> new TransferSelectorResolver(expander, issues, ctx.getClassNameFilter()))
                .build()
                .resolve(request, engine, issues);
    }
}
