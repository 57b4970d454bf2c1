package dev.linkproof.conformance.softroce;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.linkproof.conformance.e2e.KillDuringPoint;
import dev.linkproof.conformance.softroce.fixtures.LibfabricVerbsPoints;
import dev.linkproof.transfer.libfabric.FabricProvider;
import dev.linkproof.transfer.libfabric.Libfabric;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * The libfabric transport over a real verbs device: {@code verbs;ofi_rxm} on the Soft-RoCE VM's rxe0
 * (the VM sets FI_UNIVERSE_SIZE=64: rxm's verbs completion queue at the default 256 is larger than
 * rxe's 32,767 entries, and fi_enable fails). Every op valid, a flipped byte caught naming slot and
 * offset, a killed target failing its point within the deadline with the next points passing on a
 * fresh agent. SoftRoceSuite runs it in the VM; elsewhere it is skipped with the reason.
 */
@Tag("softroce")
@Timeout(900)
class LibfabricOnSoftRoce {
    private static final String PROVIDER = "verbs;ofi_rxm";

    @TempDir
    Path dir;

    /** In the VM the provider must be there (rxe0, librdmacm, the guest's own name resolving). */
    @BeforeEach
    void verbsRxmIsOffered() {
        assumeTrue(Guest.inTheVm(), "runs in the Soft-RoCE VM (-D" + Guest.GUEST + "=true), on its rxe0");
        assertThat(Libfabric.unavailableReason()).as("libfabric in the VM").isNull();
        assertThat(FabricProvider.discover())
                .as("libfabric's providers in the VM")
                .anySatisfy(p -> assertThat(p.provider()).isEqualTo(PROVIDER));
    }

    @Test
    void everyOpIsValidOverVerbsRxm() {
        var events =
                Guest.runIn(dir, LibfabricVerbsPoints.Valid.class, Map.of()).testEvents();
        // write, read, send at three sizes and both atomics: every one run and valid, none skipped.
        events.assertStatistics(s -> s.started(11).succeeded(11).skipped(0));
        assertThat(Guest.displayNames(events.succeeded().list()))
                .anySatisfy(n -> assertThat(n).startsWith("read 64 KiB ×4 · 2 "))
                .anySatisfy(n -> assertThat(n).startsWith("compare-swap 8 B ×4 · 2 "));
    }

    @Test
    void aFlippedByteFailsNamingSlotAndOffset() {
        var events =
                Guest.runIn(dir, LibfabricVerbsPoints.Flipped.class, Map.of()).testEvents();
        events.assertStatistics(s -> s.started(3).failed(3).succeeded(0));
        List<String> messages =
                events.failed().list().stream().map(Guest::failure).toList();
        assertThat(messages)
                .allSatisfy(m -> assertThat(m)
                        .contains("data corruption")
                        .contains("1 of 3 slot(s) differ")
                        .contains("slot 2, byte offset 2048"));
    }

    @Test
    void aKilledTargetFailsItsPointAndTheNextPass() {
        // The guest's progress deadline (60 s, six times the host's) bounds the failure; the control
        // connection's end usually says it within a second or two.
        var run = KillDuringPoint.run(LibfabricVerbsPoints.KilledMidWrite.class, 4000, Map.of());
        KillDuringPoint.assertFailedAndRecovered(run, "write 2 MiB", 60);
    }
}
