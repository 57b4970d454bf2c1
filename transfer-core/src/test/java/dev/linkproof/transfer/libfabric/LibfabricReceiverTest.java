package dev.linkproof.transfer.libfabric;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.linkproof.transfer.Op;
import dev.linkproof.transfer.TransferSpec;
import dev.linkproof.transfer.validate.CompletionCheck;
import dev.linkproof.transfer.validate.CompletionMismatch;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import org.junit.jupiter.api.Test;

/**
 * The target's receive checks can fail: receives posted on a real shm endpoint, completions that
 * never come (a short count) and one of the wrong length, each reported as a completion mismatch
 * naming what differs.
 */
class LibfabricReceiverTest {
    @Test
    void aShortCountAndAWrongLengthAreCompletionMismatches() throws Exception {
        assumeTrue(Libfabric.unavailableReason() == null, Libfabric.unavailableReason());
        TransferSpec spec = TransferSpec.builder()
                .transport(LibfabricTransport.ID)
                .pointId("LibfabricReceiverTest")
                .op(Op.SEND)
                .size(100)
                .batch(2)
                .connections(1)
                .build();
        BatchPlan plan = BatchPlan.of(spec, 1);
        try (Arena arena = Arena.ofShared();
                FabricDomain d = FabricDomain.open(
                        FabricInfo.query("shm", LibfabricAbi.FI_MSG, null), LibfabricAbi.FI_CQ_FORMAT_MSG, 64, 1)) {
            MemorySegment region = arena.allocate(spec.slots().regionBytes(), 4096);
            FabricEndpoint ep = d.endpoint();
            FabricMemory mr = d.register(region, 1, ep);
            LibfabricReceiver receiver = new LibfabricReceiver(
                    plan, 1, new FabricEndpoint[] {ep}, new FabricMemory[] {mr}, region.address(), arena);
            receiver.postAll();

            CompletionCheck none = receiver.report(1);
            assertThat(none.passed()).isFalse();
            assertThat(none.first().field()).isEqualTo(CompletionMismatch.COUNT);
            assertThat(none.describe()).contains("0 of 2 receive completions arrived");

            receiver.accept(receiver.context(0), 100);
            receiver.accept(receiver.context(1), 99);
            CompletionCheck wrong = receiver.report(1);
            assertThat(wrong.passed()).isFalse();
            assertThat(wrong.first().field()).isEqualTo(CompletionMismatch.BYTE_LEN);
            assertThat(wrong.describe())
                    .contains("slot 1 (batch 0, QP 0, work request 1): byte_len expected 100, found 99");
        }
    }
}
