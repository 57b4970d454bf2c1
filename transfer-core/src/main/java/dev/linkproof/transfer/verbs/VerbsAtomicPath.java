package dev.linkproof.transfer.verbs;

import static dev.linkproof.transfer.verbs.VerbsAbi.*;
import static java.lang.foreign.ValueLayout.ADDRESS;
import static java.lang.foreign.ValueLayout.JAVA_INT;
import static java.lang.foreign.ValueLayout.JAVA_LONG;

import dev.linkproof.transfer.Op;
import dev.linkproof.transfer.TransferException;
import dev.linkproof.transfer.TransferSpec;
import dev.linkproof.transfer.atomic.AtomicLayout;
import dev.linkproof.transfer.memory.Buffer;
import dev.linkproof.transfer.spi.DataPath;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.util.List;

/**
 * The initiator's verbs data path of an atomic point: one {@code IBV_WR_ATOMIC_FETCH_AND_ADD} or
 * {@code IBV_WR_ATOMIC_CMP_AND_SWP} per counter per batch, 8 bytes, the counters spread over the
 * plan's QPs (every op of a counter on one QP, which executes them in order: the compare-and-swap
 * chain relies on it). The work requests are pre-built in native memory as in {@link VerbsDataPath}
 * (post lists of {@code verbs.postList}, one WR in {@code verbs.signalEvery} signaled and the last of
 * each QP's share, never more than the send-queue depth outstanding); how many atomics a QP has at
 * the responder at once is the QP's {@code max_rd_atomic}, set from the device's {@code max_qp_rd_atom}
 * (or {@code verbs.rdAtomic}) when the QPs were connected.
 *
 * <p>Before each batch is posted, every WR gets that batch's operands from the local buffer
 * ({@link AtomicLayout}): the addend into {@code compare_add}, or the chain's compare value and the
 * next link into {@code compare_add} and {@code swap}; and its SGE the batch's result word, where the
 * responder's reply (the counter's prior value) lands. The provider copies a WR when it is posted,
 * so changing them for the next batch does not disturb one in flight.
 */
final class VerbsAtomicPath implements DataPath {
    private static final long LAST_OF_BATCH = VerbsCompletions.LAST_OF_BATCH;

    private final TransferSpec spec;
    private final QpSet set;
    private final Arena arena = Arena.ofShared();
    private final VerbsDevice.QueuePair[] qps;
    private final MemorySegment[][] lists;
    private final int[][] listLengths;
    private final int depth;
    private final boolean swap;
    private final AtomicLayout layout;
    private final MemorySegment local;
    private final long localBase;
    /** Per QP its block of WRs and SGEs; per WR the counter (slot) it works on. */
    private final MemorySegment[] wrBlocks;
    private final MemorySegment[] sgeBlocks;
    private final int[][] wrSlot;
    /** The QPs' send completions: what is outstanding, which batches are done, the progress deadline. */
    private final VerbsCompletions completions;
    private long posted;
    private long completed;

