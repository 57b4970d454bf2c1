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
        KillDuringPoint.assertFailedAndRecovered(run, killedPoint, PROGRESS_DEADLINE_SECONDS);
        assertThat(run.message(1))
                // the data path's words, or a control request's if the kill landed between batches
                .containsAnyOf("did the target rank die?", "did the target agent die?", "did it die?");
    }
}
