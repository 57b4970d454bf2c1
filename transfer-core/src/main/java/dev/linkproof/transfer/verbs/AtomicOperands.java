package dev.linkproof.transfer.verbs;

import static dev.linkproof.transfer.verbs.VerbsAbi.*;
import static java.lang.foreign.ValueLayout.JAVA_INT;
import static java.lang.foreign.ValueLayout.JAVA_LONG;

import dev.linkproof.transfer.Op;
import dev.linkproof.transfer.TransferSpec;
import dev.linkproof.transfer.atomic.AtomicLayout;
import dev.linkproof.transfer.memory.Buffer;
import java.lang.foreign.MemorySegment;

/**
 * What an atomic point's verbs WRs carry beyond the chain {@link VerbsDataPath} builds: one 8-byte
 * {@code IBV_WR_ATOMIC_FETCH_AND_ADD} or {@code IBV_WR_ATOMIC_CMP_AND_SWP} per counter per batch,
 * every op of a counter on one QP, because RC executes a QP's ops in order and the compare-and-swap
 * chain relies on it. Before each batch is posted, every WR gets that batch's operands from the
 * local buffer ({@link AtomicLayout}) and its SGE the batch's result word, where the responder's
 * reply (the counter's prior value) lands.
 */
final class AtomicOperands implements VerbsDataPath.BatchFields {
    private final boolean swap;
    private final AtomicLayout layout;
    /** The local buffer, seen with the global scope (no scope check per access in the per-batch loop). */
    private final MemorySegment local;

    private final long localBase;

    private AtomicOperands(TransferSpec spec, Buffer buffer, long localBase) {
        this.swap = spec.op() == Op.COMPARE_SWAP;
        this.layout = AtomicLayout.of(spec);
        MemorySegment seg = buffer.segment();
        this.local = MemorySegment.ofAddress(seg.address()).reinterpret(seg.byteSize());
        this.localBase = localBase;
    }

    /** The data path of an atomic point: the verbs chain, with the atomic fields set as said above. */
    static VerbsDataPath path(
            TransferSpec spec,
            VerbsSettings settings,
            QpSet set,
            WorkPlan plan,
            long remoteBase,
            int rkey,
            long progressTimeoutNanos,
            Buffer buffer) {
        AtomicOperands operands = new AtomicOperands(spec, buffer, set.mr.address());
        int opcode = (int) (operands.swap ? WR_ATOMIC_CMP_AND_SWP : WR_ATOMIC_FETCH_AND_ADD);
        VerbsDataPath.PieceFields pieces = (wr, sge, p) -> {
            sge.set(JAVA_LONG, SGE_ADDR, operands.localBase + operands.layout.result(0, p.slot()));
            sge.set(JAVA_INT, SGE_LENGTH, (int) AtomicLayout.WORD);
            wr.set(JAVA_LONG, SEND_WR_ATOMIC_REMOTE_ADDR, remoteBase + p.offset());
            wr.set(JAVA_INT, SEND_WR_ATOMIC_RKEY, rkey);
        };
        return new VerbsDataPath(spec, settings, set, plan, progressTimeoutNanos, "atomic ", opcode, pieces, operands);
    }

    /** This batch's operands and result words into one QP's WRs (read once, here: see AtomicLayout). */
    @Override
    public void set(long batch, MemorySegment wrs, MemorySegment sges, int[] slots, int[] index) {
        int ring = layout.ring(batch);
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
}
