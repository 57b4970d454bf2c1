package dev.linkproof.engine;

import dev.linkproof.transfer.agent.AgentServer;
import dev.linkproof.transfer.agent.Registration;
import dev.linkproof.transfer.control.FrameCodec;
import dev.linkproof.transfer.control.Messages;
import dev.linkproof.transfer.spi.IoSettings;
import java.net.ServerSocket;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

/**
 * A fleet's agents in this JVM on loopback, each registering with the engine's registry as a
 * launcher's agent would: on a thread of its own, dialling until the registry listens. For the
 * engine's fleet tests (FleetEngineTest, PrometheusExportTest); closing stops them all.
 */
final class LoopbackFleet implements AutoCloseable {
    private final String token;
    private final List<AgentServer> agents = new ArrayList<>();
    private final List<Registration> registrations = new ArrayList<>();

    LoopbackFleet(String token) {
        this.token = token;
    }

    static int freePort() throws Exception {
        try (ServerSocket s = new ServerSocket(0)) {
            return s.getLocalPort();
        }
    }

    /** An agent per node, registering with the registry on {@code registryPort}. */
    void start(int registryPort, String... nodes) throws Exception {
        for (String node : nodes) {
            AgentServer a = AgentServer.start("127.0.0.1", 0, token, IoSettings.DEFAULT);
            agents.add(a);
            Thread.ofVirtual().start(() -> {
                try {
                    Registration r = Registration.dial("127.0.0.1", registryPort, Duration.ofSeconds(30), line -> {});
                    synchronized (registrations) {
                        registrations.add(r);
                    }
                    r.register(
                            new Messages.Register(
                                    token, FrameCodec.VERSION, node, "127.0.0.1", a.port(), 1, "test", null),
                            Duration.ofSeconds(10));
                } catch (Exception e) {
                    throw new IllegalStateException(e);
                }
            });
        }
    }

    /**
     * The keys of a fleet run of {@code nodes} (comma-separated) against these agents: the registry on
     * {@code registryPort}, the token, the verdict and results files in {@code dir}, no progress lines,
     * and fleet-relative rules too loose to judge loopback pairs, which a shared CI machine makes vary
     * far more than a fabric's (they are not what these tests are about).
     */
    java.util.Map<String, String> config(
            int registryPort, String nodes, java.nio.file.Path dir, String registerWithin) {
        java.util.Map<String, String> config = new java.util.HashMap<>();
        config.put(dev.linkproof.engine.config.Constants.FLEET, "nodes:" + nodes);
        config.put(dev.linkproof.engine.config.Constants.FLEET_REGISTRY, "127.0.0.1:" + registryPort);
        config.put(dev.linkproof.engine.config.Constants.FLEET_REGISTER_WITHIN, registerWithin);
        config.put(dev.linkproof.engine.config.Constants.TOKEN, token);
        config.put(
                dev.linkproof.engine.config.Constants.FLEET_VERDICT,
                dir.resolve("fleet-verdict.json").toString());
        config.put(
                dev.linkproof.engine.config.Constants.RESULTS,
                dir.resolve("results.jsonl").toString());
        config.put(dev.linkproof.engine.config.Constants.FLEET_MIN_OF_MEDIAN, "0.01");
        config.put(dev.linkproof.engine.config.Constants.FLEET_MAX_OF_LOWEST, "1000");
        config.put(dev.linkproof.engine.config.Constants.PROGRESS, "false");
        return config;
    }

    /** The registrations so far. */
    List<Registration> registrations() {
        synchronized (registrations) {
            return List.copyOf(registrations);
        }
    }

    @Override
    public void close() {
        registrations().forEach(Registration::close);
        agents.forEach(AgentServer::close);
    }
}
