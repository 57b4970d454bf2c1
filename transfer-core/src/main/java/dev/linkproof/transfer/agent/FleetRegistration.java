package dev.linkproof.transfer.agent;

import dev.linkproof.transfer.TransferException;
import dev.linkproof.transfer.Units;
import dev.linkproof.transfer.control.FrameCodec;
import dev.linkproof.transfer.control.Messages;
import dev.linkproof.transfer.control.RemoteErrorException;
import java.io.PrintWriter;
import java.time.Duration;
import picocli.CommandLine;
import picocli.CommandLine.ParameterException;

/**
 * {@link AgentMain}'s {@code --register}: where the coordinator's registry is, which node this is, and
 * once dialled, the registration and the watch that stops the agent when the run ends.
 */
record FleetRegistration(String host, int port, Duration within, String node, Registration dialled) {
    /** How long the registry has to answer REGISTER once connected. */
    static final Duration ANSWER_WITHIN = Duration.ofSeconds(10);

    static FleetRegistration of(CommandLine cli, String register, String within, String node) {
        dev.linkproof.transfer.control.HostPort registry;
        try {
            registry = dev.linkproof.transfer.control.HostPort.parse(
                    register, java.util.OptionalInt.of(dev.linkproof.transfer.control.HostPort.REGISTRY_PORT), 1);
        } catch (IllegalArgumentException e) {
            throw new ParameterException(cli, "--register (the coordinator's registry): " + e.getMessage());
        }
        Duration d;
        try {
            d = Units.parseDuration(within);
        } catch (IllegalArgumentException e) {
            throw new ParameterException(cli, "--register-within " + within + ": bad duration (e.g. 120s, 2m, 500ms)");
        }
        if (d.isZero() || d.isNegative()) {
            throw new ParameterException(cli, "--register-within " + within + " must be positive");
        }
        try {
            new Messages.Register(
                    "x".repeat(AgentServer.MIN_TOKEN_LENGTH), FrameCodec.VERSION, node, "0.0.0.0", 1, 1, "", null);
        } catch (IllegalArgumentException e) {
            throw new ParameterException(cli, "--node: " + e.getMessage());
        }
        return new FleetRegistration(registry.host(), registry.port(), d, node, null);
    }

    /**
     * The machine this agent runs on when the node is not one: {@code $LINKPROOF_MACHINE}, or a
     * Kubernetes pod's node ({@code $LINKPROOF_K8S_NODE_NAME}, which the manifest sets from the downward
     * API's {@code spec.nodeName}); null elsewhere, the node being the machine.
     */
    static String machine() {
        for (String env : new String[] {MACHINE_ENV, K8S_NODE_ENV}) {
            String v = System.getenv(env);
            if (v != null && !v.isBlank()) {
                return v.strip();
            }
        }
        return null;
    }

    static final String MACHINE_ENV = "LINKPROOF_MACHINE";
    static final String K8S_NODE_ENV = "LINKPROOF_K8S_NODE_NAME";

    FleetRegistration dialled(Registration registration) {
        return new FleetRegistration(host, port, within, node, registration);
    }

    /**
     * Says where {@code server} serves, then watches the registration on a thread of its own: when
     * the run ends, the agent stops (its shutdown hook releases every session). False, with the
     * reason on {@code err}, when the registry refused the node.
     */
    boolean register(AgentServer server, String token, PrintWriter err) {
        Messages.Registered registered;
        try {
            registered = dialled.register(
                    new Messages.Register(
                            token,
                            FrameCodec.VERSION,
                            node,
                            dialled.localAddress(),
                            server.port(),
                            ProcessHandle.current().pid(),
                            AgentMain.VERSION,
                            machine()),
                    ANSWER_WITHIN);
        } catch (RemoteErrorException e) {
            err.println(
                    "linkproof-agent: node " + node + ": the coordinator refused the registration: " + e.getMessage());
            err.flush();
            dialled.close();
            return false;
        } catch (TransferException e) {
            err.println("linkproof-agent: node " + node + ": registration with " + host + ":" + port + " failed: "
                    + e.getMessage());
            err.flush();
            dialled.close();
            return false;
        }
        System.err.println("linkproof-agent: node " + registered.node() + " registered with the coordinator "
                + registered.coordinator() + " at " + host + ":" + port + "; serving on " + dialled.localAddress() + ":"
                + server.port());
        System.err.flush();
        Thread.ofPlatform().daemon().name("agent-registration").start(() -> {
            String why = dialled.awaitEnd();
            System.err.println("linkproof-agent: " + why + "; stopping");
            System.err.flush();
            System.exit(0); // runs the shutdown hook
        });
        return true;
    }
}
