package dev.linkproof.conformance.e2e;

import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.linkproof.conformance.e2e.fixtures.KilledMidLibfabricSweeps;
import dev.linkproof.transfer.Availability;
import dev.linkproof.transfer.spi.Transports;
import java.util.Map;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

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
        KillDuringPoint.assertFailedAndRecovered(run, killedPoint, PROGRESS_DEADLINE_SECONDS);
    }
}
