package dev.linkproof.transfer.ucx;

import static java.lang.foreign.MemoryLayout.PathElement.groupElement;
import static java.lang.foreign.ValueLayout.JAVA_LONG;

import dev.linkproof.transfer.Op;
import dev.linkproof.transfer.SlotLayout;
import dev.linkproof.transfer.TransferException;
import dev.linkproof.transfer.TransferSpec;
import dev.linkproof.transfer.atomic.AtomicLayout;
import dev.linkproof.transfer.memory.Buffer;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.invoke.VarHandle;

/**
 * The atomics of one batch of a {@link UcxDataPath} ({@code ucp_atomic_op_nbx}, 64-bit): one op per
 * counter (slot), the counters spread over the endpoints round-robin so every op of a counter goes
 * over the same endpoint. FETCH_ADD is {@code UCP_ATOMIC_OP_ADD} with a reply buffer, which makes it
 * fetch; COMPARE_SWAP is {@code UCP_ATOMIC_OP_CSWAP}, whose reply buffer holds the swap value going
 * out and the old value coming back. Each batch in flight has its own argument and reply words
 * ({@link AtomicLayout}) and pre-built request params, because UCX requires them untouched until the
 * op completes; a batch is complete when each of its requests is.
 */
final class UcxAtomics {
    private static final VarHandle R_MASK = Ucx.REQUEST_PARAM.varHandle(groupElement("op_attr_mask"));
    private static final VarHandle R_DATATYPE = Ucx.REQUEST_PARAM.varHandle(groupElement("datatype"));
    private static final VarHandle R_REPLY = Ucx.REQUEST_PARAM.varHandle(groupElement("reply_buffer"));

    private final boolean swap;
    private final int opcode;
    private final AtomicLayout layout;
    /** No endpoint has an error handler (shared memory only): no upcall can fire inside a post. */
    private final boolean critical;
    /** The local buffer, seen with the global scope (as UcxWorker's params are: no session updates per access). */
    private final MemorySegment local;

    private final MemorySegment[] opEp;
    private final MemorySegment[] opRkey;
    private final long[] opRemote;
    /** Per ring × slot: the argument word (the op's buffer: FETCH_ADD's addend, COMPARE_SWAP's compare value) and params. */
    private final MemorySegment[] argument;

    private final MemorySegment[] params;
    /** The same endpoints, rkeys, argument words and params as raw addresses, for the critical linkage. */
    private final long[] opEpA;

    private final long[] opRkeyA;
    private final long[] argumentA;
    private final long[] paramsA;
    private final String what;
    private final MemorySegment errorSlots;

    /**
     * @param arena           owns the request params (the path's, freed at its close)
     * @param noErrorHandlers no endpoint has an error handler: no upcall can fire inside a post
     */
    UcxAtomics(
            TransferSpec spec,
            Buffer buffer,
            MemorySegment[] eps,
            MemorySegment[] rkeys,
            long base,
            Arena arena,
            boolean noErrorHandlers,
            String what,
            MemorySegment errorSlots) {
        this.swap = spec.op() == Op.COMPARE_SWAP;
        this.opcode = swap ? Ucx.UCP_ATOMIC_OP_CSWAP : Ucx.UCP_ATOMIC_OP_ADD;
        this.layout = AtomicLayout.of(spec);
        this.critical = noErrorHandlers;
        this.what = what;
        this.errorSlots = errorSlots;
        MemorySegment seg = buffer.segment();
        this.local = MemorySegment.ofAddress(seg.address()).reinterpret(seg.byteSize());
        int batch = spec.batch();
        int depth = spec.pipelineDepth();
        this.opEp = new MemorySegment[batch];
        this.opRkey = new MemorySegment[batch];
        this.opRemote = new long[batch];
        this.argument = new MemorySegment[batch * depth];
        this.params = new MemorySegment[batch * depth];
        this.opEpA = new long[batch];
        this.opRkeyA = new long[batch];
        this.argumentA = new long[batch * depth];
        this.paramsA = new long[batch * depth];
        SlotLayout slots = spec.slots();
        MemorySegment owned = arena.allocate(Ucx.REQUEST_PARAM.byteSize() * params.length, 8);
        MemorySegment paramBlock = MemorySegment.ofAddress(owned.address()).reinterpret(owned.byteSize());
        for (int s = 0; s < batch; s++) {
            int e = s % eps.length;
            opEp[s] = eps[e];
            opRkey[s] = rkeys[e];
            opRemote[s] = base + slots.slotOffset(s);
            opEpA[s] = eps[e].address();
            opRkeyA[s] = rkeys[e].address();
        }
        for (int r = 0; r < depth; r++) {
            for (int s = 0; s < batch; s++) {
                int k = r * batch + s;
                argument[k] = local.asSlice(layout.argument(r, s), AtomicLayout.WORD);
                MemorySegment p = paramBlock.asSlice(k * Ucx.REQUEST_PARAM.byteSize(), Ucx.REQUEST_PARAM.byteSize());
                R_MASK.set(p, 0L, Ucx.UCP_OP_ATTR_FIELD_DATATYPE | Ucx.UCP_OP_ATTR_FIELD_REPLY_BUFFER);
                R_DATATYPE.set(p, 0L, Ucx.dtMakeContig(AtomicLayout.WORD));
                R_REPLY.set(p, 0L, local.asSlice(layout.result(r, s), AtomicLayout.WORD));
                params[k] = p;
                argumentA[k] = argument[k].address();
                paramsA[k] = p.address();
            }
        }
    }

    boolean critical() {
        return critical;
    }

    /**
     * Posts one batch into ring position {@code ring}; returns how many of its ops did not complete at
     * once, their requests at {@code pending[base...]}.
     */
    int post(int ring, long[] pending, int base) throws Throwable {
        int batch = opEp.length;
        int at = ring * batch;
        int n = 0;
        for (int s = 0; s < batch; s++) {
            if (swap) {
                // The chain's next link: compare with what the counter holds now, swap in one step on.
                long compare = local.get(JAVA_LONG, layout.chain(s));
                long next = compare + local.get(JAVA_LONG, layout.operand(s));
                local.set(JAVA_LONG, layout.argument(ring, s), compare);
                local.set(JAVA_LONG, layout.result(ring, s), next);
                local.set(JAVA_LONG, layout.chain(s), next);
            } else {
                // The addend goes out from this batch's own word: UCX may read it until the op
                // completes, and the operand is read once, here, as the verbs path reads it.
                local.set(JAVA_LONG, layout.argument(ring, s), local.get(JAVA_LONG, layout.operand(s)));
            }
            long r;
            if (critical) {
                r = (long) Ucx.Hot.ATOMIC_CRITICAL.invokeExact(
                        opEpA[s], opcode, argumentA[at + s], 1L, opRemote[s], opRkeyA[s], paramsA[at + s]);
            } else {
                r = ((MemorySegment) Ucx.Hot.ATOMIC.invokeExact(
                                opEp[s], opcode, argument[at + s], 1L, opRemote[s], opRkey[s], params[at + s]))
                        .address();
            }
            if (r != 0) {
                if (Ucx.isError(r)) {
                    throw failed(Ucx.ptrStatus(r));
                }
                pending[base + n++] = r;
            }
        }
        return n;
    }

    private TransferException failed(byte status) {
        return UcxWorker.failure(what + ": ucp_atomic_op_nbx failed: " + Ucx.statusString(status), status, errorSlots);
    }
}
