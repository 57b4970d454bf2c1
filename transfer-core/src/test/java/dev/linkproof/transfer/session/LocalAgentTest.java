package dev.linkproof.transfer.session;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.linkproof.transfer.Deadline;
import dev.linkproof.transfer.Op;
import dev.linkproof.transfer.PeerFailureException;
import dev.linkproof.transfer.TransferSpec;
import dev.linkproof.transfer.measure.Measurement;
import dev.linkproof.transfer.testing.Procs;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/** The agent in a JVM of its own, as the engine starts it for local runs. */
@Timeout(60)
@SuppressWarnings("try") // the tests close the agent inside the try, to check it is gone
class LocalAgentTest {
    @TempDir
    Path dir;

    /** The agent is started by the name control.AgentProcess gives it: the name must be its main class's. */
    @org.junit.jupiter.api.Test
    void theAgentsMainClassIsNamedRightly() {
        org.assertj.core.api.Assertions.assertThat(dev.linkproof.transfer.control.AgentProcess.MAIN_CLASS)
                .isEqualTo(dev.linkproof.transfer.agent.AgentMain.class.getName());
    }

    @Test
    void startsServesAndStops() throws Exception {
        Path log = dir.resolve("logs/agent.log");
        try (LocalAgent agent = LocalAgent.start(List.of("-Xmx64m"), log, Duration.ofSeconds(30))) {
            assertThat(agent.alive()).isTrue();
            assertThat(agent.port()).isPositive();
            assertThat(agent.host()).isEqualTo("127.0.0.1");
            assertThat(agent.token()).matches("[0-9a-f]{32}");
            assertThat(agent.pid()).isNotEqualTo(ProcessHandle.current().pid());
            try (Session s = Session.open(agent.host(), agent.port(), agent.token(), Timeouts.DEFAULT)) {
                assertThat(s.agent().pid()).isEqualTo(agent.pid());
                Measurement m = s.run(TransferSpec.builder()
                        .pointId("LocalAgentTest#read")
                        .op(Op.READ)
                        .size(4097)
                        .batch(2)
                        .iterations(5)
                        .warmup(1)
                        .build());
                assertThat(m.isValid()).isTrue();
            }
            assertThat(log).content().contains("linkproof-agent ready").doesNotContain(agent.token());
            agent.close();
            assertThat(agent.alive()).isFalse();
        }
    }

    /**
     * Linux refuses to exec a command with one argument over 128 KiB (MAX_ARG_STRLEN: "Argument list
     * too long"), and the class path was one: it travels in an argument file, which is gone once the
     * agent has started. Here 160 KiB of class path entries that do not exist, after the real ones.
     */
    @Test
    void aClassPathOverTheKernelsLimitForOneArgumentStillStartsTheAgent() throws Exception {
        String saved = System.getProperty("java.class.path");
        StringBuilder cp = new StringBuilder(saved);
        for (int i = 0; cp.length() <= 160 * 1024; i++) {
            cp.append(java.io.File.pathSeparator).append(dir.resolve("absent").resolve("dummy-entry-" + i + ".jar"));
        }
        System.setProperty("java.class.path", cp.toString());
        try (LocalAgent agent =
                LocalAgent.start(List.of("-Xmx64m"), dir.resolve("agent.log"), Duration.ofSeconds(30))) {
            String cmd = Procs.commandLine(agent.pid());
            assertThat(cmd).doesNotContain("dummy-entry-").contains(" @");
            Path argFile = Path.of(cmd.replaceAll(".* @(\\S+) .*", "$1"));
            assertThat(argFile).as("the argument file, once the agent is ready").doesNotExist();
            try (Session s = Session.open(agent.host(), agent.port(), agent.token(), Timeouts.DEFAULT)) {
                assertThat(s.run(TransferSpec.builder()
                                        .pointId("LocalAgentTest#long-class-path")
                                        .op(Op.WRITE)
                                        .size(4097)
                                        .batch(2)
                                        .iterations(5)
                                        .warmup(1)
                                        .build())
                                .isValid())
                        .isTrue();
            }
        } finally {
            System.setProperty("java.class.path", saved);
        }
    }

    /**
     * The agent writes its own copy of its output beside the log (the pipe to this JVM is gone when
     * this JVM dies, and the agent's last lines with it); an agent stopped in order leaves none, its
     * lines being in the log.
     */
    @Test
    void theAgentKeepsItsOwnLogWhichAnOrderlyStopRemoves() throws Exception {
        Path log = dir.resolve("agent.log");
        try (LocalAgent agent = LocalAgent.start(List.of("-Xmx64m"), log, Duration.ofSeconds(30))) {
            Path own = dir.resolve("agent-" + agent.pid() + ".log");
            assertThat(LocalAgent.ownLog(log, agent.pid())).isEqualTo(own);
            assertThat(own)
                    .content()
                    .startsWith("linkproof-agent ready host=127.0.0.1")
                    .doesNotContain(agent.token());
            assertThat(java.nio.file.Files.getPosixFilePermissions(own))
                    .containsExactlyInAnyOrder(
                            java.nio.file.attribute.PosixFilePermission.OWNER_READ,
                            java.nio.file.attribute.PosixFilePermission.OWNER_WRITE);
            agent.close();
            assertThat(own).doesNotExist();
        }
    }

    /** It said "did not get ready within 20 s (it exited with 1)": not why, and as if it had waited. */
    @Test
    void anAgentThatCannotStartSaysWhyAndWhere() {
        Path log = dir.resolve("bad.log");
        assertThatThrownBy(() -> LocalAgent.start(List.of("-XX:+ThisOptionDoesNotExist"), log, Duration.ofSeconds(20)))
                .isInstanceOf(PeerFailureException.class)
                .hasMessageStartingWith("the target agent exited with 1 before it was ready: Unrecognized VM option "
                        + "'ThisOptionDoesNotExist' | Error: Could not create the Java Virtual Machine.")
                .hasMessageEndingWith("; see " + log.toAbsolutePath());
        assertThat(log).content().contains("ThisOptionDoesNotExist");
    }

    /** An agent that is not ready in time names the start deadline; it said "within 0 s" for one under a second. */
    @Test
    void anAgentNotReadyInTimeNamesTheStartDeadline() {
        Path log = dir.resolve("slow.log");
        assertThatThrownBy(() -> LocalAgent.start(List.of("-Xmx64m"), log, Duration.ofMillis(50)))
                .isInstanceOf(PeerFailureException.class)
                .hasMessageStartingWith("the target agent did not get ready within 50 ms")
                .satisfies(
                        e -> assertThat(((PeerFailureException) e).deadline()).contains(Deadline.AGENT_START));
    }
}
