package dev.linkproof.conformance.verbs;

import static dev.linkproof.engine.api.LinkproofAssertions.assertThat;

import dev.linkproof.engine.api.Sweep;
import dev.linkproof.engine.api.TransferTest;
import dev.linkproof.transfer.Layout;
import dev.linkproof.transfer.Mode;
import dev.linkproof.transfer.Op;
import dev.linkproof.transfer.measure.Measurement;
import org.junit.jupiter.api.Tag;

/**
 * RDMA verbs over RC queue pairs, every point validated (fresh-pattern verification pass, per-slot
 * checksums compared across the ranks). Functional sizes and iteration counts: CI runs this inside a
 * QEMU/TCG VM on Soft-RoCE, where everything is about ten times slower than on a host. Without an RDMA
 * device every point is skipped with "no RDMA device" and the reason.
 */
@Tag("rdma")
class VerbsCorrectness {
    @TransferTest(
            op = {Op.WRITE, Op.READ},
            sizes = @Sweep(values = {"1", "4097", "64KiB", "1MiB"}),
            batch = {1, 3},
            transport = "verbs",
            iterations = 20,
            warmup = 2)
    void writeAndRead(Measurement m) {
        assertThat(m).isValid();
    }

    /** Two-sided: the target keeps receives posted from the same plan the initiator posts from. */
    @TransferTest(
            op = Op.SEND,
            sizes = @Sweep(values = {"1", "4097", "64KiB"}),
            batch = {1, 4},
            transport = "verbs",
            iterations = 20,
            warmup = 2)
    void sendRecv(Measurement m) {
        assertThat(m).isValid();
    }

    /**
     * RDMA WRITE with an immediate: the data by RDMA, a zero-length receive consumed per work request,
     * its completion's opcode, byte count and immediate checked by the target.
     */
    @TransferTest(
            op = Op.WRITE_WITH_IMM,
            sizes = @Sweep(values = {"8", "64KiB"}),
            batch = {1, 4},
            transport = "verbs",
            iterations = 20,
            warmup = 2)
    void writeWithImmediate(Measurement m) {
        assertThat(m).isValid();
        org.assertj.core.api.Assertions.assertThat(m.validation().completions().checked())
                .isPositive();
    }

    /**
     * Immediates with several batches in flight over 1 and 2 QPs: each batch's immediates are
     * written into the pre-built work requests while earlier batches are still outstanding, and the
     * target checks every one against (point, batch, work request).
     */
    @TransferTest(
            op = Op.WRITE_WITH_IMM,
            sizes = @Sweep(values = "4KiB"),
            batch = 16,
            qps = {1, 2},
            pipeline = 4,
            transport = "verbs",
            iterations = 10,
            warmup = 2,
            settings = {"verbs.merge=false", "verbs.postList=4", "verbs.signalEvery=4", "verbs.txDepth=32"})
    void immediatesWithBatchesInFlight(Measurement m) {
        assertThat(m).isValid();
        org.assertj.core.api.Assertions.assertThat(m.validation().completions().checked())
                .as("receive completions the target checked")
                .isEqualTo((2 + 10 + 1) * 16L);
    }

    /** N QPs: merged batches striped over them in contiguous blocks; strided slots spread one WR each. */
    @TransferTest(
            op = {Op.WRITE, Op.READ, Op.SEND},
            sizes = @Sweep(values = {"3", "64KiB"}),
            qps = {2, 4},
            batch = {1, 8},
            layout = Layout.STRIDED,
            transport = "verbs",
            iterations = 10,
            warmup = 2)
    void multipleQueuePairs(Measurement m) {
        assertThat(m).isValid();
    }

    /** Post lists and CQ moderation, several batches in flight, the send queue smaller than the work. */
    @TransferTest(
            op = {Op.WRITE, Op.READ},
            sizes = @Sweep(values = "4KiB"),
            batch = 32,
            qps = {1, 2},
            pipeline = {1, 4},
            transport = "verbs",
            iterations = 10,
            warmup = 2,
            settings = {
                "verbs.merge=false",
                "verbs.postList=8",
                "verbs.signalEvery=4",
                "verbs.txDepth=32",
                "verbs.cqBatch=4"
            })
    void postListsAndModeration(Measurement m) {
        assertThat(m).isValid();
    }

    /** Completions through the completion channel instead of busy polling. */
    @TransferTest(
            op = {Op.WRITE, Op.READ, Op.SEND},
            sizes = @Sweep(values = {"4097", "256KiB"}),
            batch = {1, 4},
            transport = "verbs",
            iterations = 10,
            warmup = 2,
            settings = "verbs.completion=event")
    void eventMode(Measurement m) {
        assertThat(m).isValid();
    }

    /** Inline sends up to the device's maximum, a smaller path MTU, unaligned slot starts. */
    @TransferTest(
            op = {Op.WRITE, Op.SEND},
            sizes = @Sweep(values = {"8", "200", "4097"}),
            offset = {0, 7},
            transport = "verbs",
            iterations = 10,
            warmup = 2,
            settings = {"verbs.inline=max", "verbs.mtu=1024"})
    void inlineAndMtu(Measurement m) {
        assertThat(m).isValid();
    }

    /** Chunking: a merged 16 MiB batch is over rxe's max_msg_sz (8 MiB) but 4 MiB chunks are not. */
    @TransferTest(
            op = {Op.WRITE, Op.READ},
            sizes = @Sweep(values = "1MiB"),
            batch = 16,
            transport = "verbs",
            iterations = 3,
            warmup = 1,
            settings = {"verbs.chunkBytes=4MiB", "verbs.maxChunks=64"})
    void chunkedMergedBatch(Measurement m) {
        assertThat(m).isValid();
    }

    @TransferTest(
            op = {Op.WRITE, Op.READ},
            sizes = @Sweep(values = "8"),
            mode = Mode.LATENCY,
            transport = "verbs",
            iterations = 200,
            warmup = 20)
    void latency(Measurement m) {
        assertThat(m).isValid();
        org.assertj.core.api.Assertions.assertThat(m.latency().hasPercentiles()).isTrue();
    }
}
