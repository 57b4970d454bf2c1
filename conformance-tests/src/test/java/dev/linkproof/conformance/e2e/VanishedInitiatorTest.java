package dev.linkproof.conformance.e2e;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.linkproof.transfer.agent.AgentMain;
import dev.linkproof.transfer.session.InitiatorMain;
import dev.linkproof.transfer.testing.Procs;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * A remote agent whose initiator's host vanishes in the middle of a point, without a FIN or an RST
 * (its link goes down, then the initiator dies): the agent notices through TCP keepalive, frees the
 * session (back to the sockets it held idle) and serves the next initiator once the link is
 * back. Two network namespaces joined by a veth pair, as in {@link TwoHostsTest}; needs root and
 * iproute2, skips with the reason otherwise. A closed connection (the initiator's process killed,
 * its host up) is {@code InitiatorDeathTest}'s, in transfer-core.
 */
@Tag("e2e")
@Timeout(240)
class VanishedInitiatorTest {
    private static final String TARGET_NS = "lp-vanish-t";
    private static final String INITIATOR_NS = "lp-vanish-i";
    /** TEST-NET-1 (RFC 5737), inside the namespaces only. */
    private static final String TARGET_ADDR = "192.0.2.1";

    private static final String INITIATOR_ADDR = "192.0.2.2";
    private static final String TOKEN = "vanished-initiator-test-token";
    /** Keepalive: 10 s idle, then 3 probes 3 s apart (AgentServer); the rest is slack for a loaded machine. */
    private static final int NOTICED_WITHIN_SECONDS = 40;

    @TempDir
    Path dir;

    private final List<Process> started = new ArrayList<>();

    @BeforeEach
    void createHosts() throws Exception {
        assumeTrue("root".equals(System.getProperty("user.name")), "needs root to create network namespaces");
        assumeTrue(
                Files.isExecutable(Path.of("/usr/sbin/ip")) || Files.isExecutable(Path.of("/sbin/ip")),
                "needs iproute2's ip");
        deleteHosts();
        String r = sh("ip netns add " + TARGET_NS + " && ip netns add " + INITIATOR_NS
                + " && ip link add " + TARGET_NS + " type veth peer name " + INITIATOR_NS
                + " && ip link set " + TARGET_NS + " netns " + TARGET_NS + " && ip link set " + INITIATOR_NS + " netns "
                + INITIATOR_NS
                + " && ip -n " + TARGET_NS + " addr add " + TARGET_ADDR + "/24 dev " + TARGET_NS
                + " && ip -n " + INITIATOR_NS + " addr add " + INITIATOR_ADDR + "/24 dev " + INITIATOR_NS
                + " && ip -n " + TARGET_NS + " link set " + TARGET_NS + " up && ip -n " + TARGET_NS + " link set lo up"
                + " && ip -n " + INITIATOR_NS + " link set " + INITIATOR_NS + " up && ip -n " + INITIATOR_NS
                + " link set lo up"
                + " && echo created");
        assumeTrue(r.contains("created"), "cannot create network namespaces here: " + r);
    }

    @AfterEach
    void deleteHosts() throws Exception {
        for (Process p : started) {
            p.toHandle().descendants().forEach(ProcessHandle::destroyForcibly);
            p.destroyForcibly();
        }
        sh("ip netns del " + TARGET_NS + " 2>/dev/null; ip netns del " + INITIATOR_NS + " 2>/dev/null; true");
    }

