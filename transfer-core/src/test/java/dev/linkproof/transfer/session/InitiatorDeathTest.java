package dev.linkproof.transfer.session;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.linkproof.transfer.Availability;
import dev.linkproof.transfer.measure.Measurement;
import dev.linkproof.transfer.spi.Transports;
import dev.linkproof.transfer.testing.Procs;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * An initiator JVM that dies in the middle of a point, by SIGTERM or SIGKILL, leaves nothing
 * behind: the agent it started exits within 2 s and its port no longer listens; an agent it did
 * not start (a remote one, {@code linkproof.peer}) frees everything of that session and serves the
 * next initiator. The initiator is {@link InitiatorMain}, the point one that would run for minutes.
 */
@Timeout(180)
class InitiatorDeathTest {
    /** How long after the initiator's death its agent may still be there. */
    private static final Duration AGENT_EXIT = Duration.ofSeconds(2);
    /** How far into the point the initiator is killed: past PREPARE and CONNECT, in the timed loop. */
    private static final long INTO_THE_POINT_MILLIS = 3000;

    @TempDir
    Path dir;

    @ParameterizedTest(name = "{0}, initiator {1}")
    @CsvSource({"tcp, SIGTERM", "tcp, SIGKILL", "ucx, SIGTERM", "ucx, SIGKILL"})
    void theLocalAgentExitsWithItsInitiator(String transport, String signal) throws Exception {
        assumeAvailable(transport);
        Path agentLog = dir.resolve("agent.log");
        Initiator initiator = Initiator.start(dir, List.of("local", transport, agentLog.toString()));
        long agentPid = -1;
        try {
            String ready = initiator.awaitLine("agent pid=", Duration.ofSeconds(60));
            agentPid = Long.parseLong(ready.replaceAll(".*pid=(\\d+).*", "$1"));
            int port = Integer.parseInt(ready.replaceAll(".*port=(\\d+).*", "$1"));
            assertThat(Procs.commandLine(agentPid)).contains("dev.linkproof.transfer.agent.AgentMain");
            assertThat(Procs.listening(port)).as("the agent listens on %d", port).isTrue();
            initiator.awaitLine("point started", Duration.ofSeconds(60));
            Thread.sleep(INTO_THE_POINT_MILLIS);
            assertThat(initiator.process().isAlive()).as("the initiator is still in its point").isTrue();

            long deadAt = initiator.kill(signal);
            long goneAt = awaitGone(agentPid, port, Duration.ofSeconds(15));
            double seconds = (goneAt - deadAt) / 1e9;
            System.out.printf("%s, initiator %s: agent %d gone and port %d closed %.3f s after the initiator died%n",
                    transport, signal, agentPid, port, seconds);
            assertThat(Procs.gone(agentPid) && !Procs.listening(port))
                    .as("agent %d (port %d) still there 15 s after its initiator's %s; its log:%n%s", agentPid, port, signal,
                            read(agentLog))
                    .isTrue();
            assertThat(seconds).as("seconds from the initiator's death to its agent's; agent log:%n%s", read(agentLog))
                    .isLessThan(AGENT_EXIT.toMillis() / 1000.0);
        } finally {
            initiator.process().destroyForcibly();
            killLeftover(agentPid);
        }
    }

    /**
     * A remote agent's initiator is SIGKILLed mid-point: the agent stays up, frees the session
     * (its sockets and descriptors back to what it held idle), and runs the next initiator's point.
     */
    @ParameterizedTest(name = "{0}")
    @ValueSource(strings = {"tcp", "ucx"})
    void aRemoteAgentFreesAVanishedInitiatorsSessionAndServesTheNext(String transport) throws Exception {
        assumeAvailable(transport);
        Path agentLog = dir.resolve("remote-agent.log");
        try (LocalAgent agent = LocalAgent.start(List.of("-Xmx128m"), agentLog, Duration.ofSeconds(60))) {
            // What the agent holds idle, once the transport's libraries are loaded and its first session is over.
            run(agent, transport, "warm-up");
            List<String> idle = awaitSettled(agent.pid(), Duration.ofSeconds(5));

            Initiator initiator = Initiator.start(dir, List.of("peer", transport, agent.host(),
                    Integer.toString(agent.port()), agent.token()));
            try {
                initiator.awaitLine("point started", Duration.ofSeconds(60));
                Thread.sleep(INTO_THE_POINT_MILLIS);
                assertThat(Procs.fds(agent.pid()).size()).as("the agent holds the point's resources").isGreaterThan(idle.size());
                initiator.kill("SIGKILL");
            } finally {
                initiator.process().destroyForcibly();
            }
            long deadline = System.nanoTime() + Duration.ofSeconds(10).toNanos();
            List<String> now = Procs.fds(agent.pid());
            while (!now.equals(idle) && System.nanoTime() < deadline) {
                Thread.sleep(50);
                now = Procs.fds(agent.pid());
            }
            assertThat(agent.alive()).as("the agent outlives a vanished initiator").isTrue();
            assertThat(now).as("the agent's descriptors 10 s after its initiator vanished, against those it held idle; log:%n%s",
                    read(agentLog)).isEqualTo(idle);
            String released = "the session from /127.0.0.1:\\d+ ended holding 1 point\\(s\\): released";
            while (!java.util.regex.Pattern.compile(released).matcher(read(agentLog)).find() && System.nanoTime() < deadline) {
                Thread.sleep(50); // logged after the release, then through the pipe into the log
            }
            assertThat(read(agentLog)).containsPattern(released);
            assertThat(run(agent, transport, "after").isValid()).as("the next initiator's point").isTrue();
        }
    }

