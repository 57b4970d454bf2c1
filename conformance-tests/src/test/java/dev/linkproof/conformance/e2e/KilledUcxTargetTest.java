package dev.linkproof.conformance.e2e;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.linkproof.conformance.e2e.fixtures.KilledMidUcxSweeps;
import dev.linkproof.transfer.Availability;
import dev.linkproof.transfer.spi.Transports;
import java.util.Map;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.platform.engine.TestExecutionResult;

/**
 * The target rank is SIGKILLed in the middle of a ucx point: the point fails within the progress
 * deadline naming the peer failure, nothing hangs, and the next points pass on a freshly started
 * agent. Over shared memory the initiator's puts need no target at all, so the death is noticed
 * through the control connection; over tcp through UCX's peer error handling or the control
 * connection, whichever comes first. The fixtures' killed points would run for tens of seconds if
 * the death went unnoticed.
 */
@Tag("e2e")
@Timeout(180)
class KilledUcxTargetTest {
    /** The progress deadline, stated rather than inherited, since the test is about it. */
    private static final double PROGRESS_DEADLINE_SECONDS = 10;

    private static final Map<String, String> CONFIG = Map.of("linkproof.timeout.progress", "10s");

    @BeforeAll
    static void ucxIsHere() {
        Availability ucx = Transports.discover().require("ucx").availability();
        assumeTrue(ucx.available(), () -> "ucx unavailable: " + ucx.reason());
    }

    @Test
    void killedDuringASharedMemoryPut() {
        check(KillDuringPoint.run(KilledMidUcxSweeps.SharedMemoryPut.class, 1500, CONFIG), "write 2 MiB");
    }

    @Test
    void killedDuringATcpGet() {
        check(KillDuringPoint.run(KilledMidUcxSweeps.TcpGet.class, 1500, CONFIG), "read 1 MiB");
    }

    private static void check(KillDuringPoint.Outcome run, String killedPoint) {
        System.out.printf(
                "%s: failed %.2f s after the SIGKILL: %s%n", killedPoint, run.secondsToFail(), run.message(1));
        assertThat(run.killedPids()).as("an agent process was found and killed").hasSize(1);
        assertThat(run.order()).as("every point finished").hasSize(4);
        assertThat(run.order().get(1)).startsWith(killedPoint);
        assertThat(run.result(0).getStatus()).as(run.order().get(0)).isEqualTo(TestExecutionResult.Status.SUCCESSFUL);
        assertThat(run.result(1).getStatus()).as(run.order().get(1)).isEqualTo(TestExecutionResult.Status.FAILED);
        assertThat(run.message(1))
                .contains("peer failure")
                // the data path's words, or a control request's if the kill landed between batches
                .containsAnyOf("did the target rank die?", "did the target agent die?", "did it die?");
        assertThat(run.secondsToFail())
                .as("seconds from SIGKILL to the point's failure: " + run.message(1))
                .isLessThan(PROGRESS_DEADLINE_SECONDS);
        for (int i : new int[] {2, 3}) {
            assertThat(run.result(i).getStatus())
                    .as(run.order().get(i) + ": " + run.message(i))
                    .isEqualTo(TestExecutionResult.Status.SUCCESSFUL);
            assertThat(run.agentAfter().get(run.order().get(i)))
                    .as("the agent that served " + run.order().get(i))
                    .isNotNull()
                    .isNotEqualTo(run.killedPids().getFirst());
        }
        assertThat(KillDuringPoint.agentProcess())
                .as("the re-provisioned agent is stopped at the end of the run")
                .isEmpty();
    }
}