    VerbsAtomicPath(TransferSpec spec, VerbsSettings settings, QpSet set, WorkPlan plan, long remoteBase, int rkey,
                    long progressTimeoutNanos, Buffer buffer) {
        this.spec = spec;
        this.set = set;
        this.depth = Math.max(1, set.sendDepth());
        this.swap = spec.op() == Op.COMPARE_SWAP;
        this.layout = AtomicLayout.of(spec);
        MemorySegment seg = buffer.segment();
        this.local = MemorySegment.ofAddress(seg.address()).reinterpret(seg.byteSize());
        this.localBase = set.mr.address();
        int postList = Math.max(1, Math.min(settings.postList(), depth > 1 ? depth / 2 : 1));
        int signalEvery = Math.max(1, Math.min(settings.signalEvery(), depth - postList > 0 ? depth - postList : 1));
        int opcode = (int) (swap ? WR_ATOMIC_CMP_AND_SWP : WR_ATOMIC_FETCH_AND_ADD);
        int lkey = set.mr.lkey();
        int n = plan.activeQps();
        qps = set.qps.toArray(VerbsDevice.QueuePair[]::new);
        lists = new MemorySegment[n][];
        listLengths = new int[n][];
        completions = new VerbsCompletions(spec, set, qps, n, settings, arena, progressTimeoutNanos, "atomic batch",
                "atomic work completion");
        wrBlocks = new MemorySegment[n];
        sgeBlocks = new MemorySegment[n];
        wrSlot = new int[n][];
        for (int q = 0; q < n; q++) {
            List<WorkPlan.Piece> pieces = plan.perQp().get(q);
            int w = pieces.size();
            MemorySegment wrs = arena.allocate(SEND_WR_SIZE * w, 8);
            MemorySegment sges = arena.allocate(SGE_SIZE * w, 8);
            wrBlocks[q] = MemorySegment.ofAddress(wrs.address()).reinterpret(wrs.byteSize());
            sgeBlocks[q] = MemorySegment.ofAddress(sges.address()).reinterpret(sges.byteSize());
            wrSlot[q] = new int[w];
            int groups = (w + postList - 1) / postList;
            lists[q] = new MemorySegment[groups];
            listLengths[q] = new int[groups];
            int lastSignal = -1;
            for (int k = 0; k < w; k++) {
                WorkPlan.Piece p = pieces.get(k);
                MemorySegment wr = wrs.asSlice(k * SEND_WR_SIZE, SEND_WR_SIZE);
                MemorySegment sge = sges.asSlice(k * SGE_SIZE, SGE_SIZE);
                sge.set(JAVA_LONG, SGE_ADDR, localBase + layout.result(0, p.slot()));
                sge.set(JAVA_INT, SGE_LENGTH, (int) AtomicLayout.WORD);
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
                wr.set(JAVA_LONG, SEND_WR_ATOMIC_REMOTE_ADDR, remoteBase + p.offset());
                wr.set(JAVA_INT, SEND_WR_ATOMIC_RKEY, rkey);
                wrSlot[q][k] = p.slot();
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
        int ring = layout.ring(posted);
        for (int q = 0; q < qps.length; q++) {
            setOperands(q, ring);
            MemorySegment[] l = lists[q];
            int[] len = listLengths[q];
            for (int g = 0; g < l.length; g++) {
                completions.makeRoom(q, len[g], depth, completed, posted);
                int rc = qps[q].postSend(l[g]);
                if (rc != 0) {
                    throw new TransferException("ibv_post_send on QP " + qps[q].qpNum() + " failed: "
                            + set.device.lib().strerror(rc) + " (" + len[g] + " atomic WRs, " + completions.outstanding[q]
                            + " outstanding of a send queue of " + depth + ")");
                }
                completions.outstanding[q] += len[g];
            }
        }
        posted++;
    }

    /** This batch's operands and result words into QP {@code q}'s WRs (read once, here: see AtomicLayout). */
    private void setOperands(int q, int ring) {
        MemorySegment wrs = wrBlocks[q];
        MemorySegment sges = sgeBlocks[q];
        int[] slots = wrSlot[q];
        for (int k = 0; k < slots.length; k++) {
            int s = slots[k];
            long at = k * SEND_WR_SIZE;
            long step = local.get(JAVA_LONG, layout.operand(s));
            if (swap) {
                long compare = local.get(JAVA_LONG, layout.chain(s));
                long next = compare + step;
                wrs.set(JAVA_LONG, at + SEND_WR_ATOMIC_COMPARE_ADD, compare);
                wrs.set(JAVA_LONG, at + SEND_WR_ATOMIC_SWAP, next);
                local.set(JAVA_LONG, layout.chain(s), next);
            } else {
                wrs.set(JAVA_LONG, at + SEND_WR_ATOMIC_COMPARE_ADD, step);
            }
            sges.set(JAVA_LONG, k * SGE_SIZE + SGE_ADDR, localBase + layout.result(ring, s));
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
