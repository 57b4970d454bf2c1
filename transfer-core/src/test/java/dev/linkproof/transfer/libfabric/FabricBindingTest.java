package dev.linkproof.transfer.libfabric;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.linkproof.transfer.TransferException;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * The bindings on their own, both sides in this process: fi_getinfo to fi_write and fi_read through
 * the operation tables, over the providers this machine has (shm, tcp;ofi_rxm), the bytes checked at
 * the other end; and what fi_getinfo says of a provider there is not.
 */
class FabricBindingTest {
    /**
     * With {@code hmem}, both domains are opened with FI_HMEM (so under FI_MR_HMEM where the provider asks
     * it) and both buffers registered through fi_mr_regattr as FI_HMEM_SYSTEM memory: the path GPU memory
     * takes ({@link FabricRegion#device}), with only the interface differing, since no GPU is here.
     */
    @ParameterizedTest(name = "{0}, fi_mr_regattr {1}")
    @CsvSource({"shm, false", "tcp;ofi_rxm, false", "shm, true"})
    void aWriteAndAReadThroughTheOperationTablesMoveTheBytes(String provider, boolean hmem) throws Throwable {
        assumeTrue(Libfabric.unavailableReason() == null, Libfabric.unavailableReason());
        long caps = LibfabricAbi.FI_RMA | (hmem ? LibfabricAbi.FI_HMEM : 0);
        try (Arena arena = Arena.ofShared();
                FabricDomain target = FabricDomain.open(
                        FabricInfo.query(provider, caps, null), LibfabricAbi.FI_CQ_FORMAT_CONTEXT, 64, 1);
                FabricDomain initiator = FabricDomain.open(
                        FabricInfo.query(provider, caps, null), LibfabricAbi.FI_CQ_FORMAT_CONTEXT, 64, 1)) {
            if (hmem) {
                assertThat(initiator.info.mrMode() & LibfabricAbi.FI_MR_HMEM)
                        .as("shm asks for FI_MR_HMEM with FI_HMEM: " + FabricInfo.mrModeText(initiator.info.mrMode()))
                        .isNotZero();
            }
            MemorySegment region = arena.allocate(4096, 4096);
            MemorySegment local = arena.allocate(4096, 4096);
            FabricEndpoint tep = target.endpoint();
            FabricEndpoint iep = initiator.endpoint();
            FabricMemory tmr = target.register(registered(region, hmem), 7, tep);
            FabricMemory lmr = initiator.register(registered(local, hmem), 8, iep);
            long peer = initiator.insert(tep.name);
            for (int i = 0; i < 4096; i++) {
                local.set(ValueLayout.JAVA_BYTE, i, (byte) (i * 7 + 1));
            }
            MemorySegment ctx = arena.allocate(LibfabricAbi.CONTEXT2_BYTES);
            MemorySegment entries = arena.allocate(64 * 8);
            // The first op may find no connection yet (-FI_EAGAIN): progress both sides and post again.
            long rc;
            long deadline = System.nanoTime() + 10_000_000_000L;
            while ((rc = (long) Libfabric.RMA.invokeExact(
                                    iep.function("rma", LibfabricAbi.FI_OPS_RMA, "write"),
                                    iep.ep.address(),
                                    local.address() + 100,
                                    1000L,
                                    lmr.desc,
                                    peer,
                                    tmr.remoteBase + 200,
                                    tmr.key,
                                    ctx.address()))
                            == -LibfabricAbi.FI_EAGAIN
                    && System.nanoTime() < deadline) {
                target.cq.read(entries.address(), 64, "target");
                assertThat(initiator.cq.read(entries.address(), 64, "initiator"))
                        .isZero();
            }
            assertThat(rc).isZero();
            awaitOne(initiator, target, entries, ctx);
            // Only the write's bytes landed, where they were sent.
            for (int i = 0; i < 1000; i++) {
                assertThat(region.get(ValueLayout.JAVA_BYTE, 200 + i))
                        .as("byte %d", i)
                        .isEqualTo(local.get(ValueLayout.JAVA_BYTE, 100 + i));
            }
            assertThat(region.get(ValueLayout.JAVA_BYTE, 199)).isZero();
            assertThat(region.get(ValueLayout.JAVA_BYTE, 1200)).isZero();

            region.set(ValueLayout.JAVA_LONG, 3000, 0x1122334455667788L);
            rc = (long) Libfabric.RMA.invokeExact(
                    iep.function("rma", LibfabricAbi.FI_OPS_RMA, "read"),
                    iep.ep.address(),
                    local.address() + 8,
                    8L,
                    lmr.desc,
                    peer,
                    tmr.remoteBase + 3000,
                    tmr.key,
                    ctx.address());
            assertThat(rc).isZero();
            awaitOne(initiator, target, entries, ctx);
            assertThat(local.get(ValueLayout.JAVA_LONG, 8)).isEqualTo(0x1122334455667788L);
        }
    }

