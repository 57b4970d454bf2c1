package dev.linkproof.engine.descriptor;

import dev.linkproof.engine.execution.LinkproofExecutionContext;
import dev.linkproof.engine.execution.ProfileJudge;
import dev.linkproof.profiles.ProfileException;
import org.junit.platform.engine.UniqueId;
import org.junit.platform.engine.support.descriptor.EngineDescriptor;
import org.junit.platform.engine.support.hierarchical.Node;

/** The root of a run. It closes the pair once every point has run. */
public final class LinkproofEngineDescriptor extends EngineDescriptor implements Node<LinkproofExecutionContext> {
    public LinkproofEngineDescriptor(UniqueId id) {
        super(id, "Linkproof");
    }

    /**
     * Loads the hardware profile once, before any transfer. A malformed profile fails the whole run
     * here, naming file, line and column, and no point runs.
     */
    @Override
    public LinkproofExecutionContext before(LinkproofExecutionContext context) {
        try {
            ProfileJudge profile = ProfileJudge.load(context.config());
            context.reporter().useProfile(profile);
            context.sessions().agentEnvironment(profile.agentEnvironment());
        } catch (ProfileException e) {
            throw new ProfileException(e.location(), "configuration error: " + e.problem(), e);
        }
        return context;
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
