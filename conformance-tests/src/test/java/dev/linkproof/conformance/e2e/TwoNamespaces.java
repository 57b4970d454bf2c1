package dev.linkproof.conformance.e2e;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.linkproof.transfer.agent.AgentMain;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.TimeUnit;

/**
 * Two "hosts" for the end-to-end tests: two network namespaces joined by a veth pair, each end with its own address
 * (from TEST-NET-2, existing only inside these namespaces), an agent started in the target's and the engine in the
 * initiator's. Needs root and iproute2; {@link #create} skips the test with the reason otherwise. The target's end of
 * the link can be taken down and up again: a partition, with no RST or FIN to tell either side.
 *
 * @param name a short prefix for the namespaces and interfaces (interface names have at most 15 characters)
 */
record TwoNamespaces(String name, String targetAddr, String initiatorAddr) implements AutoCloseable {
    String targetNs() {
        return name + "-target";
    }

    String initiatorNs() {
        return name + "-initiator";
    }

    /** The target's end of the veth link. */
    String targetLink() {
        return name + "-t";
    }

    String initiatorLink() {
        return name + "-i";
    }

    /** Creates both namespaces and the link (after deleting what an earlier run left), or skips the test saying why. */
    static TwoNamespaces create(String name, String targetAddr, String initiatorAddr) throws Exception {
        assumeTrue(
                "root".equals(System.getProperty("user.name")),
                "needs root to create network namespaces (running as " + System.getProperty("user.name") + ")");
        assumeTrue(
                Files.isExecutable(Path.of("/usr/sbin/ip")) || Files.isExecutable(Path.of("/sbin/ip")),
                "needs iproute2's ip command");
        TwoNamespaces hosts = new TwoNamespaces(name, targetAddr, initiatorAddr);
        hosts.close();
        String t = hosts.targetNs();
        String i = hosts.initiatorNs();
        Result r = sh("ip netns add " + t + " && ip netns add " + i
                + " && ip link add " + hosts.targetLink() + " type veth peer name " + hosts.initiatorLink()
                + " && ip link set " + hosts.targetLink() + " netns " + t + " && ip link set " + hosts.initiatorLink()
                + " netns " + i
                + " && ip -n " + t + " addr add " + targetAddr + "/24 dev " + hosts.targetLink()
                + " && ip -n " + i + " addr add " + initiatorAddr + "/24 dev " + hosts.initiatorLink()
                + " && ip -n " + t + " link set " + hosts.targetLink() + " up && ip -n " + t + " link set lo up"
                + " && ip -n " + i + " link set " + hosts.initiatorLink() + " up && ip -n " + i + " link set lo up");
        if (r.code() != 0) {
            hosts.close();
        }
        assumeTrue(r.code() == 0, "cannot create network namespaces here: " + r.output());
        return hosts;
    }

    /** Deletes both namespaces (and with them the link); nothing when they are not there. */
    @Override
    public void close() throws Exception {
        sh("ip netns del " + targetNs() + " 2>/dev/null; ip netns del " + initiatorNs() + " 2>/dev/null; true");
    }

    /** Takes the target's end of the link down ({@code up} false) or up again. */
    void targetLink(boolean up) throws Exception {
        Result r = sh("ip -n " + targetNs() + " link set " + targetLink() + (up ? " up" : " down"));
        assertThat(r.code())
                .as("ip link set %s %s: %s", targetLink(), up ? "up" : "down", r.output())
                .isZero();
    }

    static String java() {
        return Path.of(System.getProperty("java.home"), "bin", "java").toString();
    }

    /** An agent running in the target's namespace, and its port. */
    record Agent(Process process, int port) implements AutoCloseable {
        @Override
        public void close() throws InterruptedException {
            process.destroyForcibly().waitFor(5, TimeUnit.SECONDS);
        }
    }

    /** Starts an agent on the target's address with {@code token}, its output copied to {@code log}; waits for its ready line. */
    Agent startAgent(String token, Path log) throws Exception {
        Process agent = new ProcessBuilder(
                        "ip",
                        "netns",
                        "exec",
                        targetNs(),
                        java(),
                        "--enable-native-access=ALL-UNNAMED",
                        "-Xmx256m",
                        "-cp",
                        System.getProperty("java.class.path"),
                        AgentMain.class.getName(),
                        "--bind=" + targetAddr,
                        "--port=0",
                        "--token=" + token)
                .redirectErrorStream(true)
                .start();
        String ready = awaitReady(agent, log);
        assertThat(ready).as("agent ready line").contains("host=" + targetAddr);
        return new Agent(agent, Integer.parseInt(ready.replaceAll(".* port=(\\d+).*", "$1")));
    }

    /**
     * The command that runs {@code fixture} on the engine in the initiator's namespace ({@link RemoteSweepMain}),
     * with {@code properties}.
     */
    List<String> initiatorCommand(Class<?> fixture, List<String> properties) {
        List<String> cmd = new ArrayList<>(List.of(
                "ip", "netns", "exec", initiatorNs(), java(), "--enable-native-access=ALL-UNNAMED", "-Xmx256m"));
        cmd.addAll(properties);
        cmd.addAll(List.of(
                "-cp", System.getProperty("java.class.path"), RemoteSweepMain.class.getName(), fixture.getName()));
        return cmd;
    }

    private String awaitReady(Process agent, Path log) throws Exception {
        BlockingQueue<String> ready = new ArrayBlockingQueue<>(1);
        Thread.ofPlatform().daemon().start(() -> {
            try (BufferedReader r =
                            new BufferedReader(new InputStreamReader(agent.getInputStream(), StandardCharsets.UTF_8));
                    var w = Files.newBufferedWriter(log)) {
                String line;
                while ((line = r.readLine()) != null) {
                    w.write(line + "\n");
                    w.flush();
                    if (line.startsWith(AgentMain.READY)) {
                        ready.offer(line);
                    }
                }
            } catch (IOException ignored) {
                // the agent's output is informational
            }
            ready.offer("");
        });
        String line = ready.poll(30, TimeUnit.SECONDS);
        assertThat(line)
                .as("agent in namespace " + targetNs() + " got ready within 30 s (see " + log + ")")
                .isNotBlank();
        return line;
    }

    record Result(int code, String output) {}

    static Result sh(String script) throws Exception {
        Process p =
                new ProcessBuilder("sh", "-c", script).redirectErrorStream(true).start();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        if (!p.waitFor(30, TimeUnit.SECONDS)) {
            p.destroyForcibly();
            return new Result(-1, "timed out: " + script);
        }
        return new Result(p.exitValue(), out);
    }
}