    private static FabricRegion registered(MemorySegment memory, boolean hmem) {
        return hmem
                ? FabricRegion.device(memory.address(), memory.byteSize(), LibfabricAbi.FI_HMEM_SYSTEM, 0)
                : FabricRegion.host(memory);
    }

    /** Polls the initiator's queue (and the target's, which a manual-progress provider needs) for one completion. */
    private static void awaitOne(FabricDomain initiator, FabricDomain target, MemorySegment entries, MemorySegment ctx)
            throws TransferException {
        long deadline = System.nanoTime() + 10_000_000_000L;
        while (true) {
            target.cq.read(entries.address(), 64, "target");
            int n = initiator.cq.read(entries.address(), 64, "initiator");
            if (n > 0) {
                assertThat(n).isEqualTo(1);
                assertThat(entries.get(ValueLayout.JAVA_LONG, 0))
                        .as("the op's context")
                        .isEqualTo(ctx.address());
                return;
            }
            assertThat(System.nanoTime()).as("a completion within 10 s").isLessThan(deadline);
        }
    }

    @Test
    void aProviderThatIsNotThereIsNoMatchNamingWhatWasAsked() {
        assumeTrue(Libfabric.unavailableReason() == null, Libfabric.unavailableReason());
        assertThatThrownBy(() -> FabricInfo.query("nosuchprovider", LibfabricAbi.FI_RMA | LibfabricAbi.FI_ATOMIC, null))
                .isInstanceOf(FabricInfo.NoMatch.class)
                .hasMessageContaining(
                        "has no provider nosuchprovider offering FI_RMA | FI_ATOMIC on reliable-datagram endpoints");
    }

    /** A domain is chosen by its name, or by the device it is named after (efa's rdmap16s27-rdm for rdmap16s27). */
    @Test
    void aDomainIsChosenByNameAndAMissingOneListsThoseThereAre() throws Exception {
        assumeTrue(Libfabric.unavailableReason() == null, Libfabric.unavailableReason());
        try (FabricInfo lo = FabricInfo.query("tcp;ofi_rxm", LibfabricAbi.FI_RMA, "lo")) {
            assertThat(lo.domainName()).isEqualTo("lo");
        }
        assertThatThrownBy(() -> FabricInfo.query("tcp;ofi_rxm", LibfabricAbi.FI_RMA, "nosuch0"))
                .isInstanceOf(FabricInfo.NoMatch.class)
                .hasMessageContaining("has no domain nosuch0 of provider tcp;ofi_rxm offering FI_RMA (its domains: ")
                .hasMessageContaining("lo");
    }

    @Test
    void theChosenEntrySaysItsProviderAndModes() throws Exception {
        assumeTrue(Libfabric.unavailableReason() == null, Libfabric.unavailableReason());
        try (FabricInfo info = FabricInfo.query("tcp;ofi_rxm", LibfabricAbi.FI_RMA, null)) {
            assertThat(info.provider()).isEqualTo("tcp;ofi_rxm");
            assertThat(info.caps() & LibfabricAbi.FI_RMA).isNotZero();
            assertThat(info.mrMode() & ~FabricInfo.MR_MODES)
                    .as("only modes this binding honours")
                    .isZero();
            assertThat(info.maxMessageSize()).as("size_t: SIZE_MAX is -1").isNotZero();
        }
    }
}
