package dev.linkproof.transfer.ucx;

import static dev.linkproof.transfer.ucx.Ucx.lib;
import static java.lang.foreign.ValueLayout.ADDRESS;

import dev.linkproof.transfer.Op;
import dev.linkproof.transfer.SlotLayout;
import dev.linkproof.transfer.TransferException;
import dev.linkproof.transfer.TransferSpec;
import dev.linkproof.transfer.measure.DataPath;
import dev.linkproof.transfer.memory.Buffer;
import dev.linkproof.transfer.spi.IoSettings;
import dev.linkproof.transfer.spi.PeerLiveness;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.util.HexFormat;
import java.util.Map;

/**
 * The initiator's side of a ucx point: one worker, {@code connections} endpoints to the target's
 * worker, each with the target region's rkey unpacked. A batch is its puts (WRITE) or gets (READ),
 * spread over the endpoints round-robin, followed by one {@code ucp_worker_flush_nbx} whose request
 * completes when every op of the batch (and of earlier batches) is remotely complete; up to
 * {@code pipelineDepth} of those flushes are in flight. When the batch is smaller than the endpoint
 * count, each transfer is striped so every endpoint carries data, as the tcp transport does.
 * Everything is built here; {@link #post()} and {@link #awaitOldest()} allocate nothing.
 */
final class UcxDataPath implements DataPath {
    private final TransferSpec spec;
    private final UcxRegion region;
    private final UcxWorker worker;
    private final Arena arena = Arena.ofShared();
    private final MemorySegment[] eps;
    private final MemorySegment[] rkeys;
    private final MemorySegment errorSlots;
    private final boolean read;
    private final MemorySegment[] opEp;
    private final MemorySegment[] opRkey;
    private final MemorySegment[] opLocal;
    private final long[] opLength;
    private final long[] opRemote;
    private final MemorySegment[] flushes;
    private final long timeoutNanos;
    private final long closeTimeoutNanos;
    private final PeerLiveness peer;
    private final String what;
    private long posted;
    private long completed;
    private boolean failed;
    private boolean closed;

    private UcxDataPath(TransferSpec spec, UcxRegion region, UcxWorker worker, int endpoints, IoSettings io) {
        this.spec = spec;
        this.region = region;
        this.worker = worker;
        this.eps = new MemorySegment[endpoints];
        this.rkeys = new MemorySegment[endpoints];
        this.errorSlots = arena.allocate(endpoints);
        this.read = spec.op() == Op.READ;
        this.flushes = new MemorySegment[spec.pipelineDepth()];
        this.timeoutNanos = io.progressTimeout().toNanos();
        this.closeTimeoutNanos = Math.min(timeoutNanos, 2_000_000_000L);
        this.peer = io.peer();
        this.what = "ucx " + spec.op().label() + " batch of point " + spec.pointId();
        int stripes = stripes(spec, endpoints);
        int ops = spec.batch() * stripes;
        opEp = new MemorySegment[ops];
        opRkey = new MemorySegment[ops];
        opLocal = new MemorySegment[ops];
        opLength = new long[ops];
        opRemote = new long[ops];
    }

    static int stripes(TransferSpec spec, int connections) {
        return spec.batch() >= connections ? 1 : (int) Math.max(1, Math.min(spec.size(), connections / spec.batch()));
    }

    static UcxDataPath connect(TransferSpec spec, Buffer local, Map<String, String> endpoint, IoSettings io)
            throws TransferException {
        HexFormat hex = HexFormat.of();
        byte[] address = hex.parseHex(require(endpoint, "ucx.address"));
        byte[] rkey = hex.parseHex(require(endpoint, "ucx.rkey"));
        long base = Long.parseUnsignedLong(require(endpoint, "ucx.base"));
        long length = Long.parseLong(require(endpoint, "ucx.length"));
        if (length < spec.slots().regionBytes()) {
            throw new TransferException("the target's ucx region has " + length + " bytes, the point needs "
                    + spec.slots().regionBytes());
        }
        UcxRegion region = UcxRegion.of(local, UcxTransport.ucxSettings(spec));
        UcxWorker worker;
        try {
            worker = UcxWorker.create(region.context());
        } catch (TransferException | RuntimeException e) {
            region.release();
            throw e;
        }
        int stripes = stripes(spec, spec.connections());
        int endpoints = Math.min(spec.connections(), spec.batch() * stripes);
        UcxDataPath path = new UcxDataPath(spec, region, worker, endpoints, io);
        try {
            path.build(address, rkey, base, stripes);
            return path;
        } catch (TransferException | RuntimeException e) {
            path.failed = true;
            path.close();
            throw e;
        }
    }

