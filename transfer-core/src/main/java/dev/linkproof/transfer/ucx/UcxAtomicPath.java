package dev.linkproof.transfer.ucx;

import static dev.linkproof.transfer.ucx.Ucx.lib;
import static java.lang.foreign.MemoryLayout.PathElement.groupElement;
import static java.lang.foreign.ValueLayout.ADDRESS;
import static java.lang.foreign.ValueLayout.JAVA_LONG;

import dev.linkproof.transfer.Op;
import dev.linkproof.transfer.SlotLayout;
import dev.linkproof.transfer.TransferException;
import dev.linkproof.transfer.TransferSpec;
import dev.linkproof.transfer.atomic.AtomicLayout;
import dev.linkproof.transfer.memory.Buffer;
import dev.linkproof.transfer.nativeaccess.Downcalls;
import dev.linkproof.transfer.spi.DataPath;
import dev.linkproof.transfer.spi.IoSettings;
import dev.linkproof.transfer.spi.PeerEndpoint;
import dev.linkproof.transfer.spi.PeerLiveness;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.invoke.VarHandle;
import java.util.Map;

/**
 * The initiator's side of a ucx atomic point ({@code ucp_atomic_op_nbx}, 64-bit): a batch is one op
 * per counter (slot), counters spread over the endpoints round-robin, so every op of a counter goes
 * over the same endpoint. FETCH_ADD is {@code UCP_ATOMIC_OP_ADD} with a reply buffer (UCX has no
 * separate fetching opcode in the nbx API: the reply buffer makes it fetch); COMPARE_SWAP is
 * {@code UCP_ATOMIC_OP_CSWAP}, whose {@code buffer} is the compare value and whose reply buffer holds
 * the swap value going out and the old value coming back (ucp.h's table of atomic semantics).
 *
 * <p>Operands, arguments and replies live in the local buffer as {@link AtomicLayout} says: each
 * batch in flight has its own argument and reply words (UCX requires them untouched until the op
 * completes) and its own request params, pre-built, whose reply buffer points at them. An op's
 * reply is valid once its request completes, so a batch is complete when each of its requests is
 * (as a READ batch of {@link UcxDataPath}); ops that complete at once (shared memory) leave nothing
 * to wait for. Nothing is allocated in {@link #post()} or {@link #awaitOldest()}.
 */
final class UcxAtomicPath implements DataPath {
    private static final VarHandle R_MASK = Ucx.REQUEST_PARAM.varHandle(groupElement("op_attr_mask"));
    private static final VarHandle R_DATATYPE = Ucx.REQUEST_PARAM.varHandle(groupElement("datatype"));
    private static final VarHandle R_REPLY = Ucx.REQUEST_PARAM.varHandle(groupElement("reply_buffer"));

    private final TransferSpec spec;
    private final UcxRegion region;
    private final UcxWorker worker;
    private final Arena arena = Arena.ofShared();
    private final MemorySegment[] eps;
    private final MemorySegment[] rkeys;
    private final MemorySegment errorSlots;
    private final boolean swap;
    private final int opcode;
    private final AtomicLayout layout;
    /** No endpoint has an error handler (shared memory only): no upcall can fire inside a post. */
    private boolean critical;
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
    private final long[] pending;
    private final int[] pendingCount;
    private final long timeoutNanos;
    private final long closeTimeoutNanos;
    private final PeerLiveness peer;
    private final String what;
    private long posted;
    private long completed;
    private int head;
    private int tail;
    private boolean failed;
    private boolean closed;

    private UcxAtomicPath(TransferSpec spec, Buffer buffer, UcxRegion region, UcxWorker worker, int endpoints, IoSettings io) {
        this.spec = spec;
        this.region = region;
        this.worker = worker;
        this.eps = new MemorySegment[endpoints];
        this.rkeys = new MemorySegment[endpoints];
        this.errorSlots = arena.allocate(endpoints);
        this.swap = spec.op() == Op.COMPARE_SWAP;
        this.opcode = swap ? Ucx.UCP_ATOMIC_OP_CSWAP : Ucx.UCP_ATOMIC_OP_ADD;
        this.layout = AtomicLayout.of(spec);
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
        this.pending = new long[batch * depth];
        this.pendingCount = new int[depth];
        this.timeoutNanos = io.progressTimeout().toNanos();
        this.closeTimeoutNanos = Math.min(timeoutNanos, 2_000_000_000L);
        this.peer = io.peer();
        this.what = "ucx " + spec.op().label() + " batch of point " + spec.pointId();
    }

    static UcxAtomicPath connect(TransferSpec spec, Buffer local, Map<String, String> endpoint, IoSettings io)
            throws TransferException {
        PeerEndpoint peer = PeerEndpoint.of("ucx", endpoint);
        byte[] address = peer.hex("ucx.address");
        byte[] rkey = peer.hex("ucx.rkey");
        long base = peer.unsigned("ucx.base");
        long length = peer.number("ucx.length", 0, Long.MAX_VALUE);
        if (length < spec.slots().regionBytes()) {
            throw new TransferException("the target's ucx region has " + length + " bytes, the point needs "
                    + spec.slots().regionBytes());
        }
        if (local.size() < AtomicLayout.of(spec).bytes()) {
            throw new TransferException("the initiator's buffer has " + local.size() + " bytes, an atomic point of "
                    + spec.batch() + " counters at depth " + spec.pipelineDepth() + " needs " + AtomicLayout.of(spec).bytes());
        }
        UcxRegion region = UcxRegion.of(local, UcxTransport.ucxSettings(spec));
        UcxWorker worker;
        try {
            worker = UcxWorker.create(region.context());
        } catch (TransferException | RuntimeException e) {
            region.release();
            throw e;
        }
        UcxAtomicPath path = new UcxAtomicPath(spec, local, region, worker, Math.min(spec.connections(), spec.batch()), io);
        try {
            path.build(address, rkey, base);
            return path;
        } catch (TransferException | RuntimeException e) {
            path.failed = true;
            path.close();
            throw e;
        }
    }

