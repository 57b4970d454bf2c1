package dev.linkproof.conformance.e2e;

import static org.assertj.core.api.Assertions.assertThat;

import dev.linkproof.conformance.e2e.fixtures.KilledMidSweep;
import java.util.Map;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

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

        KillDuringPoint.assertFailedAndRecovered(run, "write 64 MiB", 10.0);
        assertThat(run.message(1))
                .containsAnyOf("did the target rank die?", "did it die?", "did the target agent die?");
        Kinds.assertKind(run.result(1), dev.linkproof.transfer.FailureKind.PEER_FAILURE);
    }
}
