package dev.linkproof.engine.descriptor;

import dev.linkproof.engine.run.LinkproofExecutionContext;
import org.junit.platform.engine.UniqueId;
import org.junit.platform.engine.support.descriptor.AbstractTestDescriptor;
import org.junit.platform.engine.support.hierarchical.Node;

/**
 * A fleet run's first container: the registry opens and waits for the expected nodes; each node is
 * a test of its own ({@link FleetNodeDescriptor}), so a node that never shows up is a failed test
 * ("node lpn4 did not register within 60s") and the run goes on with the rest.
 */
public final class FleetRegistrationDescriptor extends AbstractTestDescriptor
        implements Node<LinkproofExecutionContext> {
    public static final String SEGMENT = "fleet";
    public static final String VALUE = "registration";

    public FleetRegistrationDescriptor(UniqueId engineId) {
        super(engineId.append(SEGMENT, VALUE), "fleet registration");
    }

    @Override
    public Type getType() {
        return Type.CONTAINER;
    }

    @Override
    public LinkproofExecutionContext before(LinkproofExecutionContext context) throws Exception {
        context.fleet().orElseThrow().register();
        return context;
    }
}
