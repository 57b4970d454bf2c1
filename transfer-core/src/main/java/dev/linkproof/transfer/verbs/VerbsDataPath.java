package dev.linkproof.transfer.verbs;

import static dev.linkproof.transfer.verbs.VerbsAbi.*;
import static java.lang.foreign.ValueLayout.ADDRESS;
import static java.lang.foreign.ValueLayout.JAVA_INT;
import static java.lang.foreign.ValueLayout.JAVA_LONG;

import dev.linkproof.transfer.Op;
import dev.linkproof.transfer.TransferException;
import dev.linkproof.transfer.TransferSpec;
import dev.linkproof.transfer.spi.DataPath;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.util.List;

/**
 * The initiator's verbs data path. Every work request of a batch is pre-built in native memory
 * when the path is made: per QP, the plan's pieces as {@code ibv_send_wr}s with their SGEs, chained
 * through {@code next} into post lists of {@code verbs.postList} WRs, one WR in
 * {@code verbs.signalEvery} signaled and always the last of the batch on that QP. {@link #post()}
 * hands the lists to the provider through the context's {@code post_send} op, never more than
 * the send-queue depth outstanding on a QP; {@link #awaitOldest()} polls the shared CQ
 * ({@code verbs.cqBatch} completions per call) or, in event mode, sleeps on the completion
 * channel. Nothing is allocated per batch.
 *
 * <p>WRITE_WITH_IMM: before each batch is posted, every WR gets that batch's immediate
 * ({@link Immediates}), which the target checks in its receive completions.
 *
 * <p>A signaled WR's {@code wr_id} says which QP it belongs to, how many WRs its completion
 * retires (the unsignaled ones before it), and whether it ends that QP's share of a batch.
 */
final class VerbsDataPath implements DataPath {
    private static final long LAST_OF_BATCH = VerbsCompletions.LAST_OF_BATCH;

    private final TransferSpec spec;
    private final QpSet set;
    private final Arena arena = Arena.ofShared();
    private final VerbsDevice.QueuePair[] qps;
    /** Per QP: the first WR of each post list, and its length. */
    private final MemorySegment[][] lists;
    private final int[][] listLengths;
    private final int depth;
    /** WRITE_WITH_IMM: per QP its block of WRs, and per WR its index in the batch and first slot. */
    private final Immediates immediates;
    private final MemorySegment[] wrBlocks;
    private final int[][] wrIndex;
    private final int[][] wrSlot;
    /** The QPs' send completions: what is outstanding, which batches are done, the progress deadline. */
    private final VerbsCompletions completions;
    private long posted;
    private long completed;

