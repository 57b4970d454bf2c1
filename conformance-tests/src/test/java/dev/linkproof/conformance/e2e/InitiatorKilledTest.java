package dev.linkproof.conformance.e2e;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.linkproof.conformance.e2e.fixtures.InitiatorKilledSweeps;
import dev.linkproof.transfer.Availability;
import dev.linkproof.transfer.spi.Transports;
import dev.linkproof.transfer.testing.Procs;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * The engine's JVM (here {@link RemoteSweepMain}, as a Surefire fork would be) is sent SIGTERM or
 * SIGKILL in the middle of a point: the local agent it started is gone, and its port closed, within
 * 2 s of its death. Before the agent watched its initiator, it stayed, listening, with PPID 1.
 */
@Tag("e2e")
@Timeout(240)
class InitiatorKilledTest {
    private static final double AGENT_EXIT_SECONDS = 2;

    @TempDir
    Path dir;

    @ParameterizedTest(name = "{0}, engine JVM {1}")
    @CsvSource({"tcp, SIGTERM", "tcp, SIGKILL", "ucx, SIGTERM", "ucx, SIGKILL"})
    void theAgentGoesWithTheEngine(String transport, String signal) throws Exception {
        Availability a = Transports.discover().require(transport).availability();
        assumeTrue(a.available(), () -> transport + " unavailable: " + a.reason());
        Class<?> fixture = transport.equals("tcp") ? InitiatorKilledSweeps.Tcp.class : InitiatorKilledSweeps.Ucx.class;
        Path agentLog = dir.resolve("agent.log");
        Path out = dir.resolve("engine.out");
        Process engine = new ProcessBuilder(List.of(
                        Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                        "--enable-native-access=ALL-UNNAMED",
                        "-Xmx256m",
                        "-Dlinkproof.profile=" + E2e.VALIDATION_ONLY,
                        "-Dlinkproof.agent.log=" + agentLog,
                        "-cp",
                        System.getProperty("java.class.path"),
                        RemoteSweepMain.class.getName(),
                        fixture.getName()))
                .directory(dir.toFile())
                .redirectErrorStream(true)
                .redirectOutput(out.toFile())
                .start();
        long agentPid = -1;
        try {
            ProcessHandle agent = awaitAgent(engine, out);
            agentPid = agent.pid();
            int port = awaitPort(agentLog);
            Thread.sleep(3000); // into the point: the agent is ready before the point is prepared
            assertThat(engine.isAlive())
                    .as("the engine is still in its point; it said:%n%s", Files.readString(out))
                    .isTrue();
            assertThat(Procs.listening(port)).isTrue();

            switch (signal) {
                case "SIGTERM" -> engine.destroy();
                case "SIGKILL" -> engine.destroyForcibly();
                default -> throw new IllegalArgumentException(signal);
            }
            assertThat(engine.waitFor(30, TimeUnit.SECONDS)).isTrue();
            long died = System.nanoTime();
            long deadline = died + 15_000_000_000L;
            while ((!Procs.gone(agentPid) || Procs.listening(port)) && System.nanoTime() < deadline) {
                Thread.sleep(20);
            }
            double seconds = (System.nanoTime() - died) / 1e9;
            System.out.printf(
                    "%s, engine JVM %s: agent %d gone, port %d closed %.3f s after the engine died%n",
                    transport, signal, agentPid, port, seconds);
            assertThat(Procs.gone(agentPid))
                    .as("agent %d still runs 15 s after its engine's %s", agentPid, signal)
                    .isTrue();
            assertThat(Procs.listening(port)).as("port %d still listens", port).isFalse();
            assertThat(seconds)
                    .as("seconds from the engine's death to its agent's")
                    .isLessThan(AGENT_EXIT_SECONDS);
        } finally {
            engine.destroyForcibly();
            if (agentPid > 0 && Procs.commandLine(agentPid).contains("dev.linkproof.transfer.agent.AgentMain")) {
                ProcessHandle.of(agentPid).ifPresent(ProcessHandle::destroyForcibly);
            }
        }
    }

    /** The agent the engine started: its child running AgentMain. */
    private static ProcessHandle awaitAgent(Process engine, Path out) throws Exception {
        long deadline = System.nanoTime() + 60_000_000_000L;
        while (System.nanoTime() < deadline && engine.isAlive()) {
            Optional<ProcessHandle> agent = engine.toHandle()
                    .children()
                    .filter(p -> p.info().commandLine().orElse("").contains("dev.linkproof.transfer.agent.AgentMain"))
                    .findFirst();
            if (agent.isPresent()) {
                return agent.get();
            }
            Thread.sleep(50);
        }
        throw new AssertionError("the engine started no agent; it said:\n" + Files.readString(out));
    }

    private static int awaitPort(Path agentLog) throws Exception {
        long deadline = System.nanoTime() + 60_000_000_000L;
        while (System.nanoTime() < deadline) {
            for (String line : lines(agentLog)) {
                if (line.startsWith("linkproof-agent ready")) {
                    return Integer.parseInt(line.replaceAll(".*port=(\\d+).*", "$1"));
                }
            }
            Thread.sleep(50);
        }
        throw new AssertionError("the agent printed no ready line: " + lines(agentLog));
    }

    private static List<String> lines(Path p) throws IOException {
        return Files.exists(p) ? Files.readAllLines(p) : List.of();
    }
}
