package dev.linkproof.engine;

import dev.linkproof.engine.api.Direction;
import dev.linkproof.engine.config.Constants;
import dev.linkproof.engine.config.LinkproofConfiguration;
import dev.linkproof.engine.descriptor.FleetPairDescriptor;
import dev.linkproof.engine.descriptor.FleetPointDescriptor;
import dev.linkproof.engine.descriptor.LinkproofEngineDescriptor;
import dev.linkproof.engine.descriptor.SweepPointDescriptor;
import dev.linkproof.engine.discovery.LinkproofDiscovery;
import dev.linkproof.engine.discovery.SweepExpander;
import dev.linkproof.engine.judging.RunProfile;
import dev.linkproof.engine.reporting.ProgressPrinter;
import dev.linkproof.engine.reporting.RunReporter;
import dev.linkproof.engine.run.LinkproofExecutionContext;
import dev.linkproof.engine.run.RunSetup;
import dev.linkproof.engine.run.SessionProvider;
import dev.linkproof.transfer.spi.Transport;
import dev.linkproof.transfer.spi.Transports;
import java.util.List;
import java.util.Optional;
import org.junit.platform.engine.EngineDiscoveryRequest;
import org.junit.platform.engine.ExecutionRequest;
import org.junit.platform.engine.TestDescriptor;
import org.junit.platform.engine.UniqueId;
import org.junit.platform.engine.support.hierarchical.HierarchicalTestEngine;

/**
 * The {@value Constants#ENGINE_ID} test engine. Discovery loads the run once ({@link RunSetup}),
 * reporting what is wrong with it as discovery issues, and expands every {@code @TransferTest} sweep
 * into its points; execution runs them in order against one pair of ranks.
 */
public final class LinkproofTestEngine extends HierarchicalTestEngine<LinkproofExecutionContext> {
    @Override
    public String getId() {
        return Constants.ENGINE_ID;
    }

    @Override
    public Optional<String> getGroupId() {
        return Optional.of("dev.linkproof");
    }

    @Override
    public Optional<String> getArtifactId() {
        return Optional.of("junit-engine");
    }

    @Override
    public TestDescriptor discover(EngineDiscoveryRequest request, UniqueId uniqueId) {
        RunSetup setup = RunSetup.load(request.getConfigurationParameters(), outputRoot(request));
        setup.issues().forEach(issue -> request.getDiscoveryListener().issueEncountered(uniqueId, issue));
        LinkproofConfiguration config = setup.config();
        Transports transports = setup.transports();
        // With linkproof.nics=each / linkproof.gpus=each, a point per RDMA device the profile's plan
        // resolves on this host, or per GPU it provides.
        Optional<RunProfile> profile = setup.profile();
        List<String> nics =
                config.eachNic() ? profile.map(p -> p.placement().nicsForEach()).orElse(List.of()) : List.of();
        int gpus = config.eachGpu() ? profile.map(p -> p.placement().gpuCount()).orElse(0) : 0;
        SweepExpander expander = new SweepExpander(
                        config.defaultTransport(),
                        config.iterationScale(),
                        id -> transports.find(id).map(Transport::connectionNoun).orElse("conn"),
                        setup.defaults())
                .withGpuStaging(id ->
                        transports.find(id).map(Transport::stagesGpuMemory).orElse(false))
                .withNics(nics)
                .withRails(config.rails())
                .withDirection(config.bothWays().map(b -> b ? Direction.BOTH_WAYS : Direction.ONE_WAY))
                .withGpus(gpus);
        LinkproofEngineDescriptor engine = new LinkproofEngineDescriptor(uniqueId, setup);
        new LinkproofDiscovery(expander, setup.fleet().orElse(null)).discover(request, engine);
        return engine;
    }

    /**
     * The platform's output directory, where the run's files go that no key names. A launcher that
     * gives none (EngineTestKit refuses outputs unless a test configures them) gets JUnit's own
     * default rule: {@code target/} where there is one, else the working directory.
     */
    private static java.nio.file.Path outputRoot(EngineDiscoveryRequest request) {
        try {
            return request.getOutputDirectoryCreator().getRootDirectory();
        } catch (RuntimeException e) {
            return dev.linkproof.engine.config.LinkproofConfiguration.fallbackOutputRoot();
        }
    }

    @Override
    protected LinkproofExecutionContext createExecutionContext(ExecutionRequest request) {
        RunSetup setup = ((LinkproofEngineDescriptor) request.getRootTestDescriptor()).setup();
        LinkproofConfiguration config = setup.config();
        int points = (int) request.getRootTestDescriptor().getDescendants().stream()
                .filter(d -> d instanceof SweepPointDescriptor || d instanceof FleetPairDescriptor)
                .count();
        LinkproofExecutionContext context = new LinkproofExecutionContext(
                setup,
                new SessionProvider(config, setup.transports()),
                request.getEngineExecutionListener(),
                new ProgressPrinter(System.out, config.progress(), points),
                // No profile, no execution: a profile that did not load is an error-level discovery issue.
                new RunReporter(config, setup.profile().orElseThrow()));
        context.outputs(request.getOutputDirectoryCreator());
        context.fleet()
                .ifPresent(f -> f.points((int) request.getRootTestDescriptor().getDescendants().stream()
                        .filter(d -> d instanceof FleetPointDescriptor)
                        .count()));
        return context;
    }
}
