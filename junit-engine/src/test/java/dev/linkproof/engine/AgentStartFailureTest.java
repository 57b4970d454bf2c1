package dev.linkproof.engine;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.platform.engine.discovery.DiscoverySelectors.selectMethod;

import dev.linkproof.engine.config.Constants;
import dev.linkproof.engine.fixtures.RunFixture;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.junit.platform.engine.TestExecutionResult;
import org.junit.platform.testkit.engine.EngineExecutionResults;
import org.junit.platform.testkit.engine.EngineTestKit;

/** A local agent that cannot start fails every point with the cause, and is not retried for each one. */
@Timeout(60)
class AgentStartFailureTest {
    @TempDir
    Path dir;

    @Test
    void everyPointFailsWithTheFirstCause() {
        Path log = dir.resolve("agent.log");
        List<String> messages = bothPointsFail(log, Constants.AGENT_JVM_ARGS, "-XX:+ThisOptionDoesNotExist");
        assertThat(messages.get(0))
                .contains("no target rank")
                .contains("exited with 1 before it was ready: Unrecognized VM option " + "'ThisOptionDoesNotExist'")
                .contains(log.toAbsolutePath().toString());
        assertThat(messages.get(1))
                .contains("could not be started earlier in this run")
                .contains("Unrecognized VM option");
        assertThat(log).content().contains("ThisOptionDoesNotExist");
    }

    /** An agent not ready within linkproof.timeout.agentStart: every point names the key, the first and the repeats. */
    @Test
    void anAgentNotReadyInTimeNamesTheStartDeadline() {
        List<String> messages = bothPointsFail(dir.resolve("agent.log"), Constants.TIMEOUT_AGENT_START, "50ms");
        String note = " [deadline: linkproof.timeout.agentStart=50ms; raise it if the agent is slow to start]";
        assertThat(messages.get(0))
                .contains("no target rank: the target agent did not get ready within 50 ms")
                .endsWith(note);
        assertThat(messages.get(1))
                .contains("could not be started earlier in this run")
                .endsWith(note);
    }

    /** Two points with the agent logging to {@code log} and {@code key=value}: both fail; their messages. */
    private static List<String> bothPointsFail(Path log, String key, String value) {
        EngineExecutionResults r = EngineTestKit.engine(Constants.ENGINE_ID)
                .configurationParameter(Constants.PROGRESS, "false")
                .configurationParameter(key, value)
                .configurationParameter(Constants.AGENT_LOG, log.toString())
                .selectors(
                        selectMethod(RunFixture.class, "passesWithoutParameters", ""),
                        selectMethod(RunFixture.class, "throwsAnException", ""))
                .execute();
        r.testEvents().assertStatistics(s -> s.started(2).failed(2).succeeded(0));
        return r.testEvents().failed().stream()
                .map(e -> e.getRequiredPayload(TestExecutionResult.class)
                        .getThrowable()
                        .orElseThrow()
                        .getMessage())
                .toList();
    }
}
