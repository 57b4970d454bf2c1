package dev.linkproof.conformance.e2e;

import static org.assertj.core.api.Assertions.assertThat;

import dev.linkproof.conformance.e2e.fixtures.KilledMidSweep;
import dev.linkproof.transfer.FailureKind;
import java.io.IOException;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.platform.engine.TestExecutionResult;

/**
 * The target rank is stopped (SIGSTOP) while the second point runs: alive, its sockets open, silent.
 * Nothing closes, so only the progress deadline can notice: the point fails as a peer failure when it
 * runs out (reported once the stopped agent is put away, which SIGTERM cannot do), and the remaining
 * points pass on a freshly provisioned agent.
 */
@Tag("e2e")
class StoppedTargetTest {
    /** Short, so the test is; the agent applies the same deadline on its side. */
    static final int PROGRESS_SECONDS = 3;
    /**
     * How long the engine lets a failed pair's agent stop after SIGTERM before SIGKILL
     * (SessionProvider's 0.5 s, rounded up); a stopped agent waits it out.
     */
    static final int AGENT_GRACE_SECONDS = 1;

    @Test
    void aStoppedTargetFailsThePointWithinTheProgressDeadlineAndTheSweepRecovers() {
        KillDuringPoint.Outcome run = KillDuringPoint.run(
                KilledMidSweep.class,
                700,
                Map.of("linkproof.timeout.progress", PROGRESS_SECONDS + "s"),
                StoppedTargetTest::stop);

        assertThat(run.killedPids())
                .as("an agent process was found and stopped")
                .hasSize(1);
        assertThat(run.order()).hasSize(4);
        assertThat(run.order().get(1)).startsWith("write 64 MiB");
        assertThat(run.result(1).getStatus()).isEqualTo(TestExecutionResult.Status.FAILED);
        assertThat(run.message(1))
                .contains("peer failure")
                .contains("no progress")
                .contains("[deadline: linkproof.timeout.progress=" + PROGRESS_SECONDS + "s");
        Kinds.assertKind(run.result(1), FailureKind.PEER_FAILURE);
        // The point is reported once its agent is put away: a stopped process ignores the SIGTERM sent
        // first, and gets SIGKILL after the failed pair's grace (AGENT_GRACE_SECONDS).
        assertThat(run.secondsToFail())
                .as("seconds from SIGSTOP to the point's failure")
                .isLessThan(PROGRESS_SECONDS + AGENT_GRACE_SECONDS + 2.0);
        System.out.printf(
                "stopped target: the point failed %.2f s after SIGSTOP (progress deadline %d s)%n",
                run.secondsToFail(), PROGRESS_SECONDS);
        for (int i : new int[] {0, 2, 3}) {
            assertThat(run.result(i).getStatus())
                    .as(run.order().get(i))
                    .isEqualTo(TestExecutionResult.Status.SUCCESSFUL);
        }
        assertThat(ProcessHandle.of(run.killedPids().getFirst()))
                .as("the stopped agent was put away")
                .isEmpty();
        assertThat(KillDuringPoint.agentProcess())
                .as("the re-provisioned agent is stopped at the end of the run")
                .isEmpty();
    }

    private static void stop(ProcessHandle agent) {
        try {
            new ProcessBuilder("kill", "-STOP", Long.toString(agent.pid()))
                    .inheritIO()
                    .start()
                    .waitFor(10, TimeUnit.SECONDS);
        } catch (IOException e) {
            throw new java.io.UncheckedIOException(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
