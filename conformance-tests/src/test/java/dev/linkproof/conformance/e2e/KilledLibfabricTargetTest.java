package dev.linkproof.conformance.e2e;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.linkproof.conformance.e2e.fixtures.KilledMidLibfabricSweeps;
import dev.linkproof.transfer.Availability;
import dev.linkproof.transfer.spi.Transports;
import java.util.Map;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.platform.engine.TestExecutionResult;

/**
 * The target rank is SIGKILLed in the middle of a libfabric point: the point fails within the
 * progress deadline as a peer failure, nothing hangs, the next points pass on a freshly started agent,
 * and no agent is left at the end. Over shm the write's delivery completion never comes and the death
 * is noticed through the control connection; over tcp;ofi_rxm through the connection's error
 * completion or the control connection, whichever comes first.
 */
@Tag("e2e")
@Timeout(180)
class KilledLibfabricTargetTest {
    private static final double PROGRESS_DEADLINE_SECONDS = 10;
    private static final Map<String, String> CONFIG = Map.of("linkproof.timeout.progress", "10s");

    @BeforeAll
    static void libfabricIsHere() {
        Availability a = Transports.discover().require("libfabric").availability();
        assumeTrue(a.available(), () -> "libfabric unavailable: " + a.reason());
    }

    @Test
    void killedDuringASharedMemoryWrite() {
        check(KillDuringPoint.run(KilledMidLibfabricSweeps.SharedMemoryWrite.class, 1500, CONFIG), "write 2 MiB");
    }

    @Test
    void killedDuringATcpRead() {
        check(KillDuringPoint.run(KilledMidLibfabricSweeps.TcpRead.class, 1500, CONFIG), "read 1 MiB");
    }

    private static void check(KillDuringPoint.Outcome run, String killedPoint) {
        System.out.printf(
                "%s: failed %.2f s after the SIGKILL: %s%n", killedPoint, run.secondsToFail(), run.message(1));
        assertThat(run.killedPids()).as("an agent process was found and killed").hasSize(1);
        assertThat(run.order()).as("every point finished").hasSize(4);
        assertThat(run.order().get(1)).startsWith(killedPoint);
        assertThat(run.result(0).getStatus()).as(run.order().get(0)).isEqualTo(TestExecutionResult.Status.SUCCESSFUL);
        assertThat(run.result(1).getStatus()).as(run.order().get(1)).isEqualTo(TestExecutionResult.Status.FAILED);
        assertThat(run.message(1)).contains("peer failure");
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
