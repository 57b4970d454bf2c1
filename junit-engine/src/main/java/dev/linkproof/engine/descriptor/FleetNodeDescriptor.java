package dev.linkproof.engine.descriptor;

import dev.linkproof.engine.failure.PointFailure;
import dev.linkproof.engine.run.LinkproofExecutionContext;
import dev.linkproof.transfer.FailureKind;
import java.util.Optional;
import org.junit.platform.engine.UniqueId;
import org.junit.platform.engine.support.descriptor.AbstractTestDescriptor;
import org.junit.platform.engine.support.hierarchical.Node;

/** One expected node of a fleet: passes once its agent registered, fails naming why it did not. */
public final class FleetNodeDescriptor extends AbstractTestDescriptor implements Node<LinkproofExecutionContext> {
    public static final String SEGMENT = "node";
    private final String node;
    private final java.util.Set<org.junit.platform.engine.TestTag> tags;

    /** @param tags every tag of the run's fleet points: a tag filter that keeps any of them keeps the registrations */
    public FleetNodeDescriptor(UniqueId parent, String node, java.util.Set<org.junit.platform.engine.TestTag> tags) {
        super(parent.append(SEGMENT, node), "node " + node + " registers");
        this.node = node;
        this.tags = java.util.Set.copyOf(tags);
    }

    @Override
    public java.util.Set<org.junit.platform.engine.TestTag> getTags() {
        return tags;
    }

    @Override
    public Type getType() {
        return Type.TEST;
    }

    @Override
    public LinkproofExecutionContext execute(LinkproofExecutionContext context, DynamicTestExecutor executor) {
        Optional<String> why = context.fleet().orElseThrow().notRegistered(node);
        if (why.isPresent()) {
            throw new PointFailure(FailureKind.PEER_FAILURE, why.get());
        }
        return context;
    }
}