    private static Measurement run(LocalAgent agent, String transport, String name) throws Exception {
        try (Session s = Session.open(agent.host(), agent.port(), agent.token(), Timeouts.DEFAULT)) {
            Measurement m = s.run(InitiatorMain.shortPoint(transport, "InitiatorDeathTest#" + name));
            assertThat(m.isValid()).as(name).isTrue();
            return m;
        }
    }

    /** The agent's descriptors once they stop changing (its session's sockets close after BYE). */
    private static List<String> awaitSettled(long pid, Duration max) throws InterruptedException {
        long deadline = System.nanoTime() + max.toNanos();
        List<String> last = Procs.fds(pid);
        while (System.nanoTime() < deadline) {
            Thread.sleep(300);
            List<String> now = Procs.fds(pid);
            if (now.equals(last)) {
                return now;
            }
            last = now;
        }
        return last;
    }

    private static void assumeAvailable(String transport) {
        Availability a = Transports.discover().require(transport).availability();
        assumeTrue(a.available(), () -> transport + " unavailable: " + a.reason());
    }

    /** Waits until the agent process is gone and its port closed; returns when (System.nanoTime). */
    private static long awaitGone(long pid, int port, Duration max) throws InterruptedException {
        long deadline = System.nanoTime() + max.toNanos();
        while (System.nanoTime() < deadline) {
            if (Procs.gone(pid) && !Procs.listening(port)) {
                return System.nanoTime();
            }
            Thread.sleep(20);
        }
        return System.nanoTime();
    }

    private static void killLeftover(long agentPid) {
        if (agentPid > 0 && Procs.commandLine(agentPid).contains("dev.linkproof.transfer.agent.AgentMain")) {
            ProcessHandle.of(agentPid).ifPresent(ProcessHandle::destroyForcibly);
        }
    }

    private static String read(Path log) {
        try {
            return Files.exists(log) ? Files.readString(log) : "(no log)";
        } catch (IOException e) {
            return "(unreadable: " + e + ")";
        }
    }

    /** The initiator JVM, with its output lines as they come. */
    private record Initiator(Process process, BlockingQueue<String> lines, List<String> seen) {
        static Initiator start(Path dir, List<String> args) throws IOException {
            List<String> cmd = new ArrayList<>(List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                    "--enable-native-access=ALL-UNNAMED", "-Xmx256m", "-XX:+UseSerialGC",
                    "-cp", System.getProperty("java.class.path"), InitiatorMain.class.getName()));
            cmd.addAll(args);
            Process p = new ProcessBuilder(cmd).directory(dir.toFile()).redirectErrorStream(true).start();
            BlockingQueue<String> lines = new LinkedBlockingQueue<>();
            List<String> seen = new java.util.concurrent.CopyOnWriteArrayList<>();
            Thread.ofPlatform().daemon().name("initiator-output").start(() -> {
                try (BufferedReader r = new BufferedReader(new InputStreamReader(p.getInputStream(), StandardCharsets.UTF_8))) {
                    for (String line; (line = r.readLine()) != null; ) {
                        seen.add(line);
                        lines.add(line);
                    }
                } catch (IOException e) {
                    // it was killed
                }
            });
            return new Initiator(p, lines, seen);
        }

        String awaitLine(String prefix, Duration max) throws InterruptedException {
            long deadline = System.nanoTime() + max.toNanos();
            while (true) {
                String line = lines.poll(Math.max(1, deadline - System.nanoTime()), TimeUnit.NANOSECONDS);
                if (line == null) {
                    throw new AssertionError("the initiator did not print '" + prefix + "' within " + max + "; it said:\n"
                            + String.join("\n", seen) + (process.isAlive() ? "" : "\n(exited with " + process.exitValue() + ")"));
                }
                if (line.startsWith(prefix)) {
                    return line;
                }
            }
        }

        /** Sends the signal, waits for the initiator's end and returns when it died (System.nanoTime). */
        long kill(String signal) throws InterruptedException {
            switch (signal) {
                case "SIGTERM" -> process.destroy();
                case "SIGKILL" -> process.destroyForcibly();
                default -> throw new IllegalArgumentException(signal);
            }
            assertThat(process.waitFor(20, TimeUnit.SECONDS)).as("the initiator ends on " + signal).isTrue();
            return System.nanoTime();
        }
    }
}
