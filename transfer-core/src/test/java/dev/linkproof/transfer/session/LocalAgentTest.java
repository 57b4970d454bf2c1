package dev.linkproof.transfer.session;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.linkproof.transfer.Deadline;
import dev.linkproof.transfer.Op;
import dev.linkproof.transfer.PeerFailureException;
import dev.linkproof.transfer.TransferSpec;
import dev.linkproof.transfer.measure.Measurement;
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
                Measurement m = s.run(TransferSpec.builder().pointId("LocalAgentTest#read").op(Op.READ).size(4097).batch(2)
                        .iterations(5).warmup(1).build());
                assertThat(m.isValid()).isTrue();
            }
            assertThat(log).content().contains("linkproof-agent ready").doesNotContain(agent.token());
            agent.close();
            assertThat(agent.alive()).isFalse();
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
                .satisfies(e -> assertThat(((PeerFailureException) e).deadline()).contains(Deadline.AGENT_START));
    }
}
