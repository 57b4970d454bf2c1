package dev.linkproof.transfer.ucx;

import static dev.linkproof.transfer.ucx.Ucx.lib;
import static java.lang.foreign.ValueLayout.ADDRESS;

import dev.linkproof.transfer.Op;
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
 * The initiator's side of a ucx point, for every op: one worker, endpoints to the target's worker,
 * each with the target region's rkey unpacked; a batch is its puts (WRITE), gets (READ) or atomics,
 * spread over the endpoints round-robin ({@link UcxRma}, {@link UcxAtomics} make the op's downcalls);
 * up to {@code pipelineDepth} batches are in flight. This class is the post path they share: the
 * ring of batches in flight, the requests each leaves to wait for, the failure handling and the
 * teardown.
 *
 * <p>A batch is complete when each request it left is: a WRITE batch leaves its
 * {@code ucp_worker_flush_nbx} (a put's own completion only says its source may be reused); a READ
 * batch its gets and an atomic batch its ops, those that did not complete at once (over shared memory
 * most do, leaving nothing to wait for). Everything is built here; {@link #post()} and
 * {@link #awaitOldest()} allocate nothing, and ring positions wrap by comparison, not division.
 */
final class UcxDataPath implements DataPath {
    private final UcxRegion region;
    private final UcxWorker worker;
    private final Arena arena = Arena.ofShared();
    private final MemorySegment[] eps;
    private final MemorySegment[] rkeys;
    private final MemorySegment errorSlots;
    /** Exactly one of the two is set: the op's downcalls (final classes: a direct call per batch). */
    private UcxRma rma;
    private UcxAtomics atomics;
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
    static final long CRITICAL_MAX_BYTES = UcxRma.CRITICAL_MAX_BYTES;

    private UcxDataPath(TransferSpec spec, UcxRegion region, UcxWorker worker, int endpoints, int perBatch, IoSettings io) {
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
        // An atomic batch is one op per counter; a put or get batch may stripe its transfers.
        int stripes = atomic ? 1 : UcxRma.stripes(spec, spec.connections());
        int ops = spec.batch() * stripes;
        int endpoints = Math.min(spec.connections(), ops);
        // A WRITE batch leaves one request (its flush); a READ or atomic batch up to one per op.
        int perBatch = atomic || spec.op() == Op.READ ? ops : 1;
        UcxDataPath path = new UcxDataPath(spec, region, worker, endpoints, perBatch, io);
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
        if (spec.op().atomic()) {
            atomics = new UcxAtomics(spec, local, eps, rkeys, base, arena, !peerErrors, what, errorSlots);
        } else {
            rma = new UcxRma(spec, worker, region.memory().segment, eps, rkeys, base, stripes, !peerErrors, what, errorSlots);
        }
    }

    /** Whether posts go through the critical linkage (tests check the choice). */
    boolean critical() {
        return atomics != null ? atomics.critical() : rma.critical();
    }

    @Override
    public void post() throws TransferException {
        int ring = head;
        try {
            int base = ring * perBatch;
            pendingCount[ring] = atomics != null ? atomics.post(ring, pending, base) : rma.post(pending, base);
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
        UcxTeardown.close(worker, pending, failed, peer, errorSlots, what, rkeys, eps, region, arena, closeTimeoutNanos);
    }
}
