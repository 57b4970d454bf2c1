package dev.linkproof.conformance.bench;

import dev.linkproof.transfer.agent.AgentMain;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import picocli.CommandLine;

/**
 * bench/fleet-false-blame.sh's loopback fleet: one fleet agent per node name given, all in this JVM, each a whole
 * {@link AgentMain} as a node would run it ({@code --register HOST:PORT --node NAME --port 0}): it registers with the
 * coordinator's registry under its name, serves on its own port of the address that reached the registry
 * (127.0.0.1), initiates the pairs it is told to, and ends with the run. The token is {@code $LINKPROOF_TOKEN}.
 * Exits 0 when every agent ended well, else 1.
 *
 * <p>Usage: {@code LoopbackAgents HOST:PORT REGISTER_WITHIN NODE...}
 */
public final class LoopbackAgents {
    private LoopbackAgents() {}

    public static void main(String[] args) throws InterruptedException {
        if (args.length < 3) {
            System.err.println("usage: LoopbackAgents HOST:PORT REGISTER_WITHIN NODE...");
            System.exit(2);
        }
        String registry = args[0];
        String within = args[1];
        AtomicInteger failed = new AtomicInteger();
        List<Thread> agents = new ArrayList<>();
        for (int i = 2; i < args.length; i++) {
            String node = args[i];
            agents.add(Thread.ofPlatform().name("agent-" + node).start(() -> {
                int rc;
                try {
                    rc = new CommandLine(new AgentMain())
                            .execute(
                                    "--register", registry, "--node", node, "--port", "0", "--register-within", within);
                } catch (RuntimeException e) {
                    System.err.println("loopback agent " + node + ": " + e);
                    rc = 1;
                }
                if (rc != 0) {
                    failed.incrementAndGet();
                }
                System.err.println("loopback agent " + node + " ended, exit " + rc);
            }));
        }
        for (Thread t : agents) {
            t.join();
        }
        System.exit(failed.get() == 0 ? 0 : 1);
    }
}