    VerbsDataPath(TransferSpec spec, VerbsSettings settings, QpSet set, WorkPlan plan, long remoteBase, int rkey,
                  long progressTimeoutNanos, Immediates immediates) {
        this.spec = spec;
        this.immediates = spec.op() == Op.WRITE_WITH_IMM ? immediates : null;
        this.set = set;
        this.depth = Math.max(1, set.sendDepth());
        // Clamp the knobs so a full send queue always holds a signaled WR (else nothing could free it).
        int postList = Math.max(1, Math.min(settings.postList(), depth > 1 ? depth / 2 : 1));
        int signalEvery = Math.max(1, Math.min(settings.signalEvery(), depth - postList > 0 ? depth - postList : 1));
        int opcode = switch (spec.op()) {
            case WRITE -> (int) WR_RDMA_WRITE;
            case READ -> (int) WR_RDMA_READ;
            case SEND -> (int) WR_SEND;
            case WRITE_WITH_IMM -> (int) WR_RDMA_WRITE_WITH_IMM;
            case FETCH_ADD, COMPARE_SWAP -> throw new IllegalArgumentException("atomics have their own path");
        };
        int inline = spec.op() == Op.READ || !set.cpuReadable ? 0 : settings.inlineMax() ? set.inlineGranted()
                : Math.min(settings.inlineBytes(), set.inlineGranted());
        long localBase = set.mr.address();
        int lkey = set.mr.lkey();
        int n = plan.activeQps();
        qps = set.qps.toArray(VerbsDevice.QueuePair[]::new);
        lists = new MemorySegment[n][];
        listLengths = new int[n][];
        completions = new VerbsCompletions(spec, set, qps, n, settings, arena, progressTimeoutNanos, "batch", "work completion");
        wrBlocks = new MemorySegment[n];
        wrIndex = new int[n][];
        wrSlot = new int[n][];
        for (int q = 0; q < n; q++) {
            List<WorkPlan.Piece> pieces = plan.perQp().get(q);
            int w = pieces.size();
            MemorySegment wrs = arena.allocate(SEND_WR_SIZE * w, 8);
            MemorySegment sges = arena.allocate(SGE_SIZE * w, 8);
            wrBlocks[q] = wrs;
            wrIndex[q] = new int[w];
            wrSlot[q] = new int[w];
            int first = plan.firstWorkRequest(q);
            int groups = (w + postList - 1) / postList;
            lists[q] = new MemorySegment[groups];
            listLengths[q] = new int[groups];
            int lastSignal = -1;
            for (int k = 0; k < w; k++) {
                WorkPlan.Piece p = pieces.get(k);
                MemorySegment wr = wrs.asSlice(k * SEND_WR_SIZE, SEND_WR_SIZE);
                MemorySegment sge = sges.asSlice(k * SGE_SIZE, SGE_SIZE);
                sge.set(JAVA_LONG, SGE_ADDR, localBase + p.offset());
                sge.set(JAVA_INT, SGE_LENGTH, (int) p.length());
                sge.set(JAVA_INT, SGE_LKEY, lkey);
                boolean last = k == w - 1;
                boolean signaled = last || (k + 1) % signalEvery == 0;
                long id = q;
                if (signaled) {
                    id |= (long) (k - lastSignal) << 32;
                    lastSignal = k;
                }
                if (last) {
                    id |= LAST_OF_BATCH;
                }
                boolean endOfList = (k + 1) % postList == 0 || last;
                wr.set(JAVA_LONG, SEND_WR_WR_ID, id);
                wr.set(ADDRESS, SEND_WR_NEXT, endOfList ? MemorySegment.NULL : wrs.asSlice((k + 1) * SEND_WR_SIZE));
                wr.set(ADDRESS, SEND_WR_SG_LIST, sge);
                wr.set(JAVA_INT, SEND_WR_NUM_SGE, 1);
                wr.set(JAVA_INT, SEND_WR_OPCODE, opcode);
                int flags = (signaled ? (int) SEND_SIGNALED : 0) | (p.length() <= inline ? (int) SEND_INLINE : 0);
                wr.set(JAVA_INT, SEND_WR_SEND_FLAGS, flags);
                wrIndex[q][k] = first + k;
                wrSlot[q][k] = p.slot();
                wr.set(JAVA_INT, SEND_WR_IMM_DATA, 0); // WRITE_WITH_IMM: set per batch in post()
                wr.set(JAVA_LONG, SEND_WR_RDMA_REMOTE_ADDR, remoteBase + p.offset());
                wr.set(JAVA_INT, SEND_WR_RDMA_RKEY, rkey);
                if (k % postList == 0) {
                    lists[q][k / postList] = wr;
                }
                listLengths[q][k / postList]++;
            }
        }
    }

    @Override
    public void post() throws TransferException {
        completions.progressed();
        if (immediates != null) {
            setImmediates(posted);
        }
        for (int q = 0; q < qps.length; q++) {
            MemorySegment[] l = lists[q];
            int[] len = listLengths[q];
            for (int g = 0; g < l.length; g++) {
                completions.makeRoom(q, len[g], depth, completed, posted);
                int rc = qps[q].postSend(l[g]);
                if (rc != 0) {
                    throw new TransferException("ibv_post_send on QP " + qps[q].qpNum() + " failed: "
                            + set.device.lib().strerror(rc) + " (" + len[g] + " WRs, " + completions.outstanding[q]
                            + " outstanding of a send queue of " + depth + ")");
                }
                completions.outstanding[q] += len[g];
            }
        }
        posted++;
    }

    /**
     * Writes batch {@code batch}'s immediates into the pre-built WRs. The provider copies a WR when
     * it is posted, so the previous batch's posts (returned already) are not disturbed.
     */
    private void setImmediates(long batch) {
        for (int q = 0; q < wrBlocks.length; q++) {
            MemorySegment wrs = wrBlocks[q];
            int[] index = wrIndex[q];
            int[] slot = wrSlot[q];
            for (int k = 0; k < index.length; k++) {
                wrs.set(JAVA_INT, k * SEND_WR_SIZE + SEND_WR_IMM_DATA, immediates.immediate(batch, index[k], slot[k]));
            }
        }
    }

    @Override
    public void awaitOldest() throws TransferException {
        if (completed >= posted) {
            throw new IllegalStateException("awaitOldest() with no batch in flight");
        }
        long target = completed + 1;
        completions.awaitBatch(target, posted);
        completed = target;
    }

    @Override
    public void close() {
        set.close();
        if (arena.scope().isAlive()) {
            arena.close();
        }
    }
}
