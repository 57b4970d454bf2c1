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
 * The initiator's verbs data path, for every op. As perftest ({@code ctx_set_send_wqes}), every WR
 * of a batch is built once in native memory when the path is made, and the op fills in only its own
 * fields ({@link PieceFields}; {@link BatchFields} for WRs that change per batch), so nothing is
 * allocated per batch. Per QP the WRs are chained into post lists of {@code verbs.postList}, one in
 * {@code verbs.signalEvery} signaled and always the last of the QP's share of a batch;
 * {@link #post()} never has more than the send-queue depth outstanding on a QP. What a signaled
 * WR's {@code wr_id} carries: {@link VerbsCompletions}.
 */
final class VerbsDataPath implements DataPath {
    private static final long LAST_OF_BATCH = VerbsCompletions.LAST_OF_BATCH;

    /**
     * An op's own fields of the WR for one piece of the plan, written once when the chain is built:
     * the SGE's address and length, the remote address and key (at the op's offsets in the
     * {@code wr} union), and any flag beyond {@code IBV_SEND_SIGNALED}, which is already set. The
     * chain has set the rest: id, next, SGE list, lkey, opcode, signaling.
     */
    @FunctionalInterface
    interface PieceFields {
        void set(MemorySegment wr, MemorySegment sge, WorkPlan.Piece piece);
    }

    /**
     * Fields that change with every batch (immediates, atomic operands), written into one QP's WRs
     * just before that QP's share of the batch is posted. The provider copies a WR when it is posted,
     * so the previous batch's posts (returned already) are not disturbed.
     */
    @FunctionalInterface
    interface BatchFields {
        /**
         * @param batch 0-based over the whole point: warmup, timed loop, then the verification pass
         * @param wrs   the QP's WRs, WR k at {@code k × SEND_WR_SIZE}
         * @param sges  the QP's SGEs, SGE k at {@code k × SGE_SIZE}
         * @param slots per WR, the slot its piece starts in
         * @param index per WR, its index within the batch, queue pair by queue pair ({@link WorkPlan#firstWorkRequest})
         */
        void set(long batch, MemorySegment wrs, MemorySegment sges, int[] slots, int[] index);
    }

    private final QpSet set;
    private final Arena arena = Arena.ofShared();
    private final VerbsDevice.QueuePair[] qps;
    /** Per QP: the first WR of each post list, and its length. */
    private final MemorySegment[][] lists;

    private final int[][] listLengths;
    private final int depth;
    /** What failures call this op's WRs: "" or "atomic ". */
    private final String noun;
    /** Null for ops whose WRs are the same in every batch. */
    private final BatchFields batchFields;
    /**
     * Per QP its blocks of WRs and SGEs, seen with the global scope (no scope check per access in
     * {@link BatchFields}; the arena outlives every post, close() frees it), and per WR its slot and
     * index in the batch.
     */
    private final MemorySegment[] wrBlocks;

    private final MemorySegment[] sgeBlocks;
    private final int[][] wrSlot;
    private final int[][] wrIndex;
    /** The QPs' send completions: what is outstanding, which batches are done, the progress deadline. */
    private final VerbsCompletions completions;

    private long posted;
    private long completed;

    /**
     * @param noun        what failures call this op's WRs and batches: "" (data) or "atomic "
     * @param opcode      the {@code IBV_WR_*} opcode of every WR
     * @param pieceFields the op's fields of each WR, once
     * @param batchFields the op's fields that change per batch; null when none do
     */
    VerbsDataPath(
            TransferSpec spec,
            VerbsSettings settings,
            QpSet set,
            WorkPlan plan,
            long progressTimeoutNanos,
            String noun,
            int opcode,
            PieceFields pieceFields,
            BatchFields batchFields) {
        this.set = set;
        this.noun = noun;
        this.batchFields = batchFields;
        this.depth = Math.max(1, set.sendDepth());
        // Clamp the knobs so a full send queue always holds a signaled WR (else nothing could free it).
        int postList = Math.max(1, Math.min(settings.postList(), depth > 1 ? depth / 2 : 1));
        int signalEvery = Math.max(1, Math.min(settings.signalEvery(), depth - postList > 0 ? depth - postList : 1));
        int lkey = set.mr.lkey();
        int n = plan.activeQps();
        qps = set.qps.toArray(VerbsDevice.QueuePair[]::new);
        lists = new MemorySegment[n][];
        listLengths = new int[n][];
        completions = new VerbsCompletions(
                spec, set, qps, n, settings, arena, progressTimeoutNanos, noun + "batch", noun + "work completion");
        wrBlocks = new MemorySegment[n];
        sgeBlocks = new MemorySegment[n];
        wrSlot = new int[n][];
        wrIndex = new int[n][];
        for (int q = 0; q < n; q++) {
            List<WorkPlan.Piece> pieces = plan.perQp().get(q);
            int w = pieces.size();
            MemorySegment wrs = arena.allocate(SEND_WR_SIZE * w, 8);
            MemorySegment sges = arena.allocate(SGE_SIZE * w, 8);
            wrBlocks[q] = MemorySegment.ofAddress(wrs.address()).reinterpret(wrs.byteSize());
            sgeBlocks[q] = MemorySegment.ofAddress(sges.address()).reinterpret(sges.byteSize());
            wrSlot[q] = new int[w];
            wrIndex[q] = new int[w];
            int first = plan.firstWorkRequest(q);
            int groups = (w + postList - 1) / postList;
            lists[q] = new MemorySegment[groups];
            listLengths[q] = new int[groups];
            int lastSignal = -1;
            for (int k = 0; k < w; k++) {
                WorkPlan.Piece p = pieces.get(k);
                MemorySegment wr = wrs.asSlice(k * SEND_WR_SIZE, SEND_WR_SIZE);
                MemorySegment sge = sges.asSlice(k * SGE_SIZE, SGE_SIZE);
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
                wr.set(JAVA_INT, SEND_WR_SEND_FLAGS, signaled ? (int) SEND_SIGNALED : 0);
                pieceFields.set(wr, sge, p);
                wrSlot[q][k] = p.slot();
                wrIndex[q][k] = first + k;
                if (k % postList == 0) {
                    lists[q][k / postList] = wr;
                }
                listLengths[q][k / postList]++;
            }
        }
    }

    /**
     * The path of a data op (WRITE, READ, SEND, WRITE_WITH_IMM): each WR moves its piece between the
     * same offset of both regions, inline where the op, the memory and the QP allow it;
     * WRITE_WITH_IMM's WRs get each batch's immediates ({@link Immediates}), which the target checks
     * in its receive completions.
     */
    static VerbsDataPath transfer(
            TransferSpec spec,
            VerbsSettings settings,
            QpSet set,
            WorkPlan plan,
            long remoteBase,
            int rkey,
            long progressTimeoutNanos,
            Immediates immediates) {
        int opcode = switch (spec.op()) {
            case WRITE -> (int) WR_RDMA_WRITE;
            case READ -> (int) WR_RDMA_READ;
            case SEND -> (int) WR_SEND;
            case WRITE_WITH_IMM -> (int) WR_RDMA_WRITE_WITH_IMM;
            case FETCH_ADD, COMPARE_SWAP -> throw new IllegalArgumentException("atomics are built by AtomicOperands");
        };
        int inline = spec.op() == Op.READ || !set.cpuReadable
                ? 0
                : settings.inlineMax() ? set.inlineGranted() : Math.min(settings.inlineBytes(), set.inlineGranted());
        long localBase = set.mr.address();
        PieceFields pieces = (wr, sge, p) -> {
            sge.set(JAVA_LONG, SGE_ADDR, localBase + p.offset());
            sge.set(JAVA_INT, SGE_LENGTH, (int) p.length());
            if (p.length() <= inline) {
                wr.set(JAVA_INT, SEND_WR_SEND_FLAGS, wr.get(JAVA_INT, SEND_WR_SEND_FLAGS) | (int) SEND_INLINE);
            }
            wr.set(JAVA_LONG, SEND_WR_RDMA_REMOTE_ADDR, remoteBase + p.offset());
            wr.set(JAVA_INT, SEND_WR_RDMA_RKEY, rkey);
        };
        BatchFields perBatch = spec.op() != Op.WRITE_WITH_IMM
                ? null
                : (batch, wrs, sges, slots, index) -> {
                    for (int k = 0; k < index.length; k++) {
                        wrs.set(
                                JAVA_INT,
                                k * SEND_WR_SIZE + SEND_WR_IMM_DATA,
                                immediates.immediate(batch, index[k], slots[k]));
                    }
                };
        return new VerbsDataPath(spec, settings, set, plan, progressTimeoutNanos, "", opcode, pieces, perBatch);
    }

    @Override
    public void post() throws TransferException {
        completions.progressed();
        for (int q = 0; q < qps.length; q++) {
            if (batchFields != null) {
                batchFields.set(posted, wrBlocks[q], sgeBlocks[q], wrSlot[q], wrIndex[q]);
            }
            MemorySegment[] l = lists[q];
            int[] len = listLengths[q];
            for (int g = 0; g < l.length; g++) {
                completions.makeRoom(q, len[g], depth, completed, posted);
                int rc = qps[q].postSend(l[g]);
                if (rc != 0) {
                    throw new TransferException("ibv_post_send on QP " + qps[q].qpNum() + " failed: "
                            + set.device.lib().strerror(rc) + " (" + len[g] + " " + noun + "WRs, "
                            + completions.outstanding[q]
                            + " outstanding of a send queue of " + depth + ")");
                }
                completions.outstanding[q] += len[g];
            }
        }
        posted++;
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