    @Test
    void aRemoteAgentFreesTheSessionOfAnInitiatorWhoseHostVanished() throws Exception {
        String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        String cp = System.getProperty("java.class.path");
        Path agentLog = dir.resolve("agent.log");
        start(
                agentLog,
                "ip",
                "netns",
                "exec",
                TARGET_NS,
                java,
                "--enable-native-access=ALL-UNNAMED",
                "-Xmx128m",
                "-cp",
                cp,
                AgentMain.class.getName(),
                "--bind=" + TARGET_ADDR,
                "--port=0",
                "--token=" + TOKEN);
        String ready = awaitLine(agentLog, AgentMain.READY, 60);
        long agentPid = Long.parseLong(ready.replaceAll(".* pid=(\\d+).*", "$1"));
        String port = ready.replaceAll(".* port=(\\d+).*", "$1");
        // What the agent holds idle once it has served a session: the baseline it must return to.
        runOnce(dir.resolve("warm-up.out"), java, cp, port);
        long idle = settledSockets(agentPid);

        Path first = dir.resolve("first.out");
        Process initiator = start(
                first,
                "ip",
                "netns",
                "exec",
                INITIATOR_NS,
                java,
                "--enable-native-access=ALL-UNNAMED",
                "-Xmx128m",
                "-cp",
                cp,
                InitiatorMain.class.getName(),
                "peer",
                "tcp",
                TARGET_ADDR,
                port,
                TOKEN);
        awaitLine(first, "point started", 60);
        Thread.sleep(3000);
        assertThat(Procs.sockets(agentPid)).as("the agent serves the point").isGreaterThan(idle);

        // The host vanishes: its link goes first, so nothing the initiator's kernel sends arrives.
        assertThat(sh("ip -n " + INITIATOR_NS + " link set " + INITIATOR_NS + " down && echo down"))
                .contains("down");
        initiator.toHandle().descendants().forEach(ProcessHandle::destroyForcibly);
        initiator.destroyForcibly().waitFor();
        long vanished = System.nanoTime();
        long deadline = vanished + 60_000_000_000L;
        while (Procs.sockets(agentPid) > idle && System.nanoTime() < deadline) {
            Thread.sleep(200);
        }
        double seconds = (System.nanoTime() - vanished) / 1e9;
        System.out.printf("the agent freed the vanished initiator's session %.1f s after it vanished%n", seconds);
        assertThat(Procs.sockets(agentPid))
                .as("the agent's sockets 60 s after its initiator vanished; log:%n%s", Files.readString(agentLog))
                .isEqualTo(idle);
        assertThat(seconds).isLessThan(NOTICED_WITHIN_SECONDS);
        awaitLine(agentLog, "ended holding 1 point(s): released", 10);

        assertThat(sh("ip -n " + INITIATOR_NS + " link set " + INITIATOR_NS + " up && echo up"))
                .contains("up");
        runOnce(dir.resolve("next.out"), java, cp, port);
    }

    /** An initiator in the other namespace that runs one short validated point. */
    private void runOnce(Path out, String java, String cp, String port) throws Exception {
        Process p = start(
                out,
                "ip",
                "netns",
                "exec",
                INITIATOR_NS,
                java,
                "--enable-native-access=ALL-UNNAMED",
                "-Xmx128m",
                "-cp",
                cp,
                InitiatorMain.class.getName(),
                "peer-once",
                "tcp",
                TARGET_ADDR,
                port,
                TOKEN);
        assertThat(p.waitFor(120, TimeUnit.SECONDS)).isTrue();
        assertThat(Files.readString(out)).as("an initiator's short point").contains("point passed");
        assertThat(p.exitValue()).isZero();
    }

    /** The agent's socket count once it stops changing (a session's sockets close after its BYE). */
    private static long settledSockets(long pid) throws InterruptedException {
        long last = Procs.sockets(pid);
        for (int i = 0; i < 20; i++) {
            Thread.sleep(300);
            long now = Procs.sockets(pid);
            if (now == last) {
                return now;
            }
            last = now;
        }
        return last;
    }

    private Process start(Path output, String... cmd) throws Exception {
        Process p = new ProcessBuilder(cmd)
                .redirectErrorStream(true)
                .redirectOutput(output.toFile())
                .start();
        started.add(p);
        return p;
    }

    private static String awaitLine(Path file, String part, int seconds) throws Exception {
        long deadline = System.nanoTime() + seconds * 1_000_000_000L;
        while (System.nanoTime() < deadline) {
            if (Files.exists(file)) {
                for (String line : Files.readAllLines(file)) {
                    if (line.contains(part)) {
                        return line;
                    }
                }
            }
            Thread.sleep(100);
        }
        throw new AssertionError("no '" + part + "' in " + file + " within " + seconds + " s:\n"
                + (Files.exists(file) ? Files.readString(file) : "(none)"));
    }

    private static String sh(String script) throws Exception {
        Process p =
                new ProcessBuilder("sh", "-c", script).redirectErrorStream(true).start();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        p.waitFor(30, TimeUnit.SECONDS);
        return out;
    }
}
