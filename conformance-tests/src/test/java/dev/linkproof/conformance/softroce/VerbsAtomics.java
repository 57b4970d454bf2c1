package dev.linkproof.conformance.softroce;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.linkproof.conformance.e2e.Kinds;
import dev.linkproof.conformance.softroce.fixtures.VerbsAtomicPoints;
import dev.linkproof.conformance.softroce.fixtures.VerbsAtomicsLostOrDoubled;
import dev.linkproof.transfer.Availability;
import dev.linkproof.transfer.FailureKind;
import dev.linkproof.transfer.verbs.VerbsDevice;
import dev.linkproof.transfer.verbs.VerbsTransport;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.platform.engine.TestExecutionResult;
import org.junit.platform.testkit.engine.Event;

/**
 * RDMA atomics over real queue pairs: {@code IBV_WR_ATOMIC_FETCH_AND_ADD} and
 * {@code IBV_WR_ATOMIC_CMP_AND_SWP} on MRs and QPs with {@code IBV_ACCESS_REMOTE_ATOMIC}, every
 * counter checked; one atomic of one counter lost, or doubled, fails its point naming the counter.
 * rxe implements both (atomic_cap IBV_ATOMIC_HCA), so SoftRoceSuite runs this in the VM; elsewhere
 * it needs an RDMA device that does atomics and is skipped with the reason.
 */
@Tag("rdma")
class VerbsAtomics {
    @TempDir
    Path dir;

    @BeforeEach
    void needsAnRdmaDeviceWithAtomics() throws Exception {
        Availability a = new VerbsTransport().availability();
        assumeTrue(a.available(), "verbs unavailable: " + a.reason());
        String device = VerbsDevice.deviceNames().getFirst();
        try (VerbsDevice d = VerbsDevice.open(device)) {
            assumeTrue(d.attributes().atomics(), device + " reports atomic_cap IBV_ATOMIC_NONE");
        }
    }

    @Test
    void bothAtomicsCountEveryOp() {
        var events = Guest.runIn(dir, VerbsAtomicPoints.class, Map.of()).testEvents();
        // 2 ops × 2 batches × 2 QP counts × 2 depths, and 2 latency points: every one run and valid, none skipped.
        events.assertStatistics(s -> s.started(18).succeeded(18).skipped(0));
        assertThat(Guest.displayNames(events.succeeded().list()))
                .anySatisfy(n -> assertThat(n).startsWith("fetch-add 8 B ×8 · 2 QP"))
                .anySatisfy(n -> assertThat(n).startsWith("compare-swap 8 B ×8 · 2 QP · verbs · depth 4"));
    }

    @Test
    void aLostOrDoubledAtomicFailsNamingTheCounter() {
        var events = Guest.runIn(dir, VerbsAtomicsLostOrDoubled.class, Map.of()).testEvents();
        events.assertStatistics(s -> s.started(4).failed(4).succeeded(0));
        List<String> messages =
                events.failed().list().stream().map(Guest::failure).toList();
        assertThat(messages)
                .filteredOn(m -> m.contains("counter 2 (slot 2)"))
                .hasSize(2)
                .allSatisfy(m -> assertThat(m)
                        .contains("atomic mismatch: 1 of 8 counter(s) wrong")
                        .contains("short by 1 op"))
                .anySatisfy(m -> assertThat(m).contains("fetch-add values are not start + k·addend each once"))
                .anySatisfy(m -> assertThat(m).contains("compare-and-swap 1 of the verification returned old value"));
        assertThat(messages)
                .filteredOn(m -> m.contains("counter 5 (slot 5)"))
                .hasSize(2)
                .allSatisfy(m -> assertThat(m).contains("over by 1 op"));
        events.failed().stream()
                .map(VerbsAtomics::result)
                .forEach(r -> Kinds.assertKind(r, FailureKind.ATOMIC_MISMATCH));
    }

    private static TestExecutionResult result(Event e) {
        return e.getRequiredPayload(TestExecutionResult.class);
    }
}
