package dev.linkproof.engine.descriptor;

import dev.linkproof.engine.ConfigurationException;
import dev.linkproof.engine.Constants;
import dev.linkproof.engine.execution.LinkproofExecutionContext;
import dev.linkproof.engine.execution.ProfileJudge;
import dev.linkproof.profiles.ProfileException;
import java.util.List;
import org.junit.platform.engine.UniqueId;
import org.junit.platform.engine.support.descriptor.EngineDescriptor;
import org.junit.platform.engine.support.hierarchical.Node;

/** The root of a run. It closes the pair once every point has run. */
public final class LinkproofEngineDescriptor extends EngineDescriptor implements Node<LinkproofExecutionContext> {
    /** Keys with bad values, found at discovery ("linkproof.iterations.scale=0 must be ..."). */
    private final List<String> configurationErrors;

    public LinkproofEngineDescriptor(UniqueId id, List<String> configurationErrors) {
        super(id, "Linkproof");
        this.configurationErrors = List.copyOf(configurationErrors);
    }

    /**
     * Fails the run on a configuration key with a bad value, then loads the hardware profile once,
     * before any transfer. A malformed profile fails the whole run here, naming file, line and
     * column, and no point runs. Then reads the baseline and starts the results file
     * ({@link dev.linkproof.engine.execution.RunReporter#open}).
     */
    @Override
    public LinkproofExecutionContext before(LinkproofExecutionContext context) {
        if (!configurationErrors.isEmpty()) {
            throw new ConfigurationException(configurationErrors);
        }
        try {
            ProfileJudge profile = ProfileJudge.load(context.config());
            if (context.config().requireProfileMatch()) {
                profile.fallbackWarning().ifPresent(w -> {
                    throw new ConfigurationException(List.of(Constants.REQUIRE_PROFILE_MATCH + "=true, and " + w));
                });
            }
            context.reporter().useProfile(profile);
            context.sessions().agentEnvironment(profile.agentEnvironment());
        } catch (ProfileException e) {
            throw new ProfileException(e.location(), "configuration error: " + e.problem(), e);
        }
        // Last: it replaces the previous run's results, which a run that stopped above leaves alone.
        context.reporter().open();
        return context;
    }

    @Override
    public void after(LinkproofExecutionContext context) {
        try {
            context.sessions().close();
        } finally {
            try {
                context.reporter().close();
            } finally {
                var profile = context.reporter().profile();
                context.progress().summary(profile == null ? java.util.List.of() : profile.fallbackWarning().stream().toList());
            }
        }
    }
}
