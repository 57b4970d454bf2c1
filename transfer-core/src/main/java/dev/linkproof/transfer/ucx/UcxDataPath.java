package dev.linkproof.transfer.ucx;

import static dev.linkproof.transfer.ucx.Ucx.lib;
import static java.lang.foreign.ValueLayout.ADDRESS;

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
import java.util.Map;

/**
 * The initiator's side of a ucx point: the post path every op shares (the ring of batches in flight,
 * the requests each leaves, failures, teardown), which allocates nothing per batch; atomics come from
 * {@link UcxAtomics}. A WRITE batch leaves one {@code ucp_worker_flush_nbx}, as a put's own
 * completion only says its source may be reused; a READ batch only its gets not complete at once, as
 * a flush per batch cost 16 ns, 19 % of a 4 KiB get over shared memory. The put and get loops store
 * their batch's count themselves: passing them the ring, or writing
 * {@code pendingCount[ring] = loop(...)}, ran 8 B gets 5-10 % slower (bench/history/2026-12-06.md).
 */
final class UcxDataPath implements DataPath {
    private final UcxRegion region;
    private final UcxWorker worker;
    private final Arena arena = Arena.ofShared();
    private final MemorySegment[] eps;
    private final MemorySegment[] rkeys;
    private final MemorySegment errorSlots;
    /** An atomic point's ops (a final class: a direct call per batch); null for puts and gets. */
    private UcxAtomics atomics;

    private final boolean read;
    /** Puts and gets: per op its endpoint, local piece, length, remote address and rkey. */
    private final MemorySegment[] opEp;

    private final MemorySegment[] opRkey;
    private final MemorySegment[] opLocal;
    private final long[] opLength;
    private final long[] opRemote;
    /**
     * The critical linkage (Ucx.Hot.PUT_CRITICAL, GET_CRITICAL, WORKER_FLUSH_CRITICAL, ATOMIC_CRITICAL)
     * is used when no endpoint has an error handler (shared-memory transports only: no upcall of ours
     * can fire inside a post) and no put or get is larger than {@link #CRITICAL_MAX_BYTES} (a critical
     * downcall holds off safepoints for its whole length: a copy of a few microseconds at most). Its
     * arguments are the same endpoints, buffers, rkeys and params as raw addresses, each put's or get's
     * five words adjacent in {@link #opWords} (endpoint, local address, length, remote address, rkey):
     * one array, one bounds check and one cache line or two per op.
     */
    private boolean critical;

    private final long[] opWords;
    private final long paramsA;
    private final long workerA;
    /*
     * Requests are kept as raw addresses, not MemorySegments: each downcall returns a new segment
     * object, and storing it would make it escape, a heap allocation per batch in the measured loop
     * (40 B a WRITE batch, measured); a segment is made again only for a request that exists.
     */
    /** Each in-flight batch's requests to wait for, {@link #perBatch} places per ring position. */
    private final long[] pending;

    private final int[] pendingCount;
    private final int perBatch;
    private final long timeoutNanos;
    private final long closeTimeoutNanos;
    private final PeerLiveness peer;
    private final String what;
    private long posted;
    private long completed;
    /** Ring positions of the next batch to post and of the oldest in flight. */
    private int head;

    private int tail;
    private boolean failed;
    private boolean closed;

    /** The largest op posted through the critical linkage (about 5 µs of copying on the 2-CPU VM). */
    static final long CRITICAL_MAX_BYTES = 64 << 10;

    private static final int OP_WORDS = 5;

    /** @param rmaOps the puts or gets of a batch; 0 for atomics */
    private UcxDataPath(
            TransferSpec spec,
            UcxRegion region,
            UcxWorker worker,
            int endpoints,
            int perBatch,
            int rmaOps,
            IoSettings io) {
        this.region = region;
        this.worker = worker;
        this.eps = new MemorySegment[endpoints];
        this.rkeys = new MemorySegment[endpoints];
        this.errorSlots = arena.allocate(endpoints);
        this.perBatch = perBatch;
        this.pending = new long[spec.pipelineDepth() * perBatch];
        this.pendingCount = new int[spec.pipelineDepth()];
        this.timeoutNanos = io.progressTimeout().toNanos();
        this.closeTimeoutNanos = Math.min(timeoutNanos, 2_000_000_000L);
        this.peer = io.peer();
        this.what = "ucx " + spec.op().label() + " batch of point " + spec.pointId();
        this.read = spec.op() == Op.READ;
        opEp = new MemorySegment[rmaOps];
        opRkey = new MemorySegment[rmaOps];
        opLocal = new MemorySegment[rmaOps];
        opLength = new long[rmaOps];
        opRemote = new long[rmaOps];
        opWords = new long[rmaOps * OP_WORDS];
        paramsA = worker.noParams.address();
        workerA = worker.handle.address();
    }

