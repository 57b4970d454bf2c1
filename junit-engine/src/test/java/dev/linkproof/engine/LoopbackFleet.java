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
                    Registration r = Registration.dial("127.0.0.1", registryPort, Duration.ofSeconds(30), line -> { });
                    synchronized (registrations) {
                        registrations.add(r);
                    }
                    r.register(new Messages.Register(token, FrameCodec.VERSION, node, "127.0.0.1", a.port(), 1, "test", null),
                            Duration.ofSeconds(10));
                } catch (Exception e) {
                    throw new IllegalStateException(e);
                }
            });
        }
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