    private void build(byte[] address, byte[] rkey, long base, int stripes) throws TransferException {
        try (Arena a = Arena.ofConfined()) {
            MemorySegment packed = a.allocate(rkey.length);
            packed.copyFrom(MemorySegment.ofArray(rkey));
            MemorySegment out = a.allocate(ADDRESS);
            boolean peerErrors = UcxTransport.mayDetectPeerFailure(spec);
            for (int e = 0; e < eps.length; e++) {
                eps[e] = worker.connect(address, errorSlots.asSlice(e, 1), peerErrors);
                Ucx.check((byte) lib().rkeyUnpack.invokeExact(eps[e], packed, out), "ucp_ep_rkey_unpack");
                rkeys[e] = out.get(ADDRESS, 0);
            }
        } catch (TransferException | RuntimeException e) {
            throw e;
        } catch (Throwable t) {
            throw new TransferException("ucx downcall failed: " + t, t);
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
        }
    }

    private static String require(Map<String, String> endpoint, String key) throws TransferException {
        String v = endpoint.get(key);
        if (v == null) {
            throw new TransferException("ucx endpoint lacks '" + key + "': " + endpoint.keySet());
        }
        return v;
    }

    @Override
    public void post() throws TransferException {
        MemorySegment params = worker.noParams;
        try {
            for (int k = 0; k < opEp.length; k++) {
                MemorySegment r = read
                        ? (MemorySegment) Ucx.Hot.GET.invokeExact(opEp[k], opLocal[k], opLength[k], opRemote[k], opRkey[k], params)
                        : (MemorySegment) Ucx.Hot.PUT.invokeExact(opEp[k], opLocal[k], opLength[k], opRemote[k], opRkey[k], params);
                if (r.address() != 0) {
                    if (Ucx.isError(r)) {
                        failed = true;
                        throw UcxWorker.failure(what + ": " + (read ? "ucp_get_nbx" : "ucp_put_nbx") + " failed: "
                                + Ucx.statusString(Ucx.ptrStatus(r)), Ucx.ptrStatus(r), errorSlots);
                    }
                    // Released by UCX when it completes; the batch's flush covers its completion.
                    Ucx.Hot.REQUEST_FREE.invokeExact(r);
                }
            }
            MemorySegment f = worker.flush();
            flushes[(int) (posted % flushes.length)] = f;
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
        int i = (int) (completed % flushes.length);
        MemorySegment f = flushes[i];
        flushes[i] = null;
        completed++;
        try {
            worker.await(f, timeoutNanos, errorSlots, peer, what);
        } catch (TransferException | RuntimeException e) {
            failed = true;
            throw e;
        }
    }

    /**
     * Teardown in UCX's order: outstanding flushes, rkeys, endpoints (progressing), worker, memory;
     * all of it within one close deadline. When the point failed or the target is known to be gone,
     * nothing waits on the target: outstanding flushes are dropped and endpoints are closed forcibly.
     */
    @Override
    public void close() {
        if (closed) {
            return;
        }
        closed = true;
        long deadline = System.nanoTime() + closeTimeoutNanos;
        try {
            boolean abandon = failed || peer.goneBecause() != null;
            for (long b = completed; b < posted; b++) {
                int i = (int) (b % flushes.length);
                MemorySegment f = flushes[i];
                flushes[i] = null;
                if (f == null || f.address() == 0) {
                    continue;
                }
                if (abandon) {
                    release(f);
                    continue;
                }
                try {
                    worker.await(f, Math.max(1, deadline - System.nanoTime()), errorSlots, peer, what);
                } catch (TransferException e) {
                    abandon = true;
                }
            }
            abandon |= peer.goneBecause() != null;
            for (MemorySegment k : rkeys) {
                if (k != null) {
                    try {
                        lib().rkeyDestroy.invokeExact(k);
                    } catch (Throwable ignored) {
                        // closing
                    }
                }
            }
            for (MemorySegment ep : eps) {
                if (ep != null) {
                    worker.closeEndpoint(ep, abandon, deadline, peer);
                }
            }
            worker.close();
        } finally {
            try {
                region.release();
            } finally {
                arena.close();
            }
        }
    }

    /** Lets go of a request this path will not wait for; UCX releases it when it completes. */
    private static void release(MemorySegment request) {
        try {
            Ucx.Hot.REQUEST_FREE.invokeExact(request);
        } catch (Throwable ignored) {
            // closing
        }
    }
}
