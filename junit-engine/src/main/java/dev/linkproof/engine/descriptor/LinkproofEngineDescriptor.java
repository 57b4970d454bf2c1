package dev.linkproof.engine.descriptor;

import dev.linkproof.engine.config.ConfigurationException;
import dev.linkproof.engine.run.LinkproofExecutionContext;
import dev.linkproof.engine.run.RunSetup;
import java.util.List;
import org.junit.platform.engine.UniqueId;
import org.junit.platform.engine.support.descriptor.EngineDescriptor;
import org.junit.platform.engine.support.hierarchical.Node;

/**
 * The root of a run. It keeps what discovery loaded once ({@link RunSetup}), starts the results
 * file before the first point and closes the pair once every point has run.
 */
public final class LinkproofEngineDescriptor extends EngineDescriptor implements Node<LinkproofExecutionContext> {
    private final RunSetup setup;

    public LinkproofEngineDescriptor(UniqueId id, RunSetup setup) {
        super(id, "Linkproof");
        this.setup = setup;
    }

    public RunSetup setup() {
        return setup;
    }

    /**
     * Starts the run. What was wrong before it (a bad key, a bad profile, …) was reported at discovery
     * as an error, which stops JUnit before any point; should a launcher be configured to run on
     * regardless ({@code junit.platform.discovery.issue.severity.critical}), the run fails here with the
     * same words instead. Then the local agent's environment, and last the results file: it replaces
     * the previous run's, which a run that stopped above leaves alone.
     */
    @Override
    public LinkproofExecutionContext before(LinkproofExecutionContext context) {
        if (!setup.problems().isEmpty()) {
            throw new ConfigurationException(setup.problems());
        }
        context.sessions().agentEnvironment(context.profile().placement().agentEnvironment());
        context.reporter().open();
        return context;
    }

    @Override
    public void after(LinkproofExecutionContext context) {
        try {
            // A fleet's agents stop when the registry says BYE: the launcher's step ends with the run.
            context.fleet().ifPresent(dev.linkproof.engine.run.FleetRun::close);
            context.sessions().close();
        } finally {
            try {
                context.reporter().close();
            } finally {
                List<String> warnings =
                        new java.util.ArrayList<>(context.reporter().warnings());
                setup.profile().flatMap(p -> p.fallbackWarning()).ifPresent(warnings::add);
                context.progress().summary(warnings);
            }
        }
    }
}