    static int stripes(TransferSpec spec, int connections) {
        return spec.batch() >= connections ? 1 : (int) Math.max(1, Math.min(spec.size(), connections / spec.batch()));
    }

    static UcxDataPath connect(TransferSpec spec, Buffer local, Map<String, String> endpoint, IoSettings io)
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
        boolean atomic = spec.op().atomic();
        if (atomic && local.size() < AtomicLayout.of(spec).bytes()) {
            throw new TransferException("the initiator's buffer has " + local.size() + " bytes, an atomic point of "
                    + spec.batch() + " counters at depth " + spec.pipelineDepth() + " needs "
                    + AtomicLayout.of(spec).bytes());
        }
        UcxRegion region = UcxRegion.of(local, UcxTransport.ucxSettings(spec));
        UcxWorker worker;
        try {
            worker = UcxWorker.create(region.context());
        } catch (TransferException | RuntimeException e) {
            region.release();
            throw e;
        }
        // An atomic batch is one op per counter; a put or get batch may stripe its transfers.
        int stripes = atomic ? 1 : stripes(spec, spec.connections());
        int ops = spec.batch() * stripes;
        int endpoints = Math.min(spec.connections(), ops);
        // A WRITE batch leaves one request (its flush); a READ or atomic batch up to one per op.
        int perBatch = atomic || spec.op() == Op.READ ? ops : 1;
        UcxDataPath path = new UcxDataPath(spec, region, worker, endpoints, perBatch, atomic ? 0 : ops, io);
        try {
            path.build(spec, local, address, rkey, base, stripes);
            return path;
        } catch (TransferException | RuntimeException e) {
            path.failed = true;
            path.close();
            throw e;
        }
    }

    private void build(TransferSpec spec, Buffer local, byte[] address, byte[] rkey, long base, int stripes)
            throws TransferException {
        boolean peerErrors = UcxTransport.mayDetectPeerFailure(spec);
        Downcalls.inArena("ucp_ep_create/ucp_ep_rkey_unpack downcall", a -> {
            MemorySegment packed = a.allocate(rkey.length);
            packed.copyFrom(MemorySegment.ofArray(rkey));
            MemorySegment out = a.allocate(ADDRESS);
            for (int e = 0; e < eps.length; e++) {
                eps[e] = worker.connect(address, errorSlots.asSlice(e, 1), peerErrors);
                Ucx.check((byte) lib().rkeyUnpack.invokeExact(eps[e], packed, out), "ucp_ep_rkey_unpack");
                rkeys[e] = out.get(ADDRESS, 0);
            }
            return null;
        });
        // The critical linkage only where no endpoint has an error handler (shared-memory transports
        // only): then no upcall of ours can fire inside a post.
        critical = !peerErrors;
        if (spec.op().atomic()) {
            atomics = new UcxAtomics(spec, local, eps, rkeys, base, arena, critical, what, errorSlots);
            return;
        }
        SlotLayout slots = spec.slots();
        MemorySegment localRegion = region.memory().segment;
        long piece = spec.size() / stripes;
        for (int k = 0; k < opEp.length; k++) {
            int slot = k / stripes;
            int stripe = k % stripes;
            long start = slots.slotOffset(slot) + stripe * piece;
            long len = stripe == stripes - 1 ? spec.size() - stripe * piece : piece;
            int e = k % eps.length;
            opEp[k] = eps[e];
            opRkey[k] = rkeys[e];
            opLocal[k] = localRegion.asSlice(start, len);
            opLength[k] = len;
            opRemote[k] = base + start;
            opWords[k * OP_WORDS] = opEp[k].address();
            opWords[k * OP_WORDS + 1] = opLocal[k].address();
            opWords[k * OP_WORDS + 2] = len;
            opWords[k * OP_WORDS + 3] = opRemote[k];
            opWords[k * OP_WORDS + 4] = opRkey[k].address();
            critical &= len <= CRITICAL_MAX_BYTES;
        }
    }

    /** Whether posts go through the critical linkage (tests check the choice). */
    boolean critical() {
        return critical;
    }

    @Override
    public void post() throws TransferException {
        int ring = head;
        try {
            if (atomics != null) {
                // Through a local, not "pendingCount[ring] = atomics.post(...)": see the class comment.
                int left = atomics.post(ring, pending, ring * perBatch);
                pendingCount[ring] = left;
            } else if (critical) {
                postCritical(ring);
            } else {
                postOrdinary(ring);
            }
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

    /** A put or get that UCX refused at once, with its status (either linkage). */
    private TransferException opFailed(byte status) {
        return UcxWorker.failure(
                what + ": " + (read ? "ucp_get_nbx" : "ucp_put_nbx") + " failed: " + Ucx.statusString(status),
                status,
                errorSlots);
    }

    /**
     * One batch of puts or gets into ring position {@code ring} through the ordinary linkage (segments
     * in and out), leaving there the requests to wait for: WRITE its flush (none when that completed at
     * once), READ the gets that did not complete at once.
     */
    private void postOrdinary(int ring) throws Throwable {
        MemorySegment params = worker.noParams;
        int base = ring * perBatch;
        int n = 0;
        for (int k = 0; k < opEp.length; k++) {
            MemorySegment r = read
                    ? (MemorySegment)
                            Ucx.Hot.GET.invokeExact(opEp[k], opLocal[k], opLength[k], opRemote[k], opRkey[k], params)
                    : (MemorySegment)
                            Ucx.Hot.PUT.invokeExact(opEp[k], opLocal[k], opLength[k], opRemote[k], opRkey[k], params);
            if (r.address() != 0) {
                if (Ucx.isError(r)) {
                    throw opFailed(Ucx.ptrStatus(r));
                }
                if (read) {
                    pending[base + n++] = r.address();
                } else {
                    // Released by UCX when it completes; the batch's flush covers its completion.
                    Ucx.Hot.REQUEST_FREE.invokeExact(r);
                }
            }
        }
        if (!read) {
            long f = worker.flush().address();
            pending[base] = f;
            n = f == 0 ? 0 : 1;
        }
        pendingCount[ring] = n;
    }

    /**
     * One batch of puts or gets through the critical linkage: raw addresses in and out, so no segment
     * is checked or made per op, and no thread-state transition per downcall. The same checks as
     * {@link #postOrdinary}: every op's returned status, the flush's.
     */
    private void postCritical(int ring) throws Throwable {
        long params = paramsA;
        long[] w = opWords;
        int base = ring * perBatch;
        int n = 0;
        for (int i = 0; i + OP_WORDS <= w.length; i += OP_WORDS) {
            long r = read
                    ? (long) Ucx.Hot.GET_CRITICAL.invokeExact(w[i], w[i + 1], w[i + 2], w[i + 3], w[i + 4], params)
                    : (long) Ucx.Hot.PUT_CRITICAL.invokeExact(w[i], w[i + 1], w[i + 2], w[i + 3], w[i + 4], params);
            if (r != 0) {
                if (Ucx.isError(r)) {
                    throw opFailed(Ucx.ptrStatus(r));
                }
                if (read) {
                    pending[base + n++] = r;
                } else {
                    // Released by UCX when it completes; the batch's flush covers its completion.
                    Ucx.Hot.REQUEST_FREE.invokeExact(MemorySegment.ofAddress(r));
                }
            }
        }
        if (!read) {
            long f = (long) Ucx.Hot.WORKER_FLUSH_CRITICAL.invokeExact(workerA, params);
            if (Ucx.isError(f)) {
                Ucx.check(Ucx.ptrStatus(f), "ucp_worker_flush_nbx");
            }
            pending[base] = f;
            n = f == 0 ? 0 : 1;
        }
        pendingCount[ring] = n;
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
            int base = ring * perBatch;
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

    /**
     * Teardown in UCX's order, within one close deadline ({@link UcxTeardown}): the requests still
     * outstanding (flushes, gets or atomics), rkeys, endpoints, worker, memory; nothing waits on a
     * target that failed or is gone.
     */
    @Override
    public void close() {
        if (closed) {
            return;
        }
        closed = true;
        UcxTeardown.close(
                worker, pending, failed, peer, errorSlots, what, rkeys, eps, region, arena, closeTimeoutNanos);
    }
}
