package dev.linkproof.transfer.verbs;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.linkproof.transfer.Layout;
import dev.linkproof.transfer.TransferException;
import dev.linkproof.transfer.TransferSpec;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class WorkPlanTest {
    private static TransferSpec spec(long size, int batch, int qps, Layout layout, Map<String, String> settings) {
        return TransferSpec.builder()
                .transport("verbs")
                .size(size)
                .batch(batch)
                .connections(qps)
                .layout(layout)
                .settings(settings)
                .build();
    }

    private static WorkPlan plan(TransferSpec s) {
        return WorkPlan.of(s, VerbsSettings.of(s));
    }

    /** Every byte of every slot is covered exactly once, whatever the knobs. */
    private static void coversEverySlotOnce(TransferSpec s, WorkPlan p) {
        long[] hits = new long[(int) s.slots().regionBytes()];
        for (List<WorkPlan.Piece> qp : p.perQp()) {
            for (WorkPlan.Piece piece : qp) {
                assertThat(piece.length()).isPositive();
                for (long b = piece.offset(); b < piece.offset() + piece.length(); b++) {
                    hits[(int) b]++;
                }
            }
        }
        for (int slot = 0; slot < s.batch(); slot++) {
            long start = s.slots().slotOffset(slot);
            for (long b = start; b < start + s.size(); b++) {
                assertThat(hits[(int) b])
                        .as("byte %d of slot %d", b - start, slot)
                        .isEqualTo(1);
            }
        }
        assertThat(java.util.Arrays.stream(hits).sum()).isEqualTo(s.bytesPerIteration());
    }

    @Test
    void contiguousBatchMergesIntoOneWorkRequest() {
        TransferSpec s = spec(4096, 8, 1, Layout.CONTIGUOUS, Map.of());
        WorkPlan p = plan(s);
        assertThat(p.workRequests()).isEqualTo(1);
        assertThat(p.largest()).isEqualTo(8 * 4096);
        assertThat(p.mergedTransfers()).isEqualTo(8);
        coversEverySlotOnce(s, p);
    }

    @Test
    void mergeOffAndStridedSlotsPostOnePerTransfer() {
        TransferSpec off = spec(4096, 8, 1, Layout.CONTIGUOUS, Map.of("verbs.merge", "false"));
        assertThat(plan(off).workRequests()).isEqualTo(8);
        TransferSpec strided = spec(4096, 8, 1, Layout.STRIDED, Map.of());
        assertThat(plan(strided).workRequests()).isEqualTo(8);
        coversEverySlotOnce(strided, plan(strided));
    }

    @Test
    void mergedBatchIsSpreadOverQueuePairsInContiguousBlocks() {
        TransferSpec s = spec(65536, 16, 4, Layout.CONTIGUOUS, Map.of());
        WorkPlan p = plan(s);
        assertThat(p.activeQps()).isEqualTo(4);
        assertThat(p.perQp()).allSatisfy(qp -> assertThat(qp).hasSize(1));
        coversEverySlotOnce(s, p);
    }

    @Test
    void chunkingAndMaxChunks() {
        TransferSpec s = spec(1 << 20, 1, 1, Layout.CONTIGUOUS, Map.of("verbs.chunkBytes", "64KiB"));
        assertThat(plan(s).workRequests()).isEqualTo(16);
        TransferSpec capped =
                spec(1 << 20, 1, 1, Layout.CONTIGUOUS, Map.of("verbs.chunkBytes", "64KiB", "verbs.maxChunks", "4"));
        assertThat(plan(capped).workRequests()).isEqualTo(4);
        assertThat(plan(capped).largest()).isEqualTo(256 * 1024);
        coversEverySlotOnce(capped, plan(capped));
    }

    @Test
    void fewerBytesThanQueuePairsStillCoversEveryByteOnce() {
        for (long size : new long[] {1, 3, 7, 4097}) {
            TransferSpec s = spec(size, 1, 8, Layout.CONTIGUOUS, Map.of());
            WorkPlan p = plan(s);
            assertThat(p.activeQps()).isEqualTo((int) Math.min(8, size));
            coversEverySlotOnce(s, p);
        }
        TransferSpec odd = spec(4097, 3, 8, Layout.STRIDED, Map.of("verbs.chunkBytes", "1000"));
        coversEverySlotOnce(odd, plan(odd));
    }

    @Test
    void mergedRequestOverMaxMsgSizeFailsNamingSizesAndWaysOut() throws Exception {
        TransferSpec s = spec(1 << 20, 16, 1, Layout.CONTIGUOUS, Map.of());
        VerbsSettings settings = VerbsSettings.of(s);
        WorkPlan p = WorkPlan.of(s, settings);
        assertThatThrownBy(() -> p.checkMaxMessage(8 << 20, "rxe0 port 1", s, settings))
                .isInstanceOf(TransferException.class)
                .hasMessageContaining(
                        "merged work request of 16777216 bytes (16 MiB: 16 contiguous transfers of 1 MiB)")
                .hasMessageContaining("exceeds max_msg_sz 8388608 bytes (8 MiB) of rxe0 port 1")
                .hasMessageContaining("verbs.chunkBytes=8388608")
                .hasMessageContaining("verbs.merge=false");
        TransferSpec chunked = spec(1 << 20, 16, 1, Layout.CONTIGUOUS, Map.of("verbs.chunkBytes", "8MiB"));
        VerbsSettings cs = VerbsSettings.of(chunked);
        WorkPlan.of(chunked, cs).checkMaxMessage(8 << 20, "rxe0", chunked, cs);
    }
}
