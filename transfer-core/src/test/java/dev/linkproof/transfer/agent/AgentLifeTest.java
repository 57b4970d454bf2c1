package dev.linkproof.transfer.agent;

import static org.assertj.core.api.Assertions.assertThat;

import dev.linkproof.transfer.Op;
import dev.linkproof.transfer.TransferException;
import dev.linkproof.transfer.TransferSpec;
import dev.linkproof.transfer.session.Session;
import dev.linkproof.transfer.session.Timeouts;
import dev.linkproof.transfer.testing.Procs;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * How an agent process ends, each way on its own: its initiator's pipe ends, its initiator's
 * process is gone, or it is sent SIGTERM. Every way it stops listening and closes its sessions,
 * whose points are released, within {@link AgentMain#SHUTDOWN_GRACE} and well inside 2 s.
 * ({@code InitiatorDeathTest} kills a real initiator.)
 */
@Timeout(120)
class AgentLifeTest {
    private static final String TOKEN = "agent-life-test-token";
    private static final Duration WITHIN = Duration.ofSeconds(2);

    /** The pipe alone: the initiator named is this JVM, which stays; only the agent's standard input ends. */
    @Test
    void anAgentStopsWhenItsStandardInputEnds() throws Exception {
        Agent agent = Agent.start("--initiator-pid=" + ProcessHandle.current().pid());
        CompletableFuture<?> point = agent.runLongPoint();
        long t0 = System.nanoTime();
        agent.process().getOutputStream().close();
        double seconds = agent.awaitExit(t0);
        System.out.printf("standard input closed: agent exited %.3f s later%n", seconds);
        assertThat(seconds).isLessThan(WITHIN.toMillis() / 1000.0);
        assertThat(agent.output())
                .contains("linkproof-agent: the initiator (pid "
                        + ProcessHandle.current().pid()
                        + ") is gone: its end of the agent's standard input closed; stopping")
                .contains("linkproof-agent: stopped (the " + "initiator (pid "
                        + ProcessHandle.current().pid() + ") is gone: its end of the agent's standard input closed); ");
        agent.assertStoppedWithItsSession();
        assertThat(agent.process().exitValue()).isZero();
        point.join();
    }

    /** The process alone: the initiator named is another process, which dies; the pipe stays open. */
    @Test
    void anAgentStopsWhenItsInitiatorProcessIsGone() throws Exception {
        Process initiator = new ProcessBuilder("sleep", "600").start();
        try {
            Agent agent = Agent.start("--initiator-pid=" + initiator.pid());
            CompletableFuture<?> point = agent.runLongPoint();
            initiator.destroyForcibly().waitFor();
            long t0 = System.nanoTime();
            double seconds = agent.awaitExit(t0);
            System.out.printf("initiator process killed: agent exited %.3f s later%n", seconds);
            assertThat(seconds).isLessThan(WITHIN.toMillis() / 1000.0);
            assertThat(agent.output())
                    .contains("linkproof-agent: the initiator (pid " + initiator.pid() + ") is gone: no process "
                            + initiator.pid() + " runs; stopping")
                    .contains("linkproof-agent: stopped (the initiator (pid " + initiator.pid()
                            + ") is gone: no process " + initiator.pid() + " runs); ");
            agent.assertStoppedWithItsSession();
            point.join();
        } finally {
            initiator.destroyForcibly();
        }
    }

    /** An agent started by hand (no initiator to watch) that is sent SIGTERM closes its sessions on the way out. */
    @Test
    void aTerminatedAgentClosesItsSessions() throws Exception {
        Agent agent = Agent.start();
        CompletableFuture<?> point = agent.runLongPoint();
        long t0 = System.nanoTime();
        agent.process().destroy();
        double seconds = agent.awaitExit(t0);
        System.out.printf("SIGTERM: agent exited %.3f s later%n", seconds);
        assertThat(seconds).isLessThan(WITHIN.toMillis() / 1000.0);
        agent.assertStoppedWithItsSession();
        assertThat(agent.process().exitValue()).isEqualTo(143);
        point.join();
    }

    /**
     * Without {@code --initiator-pid} an agent's standard input means nothing: one started by hand
     * under nohup or a service manager keeps serving.
     */
    @Test
    void anAgentStartedByHandIgnoresItsStandardInput() throws Exception {
        Agent agent = Agent.start();
        try {
            agent.process().getOutputStream().close();
            assertThat(agent.process().waitFor(1500, TimeUnit.MILLISECONDS))
                    .as("agent exited")
                    .isFalse();
            try (Session s = Session.open("127.0.0.1", agent.port(), TOKEN, Timeouts.DEFAULT)) {
                assertThat(s.run(TransferSpec.builder()
                                        .pointId("AgentLifeTest#byHand")
                                        .op(Op.WRITE)
                                        .size(4096)
                                        .iterations(5)
                                        .warmup(1)
                                        .build())
                                .isValid())
                        .isTrue();
            }
        } finally {
            agent.process().destroyForcibly().waitFor();
        }
    }

    @Test
    void anInitiatorPidMustBeAProcessId() throws Exception {
        Process p = new ProcessBuilder(Agent.command("--initiator-pid=0"))
                .redirectErrorStream(true)
                .start();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertThat(p.waitFor()).isEqualTo(2);
        assertThat(out).startsWith("--initiator-pid 0 is not a process id");
    }

    /** An agent JVM with its output collected. */
    private record Agent(Process process, int port, Path log) {
        static List<String> command(String... args) {
            List<String> cmd = new ArrayList<>(List.of(
                    Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                    "--enable-native-access=ALL-UNNAMED",
                    "-Xmx128m",
                    "-XX:+UseSerialGC",
                    "-cp",
                    System.getProperty("java.class.path"),
                    AgentMain.class.getName(),
                    "--bind=127.0.0.1",
                    "--port=0"));
            cmd.addAll(List.of(args));
            return cmd;
        }

        /**
         * Starts an agent whose output goes to a file: a pipe read by this JVM can lose what a
         * process writes just before it exits (the JDK's reaper drains and closes the pipe under
         * a blocked reader), and the last lines are what these tests read.
         */
        static Agent start(String... args) throws Exception {
            Path out = Files.createTempFile("agent-life", ".log");
            out.toFile().deleteOnExit();
            ProcessBuilder pb =
                    new ProcessBuilder(command(args)).redirectErrorStream(true).redirectOutput(out.toFile());
            pb.environment().put(AgentMain.TOKEN_ENV, TOKEN);
            Process p = pb.start();
            long deadline = System.nanoTime() + Duration.ofSeconds(60).toNanos();
            Optional<String> ready = Optional.empty();
            while (ready.isEmpty() && p.isAlive() && System.nanoTime() < deadline) {
                Thread.sleep(50);
                ready = Files.readAllLines(out).stream()
                        .filter(l -> l.startsWith(AgentMain.READY))
                        .findFirst();
            }
            assertThat(ready)
                    .as("ready line; it said: %s", Files.readString(out))
                    .isPresent();
            return new Agent(p, Integer.parseInt(ready.get().replaceAll(".*port=(\\d+).*", "$1")), out);
        }

        /** Starts a point of minutes from a session in this JVM, and returns once the agent holds it. */
        CompletableFuture<?> runLongPoint() throws Exception {
            Session s = Session.open("127.0.0.1", port, TOKEN, Timeouts.DEFAULT);
            CompletableFuture<?> run = CompletableFuture.runAsync(() -> {
                try (s) {
                    s.run(TransferSpec.builder()
                            .pointId("AgentLifeTest#long")
                            .op(Op.WRITE)
                            .size(1 << 20)
                            .iterations(1_000_000)
                            .warmup(1)
                            .build());
                } catch (TransferException e) {
                    // the agent went away, as the test meant
                }
            });
            long deadline = System.nanoTime() + Duration.ofSeconds(30).toNanos();
            // PREPARE and CONNECT done: the tcp target's data connection is the agent's third socket
            while (Procs.sockets(process.pid()) < 3 && System.nanoTime() < deadline) {
                Thread.sleep(50);
            }
            Thread.sleep(500);
            return run;
        }

        double awaitExit(long t0) throws InterruptedException {
            assertThat(process.waitFor(30, TimeUnit.SECONDS))
                    .as("the agent exits; it said: %s", output())
                    .isTrue();
            double seconds = (System.nanoTime() - t0) / 1e9;
            assertThat(Procs.listening(port)).as("port %d still listens", port).isFalse();
            return seconds;
        }

        String output() {
            try {
                return Files.readString(log);
            } catch (IOException e) {
                throw new java.io.UncheckedIOException(e);
            }
        }

        /**
         * The session's thread ended within the grace, so it released its point (its last act; the
         * log line saying so may be lost, as java.util.logging closes its handlers on the way out).
         */
        void assertStoppedWithItsSession() {
            assertThat(output())
                    .containsPattern("linkproof-agent: stopped( \\(the initiator \\(pid \\d+\\) is gone: [^\n"
                            + "]*\\))?; 1 session\\(s\\) closed")
                    .doesNotContain("still in a transport call");
        }
    }
}
