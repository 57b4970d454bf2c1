package dev.linkproof.transfer.session;

import static org.assertj.core.api.Assertions.assertThat;

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

/**
 * The check of {@link InitiatorDeathTest}, for any transport and any host: an initiator JVM
 * ({@link InitiatorMain}) starts its own agent and a point that would run for minutes, is killed in
 * its timed loop, and its agent must be gone, its port closed, within a bound, its own log ending
 * with why it stopped. Public so that the
 * Soft-RoCE VM's suite runs it for verbs (conformance-tests' VerbsInitiatorDeath), with the guest's
 * JVM flags.
 */
public final class InitiatorDeathCheck {
    /** How far into the point the initiator is killed: past PREPARE and CONNECT, in the timed loop. */
    static final long INTO_THE_POINT_MILLIS = 3000;

    private InitiatorDeathCheck() {}

    /**
     * Kills an initiator of {@code transport} with {@code signal} in its point, and asserts its agent
     * and the agent's port are gone within {@code agentExit}; prints the time it took.
     *
     * @param jvmFlags more flags for the initiator's JVM and its agent's (the VM's guest flags)
     */
    public static void localAgentExitsWithItsInitiator(
            Path dir, String transport, String signal, List<String> jvmFlags, Duration agentExit) throws Exception {
        Path agentLog = dir.resolve("agent.log");
        Initiator initiator = Initiator.start(dir, jvmFlags, List.of("local", transport, agentLog.toString()));
        long agentPid = -1;
        try {
            String ready = initiator.awaitLine("agent pid=", Duration.ofSeconds(60));
            agentPid = Long.parseLong(ready.replaceAll(".*pid=(\\d+).*", "$1"));
            int port = Integer.parseInt(ready.replaceAll(".*port=(\\d+).*", "$1"));
            assertThat(Procs.commandLine(agentPid)).contains("dev.linkproof.transfer.agent.AgentMain");
            assertThat(Procs.listening(port))
                    .as("the agent listens on %d", port)
                    .isTrue();
            initiator.awaitLine("point started", Duration.ofSeconds(60));
            Thread.sleep(INTO_THE_POINT_MILLIS);
            assertThat(initiator.process().isAlive())
                    .as("the initiator is still in its point")
                    .isTrue();

            long deadAt = initiator.kill(signal);
            // Long enough past the bound to tell "late" from "never".
            Duration wait = agentExit.plusSeconds(13);
            long goneAt = awaitGone(agentPid, port, wait);
            double seconds = (goneAt - deadAt) / 1e9;
            System.out.printf(
                    "%s, initiator %s: agent %d gone and port %d closed %.3f s after the initiator died%n",
                    transport, signal, agentPid, port, seconds);
            assertThat(Procs.gone(agentPid) && !Procs.listening(port))
                    .as(
                            "agent %d (port %d) still there %d s after its initiator's %s; its log:%n%s",
                            agentPid, port, wait.toSeconds(), signal, read(agentLog))
                    .isTrue();
            assertThat(seconds)
                    .as("seconds from the initiator's death to its agent's; agent log:%n%s", read(agentLog))
                    .isLessThan(agentExit.toMillis() / 1000.0);
            // The pipe to the initiator went with it: the agent's own log has its last lines, and the
            // last says why it stopped.
            Path own = LocalAgent.ownLog(agentLog, agentPid);
            assertThat(own).as("the agent's own log").exists();
            List<String> lines = Files.readAllLines(own);
            assertThat(lines).as("the agent's own log").isNotEmpty();
            assertThat(lines.getLast())
                    .as("the last line of the agent's own log %s", own)
                    .startsWith("linkproof-agent: stopped (the initiator (pid "
                            + initiator.process().pid() + ") is gone: ")
                    // The initiator's socket and its end of stdin close together: the session may
                    // have ended on its own (0) or be closed by the shutdown (1); none may be stuck.
                    .containsPattern("; [01] session\\(s\\) closed$");
        } finally {
            initiator.process().destroyForcibly();
            killLeftover(agentPid);
        }
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
    record Initiator(Process process, BlockingQueue<String> lines, List<String> seen) {
        /** @param jvmFlags flags for the initiator's JVM and, through {@code linkproof.agent.jvmArgs}, its agent's */
        static Initiator start(Path dir, List<String> jvmFlags, List<String> args) throws IOException {
            List<String> cmd = new ArrayList<>(List.of(
                    Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                    "--enable-native-access=ALL-UNNAMED",
                    "-Xmx256m",
                    "-XX:+UseSerialGC"));
            cmd.addAll(jvmFlags);
            if (!jvmFlags.isEmpty()) {
                cmd.add("-D" + InitiatorMain.AGENT_JVM_ARGS + "=" + String.join(" ", jvmFlags));
            }
            cmd.addAll(List.of("-cp", System.getProperty("java.class.path"), InitiatorMain.class.getName()));
            cmd.addAll(args);
            Process p = new ProcessBuilder(cmd)
                    .directory(dir.toFile())
                    .redirectErrorStream(true)
                    .start();
            BlockingQueue<String> lines = new LinkedBlockingQueue<>();
            List<String> seen = new java.util.concurrent.CopyOnWriteArrayList<>();
            Thread.ofPlatform().daemon().name("initiator-output").start(() -> {
                try (BufferedReader r =
                        new BufferedReader(new InputStreamReader(p.getInputStream(), StandardCharsets.UTF_8))) {
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
                    throw new AssertionError("the initiator did not print '" + prefix + "' within " + max
                            + "; it said:\n" + String.join("\n", seen)
                            + (process.isAlive() ? "" : "\n(exited with " + process.exitValue() + ")"));
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
            assertThat(process.waitFor(20, TimeUnit.SECONDS))
                    .as("the initiator ends on " + signal)
                    .isTrue();
            return System.nanoTime();
        }
    }
}
