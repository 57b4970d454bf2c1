package dev.linkproof.engine.descriptor;

import dev.linkproof.engine.execution.LinkproofExecutionContext;
import org.junit.platform.engine.UniqueId;
import org.junit.platform.engine.support.descriptor.EngineDescriptor;
import org.junit.platform.engine.support.hierarchical.Node;

/** The root of a run. It closes the pair once every point has run. */
public final class LinkproofEngineDescriptor extends EngineDescriptor implements Node<LinkproofExecutionContext> {
    public LinkproofEngineDescriptor(UniqueId id) {
        super(id, "Linkproof");
    }

    @Override
    public void after(LinkproofExecutionContext context) {
        try {
            context.sessions().close();
        } finally {
            context.reporter().close();
        }
    }
}