    private void build(byte[] address, byte[] rkey, long base) throws TransferException {
        Downcalls.inArena("ucp_ep_create/ucp_ep_rkey_unpack downcall", a -> {
            MemorySegment packed = a.allocate(rkey.length);
            packed.copyFrom(MemorySegment.ofArray(rkey));
            MemorySegment out = a.allocate(ADDRESS);
            boolean peerErrors = UcxTransport.mayDetectPeerFailure(spec);
            critical = !peerErrors;
            for (int e = 0; e < eps.length; e++) {
                eps[e] = worker.connect(address, errorSlots.asSlice(e, 1), peerErrors);
                Ucx.check((byte) lib().rkeyUnpack.invokeExact(eps[e], packed, out), "ucp_ep_rkey_unpack");
                rkeys[e] = out.get(ADDRESS, 0);
            }
            return null;
        });
        SlotLayout slots = spec.slots();
        int batch = spec.batch();
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
        for (int r = 0; r < spec.pipelineDepth(); r++) {
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

    @Override
    public void post() throws TransferException {
        int ring = head;
        int batch = opEp.length;
        int base = ring * batch;
        try {
            int n = 0;
            for (int s = 0; s < batch; s++) {
                MemorySegment buffer;
                if (swap) {
                    // The chain's next link: compare with what the counter holds now, swap in one step on.
                    long compare = local.get(JAVA_LONG, layout.chain(s));
                    long next = compare + local.get(JAVA_LONG, layout.operand(s));
                    local.set(JAVA_LONG, layout.argument(ring, s), compare);
                    local.set(JAVA_LONG, layout.result(ring, s), next);
                    local.set(JAVA_LONG, layout.chain(s), next);
                    buffer = argument[base + s];
                } else {
                    // The addend goes out from this batch's own word: UCX may read it until the op
                    // completes, and the operand is read once, here, as the verbs path reads it.
                    local.set(JAVA_LONG, layout.argument(ring, s), local.get(JAVA_LONG, layout.operand(s)));
                    buffer = argument[base + s];
                }
                if (critical) {
                    long ra = (long) Ucx.Hot.ATOMIC_CRITICAL.invokeExact(opEpA[s], opcode, argumentA[base + s], 1L, opRemote[s],
                            opRkeyA[s], paramsA[base + s]);
                    if (ra != 0) {
                        if (Ucx.isError(ra)) {
                            failed = true;
                            throw UcxWorker.failure(what + ": ucp_atomic_op_nbx failed: " + Ucx.statusString(Ucx.ptrStatus(ra)),
                                    Ucx.ptrStatus(ra), errorSlots);
                        }
                        pending[base + n++] = ra;
                    }
                    continue;
                }
                MemorySegment r = (MemorySegment) Ucx.Hot.ATOMIC.invokeExact(opEp[s], opcode, buffer, 1L, opRemote[s], opRkey[s],
                        params[base + s]);
                if (r.address() != 0) {
                    if (Ucx.isError(r)) {
                        failed = true;
                        throw UcxWorker.failure(what + ": ucp_atomic_op_nbx failed: " + Ucx.statusString(Ucx.ptrStatus(r)),
                                Ucx.ptrStatus(r), errorSlots);
                    }
                    pending[base + n++] = r.address();
                }
            }
            pendingCount[ring] = n;
            head = ring + 1 == pendingCount.length ? 0 : ring + 1;
            posted++;
        } catch (TransferException | RuntimeException e) {
            failed = true;
            throw e;
        } catch (Throwable t) {
            failed = true;
            throw new TransferException("ucx downcall failed: " + t, t);
        }
    }

    @Override
    public void awaitOldest() throws TransferException {
        if (completed >= posted) {
            throw new IllegalStateException("awaitOldest() with no batch in flight");
        }
        int ring = tail;
        tail = ring + 1 == pendingCount.length ? 0 : ring + 1;
        completed++;
        try {
            int base = ring * opEp.length;
            int n = pendingCount[ring];
            pendingCount[ring] = 0;
            for (int i = 0; i < n; i++) {
                long r = pending[base + i];
                pending[base + i] = 0;
                worker.await(MemorySegment.ofAddress(r), timeoutNanos, errorSlots, peer, what);
            }
        } catch (TransferException | RuntimeException e) {
            failed = true;
            throw e;
        }
    }

    /** As {@link UcxDataPath#close()}: outstanding requests, rkeys, endpoints, worker, memory, within one deadline. */
    @Override
    public void close() {
        if (closed) {
            return;
        }
        closed = true;
        // Whatever is still in flight: the atomics not yet awaited.
        UcxTeardown.close(worker, pending, failed, peer, errorSlots, what, rkeys, eps, region, arena,
                closeTimeoutNanos);
    }
}
