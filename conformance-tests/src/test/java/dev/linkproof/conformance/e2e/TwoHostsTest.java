package dev.linkproof.conformance.e2e;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.linkproof.conformance.e2e.fixtures.TwoHostWrites;
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
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * (d) Two hosts: two network namespaces joined by a veth pair. The agent runs in one
 * ({@value #TARGET_ADDR}), the engine in the other, with {@code linkproof.peer} pointing across;
 * a write sweep passes over the veth link. Needs root and iproute2; skips with the reason otherwise.
 * The addresses are from TEST-NET-2 and exist only inside the namespaces this test creates.
 */
@Tag("e2e")
class TwoHostsTest {
    static final String TARGET_NS = "lp-e2e-target";
    static final String INITIATOR_NS = "lp-e2e-initiator";
    static final String TARGET_ADDR = "198.51.100.1";
    static final String INITIATOR_ADDR = "198.51.100.2";

    private static boolean created;

    @BeforeAll
    static void createHosts() throws Exception {
        assumeTrue("root".equals(System.getProperty("user.name")), "needs root to create network namespaces (running as "
                + System.getProperty("user.name") + ")");
        assumeTrue(Files.isExecutable(Path.of("/usr/sbin/ip")) || Files.isExecutable(Path.of("/sbin/ip")),
                "needs iproute2's ip command");
        deleteHosts();
        Result r = sh("ip netns add " + TARGET_NS + " && ip netns add " + INITIATOR_NS
                + " && ip link add lp-e2e-t type veth peer name lp-e2e-i"
                + " && ip link set lp-e2e-t netns " + TARGET_NS + " && ip link set lp-e2e-i netns " + INITIATOR_NS
                + " && ip -n " + TARGET_NS + " addr add " + TARGET_ADDR + "/24 dev lp-e2e-t"
                + " && ip -n " + INITIATOR_NS + " addr add " + INITIATOR_ADDR + "/24 dev lp-e2e-i"
                + " && ip -n " + TARGET_NS + " link set lp-e2e-t up && ip -n " + TARGET_NS + " link set lo up"
                + " && ip -n " + INITIATOR_NS + " link set lp-e2e-i up && ip -n " + INITIATOR_NS + " link set lo up");
        assumeTrue(r.code == 0, "cannot create network namespaces here: " + r.output);
        created = true;
    }

    @AfterAll
    static void deleteHosts() throws Exception {
        sh("ip netns del " + TARGET_NS + " 2>/dev/null; ip netns del " + INITIATOR_NS + " 2>/dev/null; true");
    }

    @Test
    void writeSweepPassesAcrossTwoNamespaces() throws Exception {
        assumeTrue(created);
        String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        String cp = System.getProperty("java.class.path");
        String token = "two-hosts-" + Long.toHexString(System.nanoTime()) + "-token";
        Path agentLog = Path.of("target", "two-hosts-agent.log");

        Process agent = new ProcessBuilder("ip", "netns", "exec", TARGET_NS, java, "--enable-native-access=ALL-UNNAMED",
                "-Xmx256m", "-cp", cp, AgentMain.class.getName(), "--bind=" + TARGET_ADDR, "--port=0", "--token=" + token)
                .redirectErrorStream(true).start();
        try {
            String ready = awaitReady(agent, agentLog);
            assertThat(ready).as("agent ready line").contains("host=" + TARGET_ADDR);
            String port = ready.replaceAll(".* port=(\\d+).*", "$1");
            String peer = TARGET_ADDR + ":" + port;

            List<String> cmd = new ArrayList<>(List.of("ip", "netns", "exec", INITIATOR_NS, java,
                    "--enable-native-access=ALL-UNNAMED", "-Xmx256m",
                    "-Dlinkproof.peer=" + peer, "-Dlinkproof.token=" + token, "-Dlinkproof.profile=" + E2e.VALIDATION_ONLY,
                    "-Dallure.results.directory=" + Path.of("target", "two-hosts-allure-results").toAbsolutePath(),
                    "-cp", cp,
                    RemoteSweepMain.class.getName(), TwoHostWrites.class.getName()));
            Path initiatorLog = Path.of("target", "two-hosts-initiator.log");
            Process initiator = new ProcessBuilder(cmd).redirectErrorStream(true)
                    .redirectOutput(initiatorLog.toFile()).start();
            boolean done = initiator.waitFor(180, TimeUnit.SECONDS);
            if (!done) {
                initiator.destroyForcibly().waitFor(5, TimeUnit.SECONDS);
            }
            String out = Files.readString(initiatorLog);
            assertThat(done).as("initiator finished within 180 s; output:\n" + out).isTrue();
            assertThat(initiator.exitValue()).as("initiator output:\n" + out).isZero();
            // 7 sizes × 2 batch sizes × 2 connection counts; each point checks it ran against the peer
            // address, which the initiator's namespace reaches only over the veth link.
            assertThat(out).contains("remote-sweep: 28 passed, 0 failed, 0 skipped");
            assertThat(out).contains("PASS write 4 MiB ×8 · 2 conn · tcp");
        } finally {
            agent.destroyForcibly().waitFor(5, TimeUnit.SECONDS);
        }
    }

    private static String awaitReady(Process agent, Path log) throws Exception {
        BlockingQueue<String> ready = new ArrayBlockingQueue<>(1);
        Thread.ofPlatform().daemon().start(() -> {
            try (BufferedReader r = new BufferedReader(new InputStreamReader(agent.getInputStream(), StandardCharsets.UTF_8));
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
        assertThat(line).as("agent in namespace " + TARGET_NS + " got ready within 30 s (see " + log + ")").isNotBlank();
        return line;
    }

    private record Result(int code, String output) { }

    private static Result sh(String script) throws Exception {
        Process p = new ProcessBuilder("sh", "-c", script).redirectErrorStream(true).start();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        if (!p.waitFor(30, TimeUnit.SECONDS)) {
            p.destroyForcibly();
            return new Result(-1, "timed out: " + script);
        }
        return new Result(p.exitValue(), out);
    }
}
