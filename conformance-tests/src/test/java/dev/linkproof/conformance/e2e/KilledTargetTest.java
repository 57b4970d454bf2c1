package dev.linkproof.conformance.e2e;

import static org.assertj.core.api.Assertions.assertThat;

import dev.linkproof.conformance.e2e.fixtures.KilledMidSweep;
import java.util.Map;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.platform.engine.TestExecutionResult;

/**
 * (b) The target rank is SIGKILLed while the second point runs: that point fails within 10 s with
 * a message saying the peer failed, and the remaining points pass on a freshly provisioned agent.
 */
@Tag("e2e")
class KilledTargetTest {
    @Test
    void killedTargetFailsThePointFastAndTheSweepRecovers() {
        // 700 ms is well inside the 64 MiB × 150 point
        KillDuringPoint.Outcome run = KillDuringPoint.run(KilledMidSweep.class, 700, Map.of());

        assertThat(run.killedPids()).as("an agent process was found and killed").hasSize(1);
        assertThat(run.order()).hasSize(4);
        assertThat(run.order().get(1)).startsWith("write 64 MiB");
        assertThat(run.result(1).getStatus()).isEqualTo(TestExecutionResult.Status.FAILED);
        assertThat(run.message(1))
                .contains("peer failure")
                .containsAnyOf("did the target rank die?", "did it die?", "did the target agent die?");
        Kinds.assertKind(run.result(1), dev.linkproof.transfer.FailureKind.PEER_FAILURE);
        assertThat(run.secondsToFail())
                .as("seconds from SIGKILL to the point's failure")
                .isLessThan(10.0);
        for (int i : new int[] {0, 2, 3}) {
            assertThat(run.result(i).getStatus())
                    .as(run.order().get(i))
                    .isEqualTo(TestExecutionResult.Status.SUCCESSFUL);
        }
        assertThat(KillDuringPoint.agentProcess())
                .as("the re-provisioned agent is stopped at the end of the run")
                .isEmpty();
    }
}
