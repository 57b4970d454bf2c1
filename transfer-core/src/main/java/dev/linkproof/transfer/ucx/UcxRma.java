package dev.linkproof.transfer.ucx;

import dev.linkproof.transfer.Op;
import dev.linkproof.transfer.SlotLayout;
import dev.linkproof.transfer.TransferException;
import dev.linkproof.transfer.TransferSpec;
import java.lang.foreign.MemorySegment;

/**
 * The puts (WRITE) or gets (READ) of one batch of a {@link UcxDataPath}, pre-built: per op its
 * endpoint, local piece, length, remote address and rkey. When the batch is smaller than the
 * endpoint count, each transfer is striped so every endpoint carries data, as the tcp transport does.
 *
 * <p>A WRITE batch is followed by one {@code ucp_worker_flush_nbx}, whose request completes when every
 * put of the batch (and of earlier batches) is remotely complete. A READ batch needs no flush: a get
 * is complete when its data is in local memory, and a flush per batch would cost a downcall and a
 * walk of every interface (16 ns a batch, 19 % of a 4 KiB get, measured).
 */
final class UcxRma {
    /** The largest op posted through the critical linkage (about 5 µs of copying on the 2-CPU VM). */
    static final long CRITICAL_MAX_BYTES = 64 << 10;

    private static final int OP_WORDS = 5;

    private final UcxWorker worker;
    private final boolean read;
    private final MemorySegment[] opEp;
    private final MemorySegment[] opRkey;
    private final MemorySegment[] opLocal;
    private final long[] opLength;
    private final long[] opRemote;
    /**
     * The critical linkage (Ucx.Hot.PUT_CRITICAL, GET_CRITICAL, WORKER_FLUSH_CRITICAL) is used when no
     * endpoint has an error handler and no op is larger than {@link #CRITICAL_MAX_BYTES} (a critical
     * downcall holds off safepoints for its whole length: a copy of a few microseconds at most). Its
     * arguments are the same endpoints, buffers, rkeys and params as raw addresses, each op's five
     * words adjacent in {@link #opWords} (endpoint, local address, length, remote address, rkey): one
     * array, one bounds check and one cache line or two per op.
     */
    private final boolean critical;
    private final long[] opWords;
    private final long paramsA;
    private final long workerA;
    private final String what;
    private final MemorySegment errorSlots;

    /**
     * @param noErrorHandlers no endpoint has an error handler: no upcall can fire inside a post
     */
    UcxRma(TransferSpec spec, UcxWorker worker, MemorySegment localRegion, MemorySegment[] eps, MemorySegment[] rkeys,
           long base, int stripes, boolean noErrorHandlers, String what, MemorySegment errorSlots) {
        this.worker = worker;
        this.read = spec.op() == Op.READ;
        this.what = what;
        this.errorSlots = errorSlots;
        int ops = spec.batch() * stripes;
        opEp = new MemorySegment[ops];
        opRkey = new MemorySegment[ops];
        opLocal = new MemorySegment[ops];
        opLength = new long[ops];
        opRemote = new long[ops];
        opWords = new long[ops * OP_WORDS];
        paramsA = worker.noParams.address();
        workerA = worker.handle.address();
        SlotLayout slots = spec.slots();
        long piece = spec.size() / stripes;
        boolean small = true;
        for (int k = 0; k < ops; k++) {
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
            small &= len <= CRITICAL_MAX_BYTES;
        }
        this.critical = noErrorHandlers && small;
    }

    static int stripes(TransferSpec spec, int connections) {
        return spec.batch() >= connections ? 1 : (int) Math.max(1, Math.min(spec.size(), connections / spec.batch()));
    }

    boolean critical() {
        return critical;
    }

    /**
     * Posts one batch; returns how many requests it left at {@code pending[base...]}: WRITE its flush
     * (none when that completed at once), READ the gets that did not complete at once.
     */
    int post(long[] pending, int base) throws Throwable {
        return critical ? postCritical(pending, base) : postOrdinary(pending, base);
    }

    /** A put or get that UCX refused at once, with its status (either linkage). */
    private TransferException opFailed(byte status) {
        return UcxWorker.failure(what + ": " + (read ? "ucp_get_nbx" : "ucp_put_nbx") + " failed: " + Ucx.statusString(status),
                status, errorSlots);
    }

    /** One batch through the ordinary linkage (segments in and out). */
    private int postOrdinary(long[] pending, int base) throws Throwable {
        MemorySegment params = worker.noParams;
        int n = 0;
        for (int k = 0; k < opEp.length; k++) {
            MemorySegment r = read
                    ? (MemorySegment) Ucx.Hot.GET.invokeExact(opEp[k], opLocal[k], opLength[k], opRemote[k], opRkey[k], params)
                    : (MemorySegment) Ucx.Hot.PUT.invokeExact(opEp[k], opLocal[k], opLength[k], opRemote[k], opRkey[k], params);
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
        if (read) {
            return n;
        }
        long f = worker.flush().address();
        pending[base] = f;
        return f == 0 ? 0 : 1;
    }

    /**
     * One batch through the critical linkage: raw addresses in and out, so no segment is checked or
     * made per op, and no thread-state transition per downcall. The same checks as
     * {@link #postOrdinary}: every op's returned status, the flush's.
     */
    private int postCritical(long[] pending, int base) throws Throwable {
        long params = paramsA;
        long[] w = opWords;
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
        if (read) {
            return n;
        }
        long f = (long) Ucx.Hot.WORKER_FLUSH_CRITICAL.invokeExact(workerA, params);
        if (Ucx.isError(f)) {
            Ucx.check(Ucx.ptrStatus(f), "ucp_worker_flush_nbx");
        }
        pending[base] = f;
        return f == 0 ? 0 : 1;
    }
}
