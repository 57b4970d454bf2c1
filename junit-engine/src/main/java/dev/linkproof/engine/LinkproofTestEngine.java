package dev.linkproof.engine;

import dev.linkproof.engine.descriptor.LinkproofEngineDescriptor;
import dev.linkproof.engine.descriptor.SweepPointDescriptor;
import dev.linkproof.engine.discovery.LinkproofDiscovery;
import dev.linkproof.engine.discovery.SweepExpander;
import dev.linkproof.engine.execution.LinkproofExecutionContext;
import dev.linkproof.engine.execution.ProgressPrinter;
import dev.linkproof.engine.execution.RunReporter;
import dev.linkproof.engine.execution.SessionProvider;
import dev.linkproof.transfer.spi.Transport;
import dev.linkproof.transfer.spi.Transports;
import java.util.Optional;
import org.junit.platform.engine.EngineDiscoveryRequest;
import org.junit.platform.engine.ExecutionRequest;
import org.junit.platform.engine.TestDescriptor;
import org.junit.platform.engine.UniqueId;
import org.junit.platform.engine.support.hierarchical.HierarchicalTestEngine;

/**
 * The {@value Constants#ENGINE_ID} test engine. Discovery expands every {@code @TransferTest} sweep
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
        // A bad value is the run's error, reported when it executes (LinkproofEngineDescriptor#before):
        // thrown here, Surefire would print only "failed to discover tests".
        LinkproofConfiguration.Parsed parsed = LinkproofConfiguration.parse(request.getConfigurationParameters());
        LinkproofConfiguration config = parsed.config();
        Transports transports = Transports.discover();
        DiscoveryProfile profile = DiscoveryProfile.of(config);
        SweepExpander expander = new SweepExpander(config.defaultTransport(), config.iterationScale(),
                id -> transports.find(id).map(Transport::connectionNoun).orElse("conn"), profile.defaults())
                .withGpuStaging(id -> transports.find(id).map(Transport::stagesGpuMemory).orElse(false))
                .withNics(profile.nics())
                .withGpus(profile.gpus());
        java.util.List<String> errors = new java.util.ArrayList<>(parsed.errors());
        // Every point of a transport not on the class path is skipped: a misspelt key would skip them
        // all and leave the build green.
        if (transports.find(config.defaultTransport()).isEmpty()) {
            errors.add(Constants.TRANSPORT + "=" + config.defaultTransport() + " names no transport on the class path (known: "
                    + String.join(", ", new java.util.TreeSet<>(transports.all().keySet())) + ")");
        }
        // Likewise a GPU runtime that is none of the four: every GPU point would skip naming it.
        dev.linkproof.transfer.gpu.select.GpuRuntimes.configurationProblem().ifPresent(errors::add);
        LinkproofEngineDescriptor engine = new LinkproofEngineDescriptor(uniqueId, errors);
        new LinkproofDiscovery(expander).discover(request, engine);
        return engine;
    }

    /**
     * What discovery takes from the run's profile: its defaults for what annotations leave unset and,
     * with {@code linkproof.nics=each} / {@code linkproof.gpus=each}, the RDMA devices its plan resolves
     * on this host and how many GPUs it provides (a point per device). A profile that does not load gives neither here: the run reports its error, with file,
     * line and column, before any point runs.
     */
    private record DiscoveryProfile(dev.linkproof.profiles.Defaults defaults, java.util.List<String> nics, int gpus) {
        static DiscoveryProfile of(LinkproofConfiguration config) {
            try {
                if (!config.eachNic() && !config.eachGpu()) {
                    // Only the defaults: a profile named on the command line is then loaded without probing the host.
                    return new DiscoveryProfile(new dev.linkproof.profiles.ProfileLoader(config.profileProperties()).load()
                            .profile().defaults(), java.util.List.of(), 0);
                }
                dev.linkproof.engine.execution.ProfileJudge judge = dev.linkproof.engine.execution.ProfileJudge.load(config);
                return new DiscoveryProfile(judge.defaults(), config.eachNic() ? judge.nicsForEach() : java.util.List.of(),
                        config.eachGpu() ? judge.gpuCount() : 0);
            } catch (RuntimeException e) {
                return new DiscoveryProfile(dev.linkproof.profiles.Defaults.NONE, java.util.List.of(), 0);
            }
        }
    }

    @Override
    protected LinkproofExecutionContext createExecutionContext(ExecutionRequest request) {
        // Bad values read as their defaults here; the engine descriptor fails the run on them before any point.
        LinkproofConfiguration config = LinkproofConfiguration.parse(request.getConfigurationParameters()).config();
        int points = (int) request.getRootTestDescriptor().getDescendants().stream()
                .filter(d -> d instanceof SweepPointDescriptor).count();
        return new LinkproofExecutionContext(config, new SessionProvider(config), Transports.discover(),
                request.getEngineExecutionListener(), new ProgressPrinter(System.out, config.progress(), points),
                new RunReporter(config));
    }
}
