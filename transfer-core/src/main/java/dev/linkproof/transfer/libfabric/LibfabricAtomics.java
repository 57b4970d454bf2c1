package dev.linkproof.transfer.libfabric;

import static java.lang.foreign.ValueLayout.JAVA_LONG;

import dev.linkproof.transfer.Op;
import dev.linkproof.transfer.SlotLayout;
import dev.linkproof.transfer.TransferException;
import dev.linkproof.transfer.TransferSpec;
import dev.linkproof.transfer.atomic.AtomicLayout;
import dev.linkproof.transfer.memory.Buffer;
import dev.linkproof.transfer.nativeaccess.Downcalls;
import java.lang.foreign.MemorySegment;

/**
 * The atomics of a {@link LibfabricDataPath} batch, 64-bit: FETCH_ADD is {@code fi_fetch_atomic} with
 * {@code FI_SUM}, COMPARE_SWAP {@code fi_compare_atomic} with {@code FI_CSWAP}, one op per counter, a
 * counter always on the same endpoint. Operands and results live in the registered local buffer as
 * {@link AtomicLayout} says, each batch in flight with its own words (a provider may read them until
 * the op completes). A compare-and-swap sends its swap value from its result word, where the old value
 * then comes back: ucx's layout, safe because the swap value leaves when the op is posted.
 */
final class LibfabricAtomics {
    private final boolean swap;
    private final int fiOp;
    private final AtomicLayout layout;
    private final MemorySegment local;
    private final long localAddress;
    private final long[] opEp;
    private final MemorySegment[] opFn;
    private final long[] opDesc;
    private final long[] opPeer;
    private final long[] opRemote;
    private final long[] opKey;

    LibfabricAtomics(
            TransferSpec spec,
            Buffer buffer,
            FabricEndpoint[] eps,
            FabricMemory[] mrs,
            long[] peers,
            TargetEndpoint target,
            String provider)
            throws TransferException {
        this.swap = spec.op() == Op.COMPARE_SWAP;
        this.fiOp = swap ? LibfabricAbi.FI_CSWAP : LibfabricAbi.FI_SUM;
        this.layout = AtomicLayout.of(spec);
        MemorySegment seg = buffer.segment();
        this.local = MemorySegment.ofAddress(seg.address()).reinterpret(seg.byteSize());
        this.localAddress = seg.address();
        int batch = spec.batch();
        opEp = new long[batch];
        opFn = new MemorySegment[batch];
        opDesc = new long[batch];
        opPeer = new long[batch];
        opRemote = new long[batch];
        opKey = new long[batch];
        String table = swap ? "compwrite" : "readwrite";
        for (FabricEndpoint ep : eps) {
            requireValid(ep, provider);
        }
        SlotLayout slots = spec.slots();
        for (int s = 0; s < batch; s++) {
            int e = s % eps.length;
            opEp[s] = eps[e].ep.address();
            opFn[s] = eps[e].function("atomic", LibfabricAbi.FI_OPS_ATOMIC, table);
            opDesc[s] = mrs[e].desc;
            opPeer[s] = peers[e];
            opRemote[s] = target.base() + slots.slotOffset(s);
            opKey[s] = target.keys()[e];
        }
    }

    /** fi_fetch_atomicvalid / fi_compare_atomicvalid: the provider does this op on 64-bit words, one at least. */
    private void requireValid(FabricEndpoint ep, String provider) throws TransferException {
        String valid = swap ? "compwritevalid" : "readwritevalid";
        Downcalls.inArena("fi_" + (swap ? "compare" : "fetch") + "_atomicvalid downcall", a -> {
            MemorySegment count = a.allocate(JAVA_LONG);
            int rc = (int) Libfabric.ATOMIC_VALID.invokeExact(
                    ep.function("atomic", LibfabricAbi.FI_OPS_ATOMIC, valid),
                    ep.ep,
                    LibfabricAbi.FI_UINT64,
                    fiOp,
                    count);
            if (rc != 0 || count.get(JAVA_LONG, 0) < 1) {
                throw new TransferException("libfabric provider " + provider + " does not do "
                        + (swap ? "FI_CSWAP" : "FI_SUM") + " on FI_UINT64"
                        + (rc != 0 ? ": " + Libfabric.lib().strerror(-rc) : ""));
            }
            return null;
        });
    }

    /**
     * Writes counter {@code s}'s words for ring position {@code ring}, reading its operand (and chain)
     * once: before the op is posted, and only once however often a post is refused for now.
     */
    void prepare(int ring, int s) {
        long argument = layout.argument(ring, s);
        if (swap) {
            // The chain's next link: compare with what the counter holds now, swap in one step on.
            long compare = local.get(JAVA_LONG, layout.chain(s));
            long next = compare + local.get(JAVA_LONG, layout.operand(s));
            local.set(JAVA_LONG, argument, compare);
            local.set(JAVA_LONG, layout.result(ring, s), next);
            local.set(JAVA_LONG, layout.chain(s), next);
        } else {
            // The addend goes out from this batch's own word.
            local.set(JAVA_LONG, argument, local.get(JAVA_LONG, layout.operand(s)));
        }
    }

    /** Posts counter {@code s}'s prepared op of ring position {@code ring}, its completion's context {@code context}. */
    long post(int ring, int s, long context) throws Throwable {
        long argument = layout.argument(ring, s);
        long result = layout.result(ring, s);
        if (swap) {
            return (long) Libfabric.COMPARE_ATOMIC.invokeExact(
                    opFn[s],
                    opEp[s],
                    localAddress + result,
                    1L,
                    opDesc[s],
                    localAddress + argument,
                    opDesc[s],
                    localAddress + result,
                    opDesc[s],
                    opPeer[s],
                    opRemote[s],
                    opKey[s],
                    LibfabricAbi.FI_UINT64,
                    fiOp,
                    context);
        }
        return (long) Libfabric.FETCH_ATOMIC.invokeExact(
                opFn[s],
                opEp[s],
                localAddress + argument,
                1L,
                opDesc[s],
                localAddress + result,
                opDesc[s],
                opPeer[s],
                opRemote[s],
                opKey[s],
                LibfabricAbi.FI_UINT64,
                fiOp,
                context);
    }
}
