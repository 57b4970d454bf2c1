package dev.linkproof.transfer.verbs;

import static dev.linkproof.transfer.verbs.VerbsAbi.*;
import static java.lang.foreign.ValueLayout.JAVA_INT;
import static java.lang.foreign.ValueLayout.JAVA_LONG;

import dev.linkproof.transfer.Deadline;
import dev.linkproof.transfer.PeerFailureException;
import dev.linkproof.transfer.TransferException;
import dev.linkproof.transfer.TransferSpec;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;

/**
 * The send completions of a {@link VerbsDataPath}'s QPs, whatever the op. A WR's id carries its QP
 * (low 16 bits), how many WRs its completion accounts for (high 32) and {@link #LAST_OF_BATCH}.
 *
 * <p>The progress deadline's clock is read at the first empty poll after progress, not at each post
 * or completion: on rxe a READ or a small WRITE has completed by the time its post returns, and under
 * TCG every clock read is emulated. The deadline still counts "so long without progress", from at
 * most one poll after the progress.
 */
final class VerbsCompletions {
    /** The bit of a WR id that marks the last signaled WR of its QP's share of a batch. */
    static final long LAST_OF_BATCH = 1L << 31;

    /** Per QP, WRs posted and not completed yet: the post path adds what it posts. */
    final int[] outstanding;

    private final long[] batchesDone;
    private final QpSet set;
    private final VerbsDevice.QueuePair[] qps;
    private final MemorySegment wcs;
    private final int cqBatch;
    private final boolean event;
    private final long progressTimeoutNanos;
    private final TransferSpec spec;
    /** What a batch and a WR are called in failures: "batch" and "work completion", or the atomic path's. */
    private final String batchNoun;

    private final String completionNoun;
    /** When the current wait began (read at its first empty poll); meaningless while {@link #clockStale}. */
    private long lastProgress;
    /** Progress happened since {@link #lastProgress} was read: the next empty poll reads the clock afresh. */
    private boolean clockStale = true;

    VerbsCompletions(
            TransferSpec spec,
            QpSet set,
            VerbsDevice.QueuePair[] qps,
            int activeQps,
            VerbsSettings settings,
            Arena arena,
            long progressTimeoutNanos,
            String batchNoun,
            String completionNoun) {
        this.spec = spec;
        this.set = set;
        this.qps = qps;
        this.outstanding = new int[activeQps];
        this.batchesDone = new long[activeQps];
        this.cqBatch = settings.cqBatch();
        this.event = settings.eventMode();
        this.progressTimeoutNanos = progressTimeoutNanos;
        this.batchNoun = batchNoun;
        this.completionNoun = completionNoun;
        this.wcs = arena.allocate(WC_SIZE * cqBatch, 8);
    }

    /** The deadline counts afresh: a post or a wait began (the clock is read when a wait finds nothing). */
    void progressed() {
        clockStale = true;
    }

    /** Returns once QP {@code q} has room for {@code wrs} more WRs under {@code depth}. */
    void makeRoom(int q, int wrs, int depth, long completed, long posted) throws TransferException {
        while (outstanding[q] + wrs > depth) {
            if (drain() == 0) {
                waitForCompletion(completed, posted);
            }
        }
    }

    /** Returns once every QP completed its share of batch {@code batch} (counting from 1). */
    void awaitBatch(long batch, long posted) throws TransferException {
        clockStale = true;
        while (!done(batch)) {
            if (drain() == 0) {
                waitForCompletion(batch - 1, posted);
            }
        }
    }

    private boolean done(long batch) {
        for (long d : batchesDone) {
            if (d < batch) {
                return false;
            }
        }
        return true;
    }

    /** Takes what the CQ holds; returns how many completions it took. */
    private int drain() throws TransferException {
        int n = set.cq.poll(cqBatch, wcs);
        if (n < 0) {
            throw new TransferException("ibv_poll_cq failed (" + n + ")");
        }
        for (int i = 0; i < n; i++) {
            long base = i * WC_SIZE;
            int status = wcs.get(JAVA_INT, base + WC_STATUS);
            long id = wcs.get(JAVA_LONG, base + WC_WR_ID);
            if (status != WC_SUCCESS) {
                throw failed(status, id, wcs.get(JAVA_INT, base + WC_VENDOR_ERR));
            }
            int q = (int) (id & 0xffff);
            outstanding[q] -= (int) (id >>> 32);
            if ((id & LAST_OF_BATCH) != 0) {
                batchesDone[q]++;
            }
        }
        if (n > 0) {
            clockStale = true;
        }
        return n;
    }

    /** Nothing was there: spin (poll mode) or sleep on the channel (event mode), within the deadline. */
    private void waitForCompletion(long completed, long posted) throws TransferException {
        long now = System.nanoTime();
        if (clockStale) {
            lastProgress = now;
            clockStale = false;
        }
        long left = progressTimeoutNanos - (now - lastProgress);
        if (left <= 0) {
            throw new PeerFailureException("no completion on the verbs QPs of " + set.describe() + " for "
                            + progressTimeoutNanos / 1_000_000 + " ms (" + batchNoun + " " + (completed + 1)
                            + " of point "
                            + spec.pointId() + ", " + posted + " posted): the target rank is hung or unreachable")
                    .expired(Deadline.PROGRESS);
        }
        if (!event) {
            Thread.onSpinWait();
            return;
        }
        set.cq.arm();
        if (drain() > 0) {
            return; // it completed between the empty poll and the arm
        }
        set.cq.awaitEvent((int) Math.max(1, Math.min(left / 1_000_000, 1000)));
    }

    private TransferException failed(int status, long id, int vendorErr) {
        String what = completionNoun + " with error on QP " + qps[(int) (id & 0xffff)].qpNum() + ": "
                + set.device.lib().wcStatus(status) + ", vendor error 0x" + Integer.toHexString(vendorErr)
                + " (point " + spec.pointId() + ", " + spec.op().label() + ")";
        if (status == WC_RETRY_EXC_ERR || status == WC_RNR_RETRY_EXC_ERR) {
            return new PeerFailureException(what + ": the target rank stopped answering (did it die?)");
        }
        return new TransferException(what);
    }
}
