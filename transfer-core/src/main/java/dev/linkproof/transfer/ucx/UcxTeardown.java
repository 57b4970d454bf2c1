package dev.linkproof.transfer.ucx;

import dev.linkproof.transfer.TransferException;
import dev.linkproof.transfer.spi.PeerLiveness;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;

/**
 * A UCX data path's teardown, in UCX's order: the requests still outstanding, the rkeys, the
 * endpoints (progressing), the worker, the memory; all of it within one close deadline. When the
 * point failed or the target is known to be gone, nothing waits on the target: outstanding requests
 * are let go and endpoints are closed forcibly. {@link UcxDataPath}'s, whatever its op: its outstanding
 * requests (flushes, gets or atomics) differ only in kind.
 */
final class UcxTeardown {
    private UcxTeardown() {}

    /**
     * @param outstanding the addresses of requests still in flight (0: none), cleared as they are handled
     * @param failed      whether the point failed: then nothing waits on the target
     */
    static void close(
            UcxWorker worker,
            long[] outstanding,
            boolean failed,
            PeerLiveness peer,
            MemorySegment errorSlots,
            String what,
            MemorySegment[] rkeys,
            MemorySegment[] eps,
            UcxRegion region,
            Arena arena,
            long closeTimeoutNanos) {
        long deadline = System.nanoTime() + closeTimeoutNanos;
        try {
            boolean abandon = failed || peer.goneBecause() != null;
            for (int i = 0; i < outstanding.length; i++) {
                MemorySegment r = MemorySegment.ofAddress(outstanding[i]);
                outstanding[i] = 0;
                if (r.address() == 0) {
                    continue;
                }
                if (abandon) {
                    release(r);
                    continue;
                }
                try {
                    worker.await(r, Math.max(1, deadline - System.nanoTime()), errorSlots, peer, what);
                } catch (TransferException e) {
                    abandon = true;
                }
            }
            abandon |= peer.goneBecause() != null;
            for (MemorySegment k : rkeys) {
                if (k != null) {
                    try {
                        Ucx.lib().rkeyDestroy.invokeExact(k);
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

    /** Lets go of a request the path will not wait for; UCX releases it when it completes. */
    static void release(MemorySegment request) {
        try {
            Ucx.Hot.REQUEST_FREE.invokeExact(request);
        } catch (Throwable ignored) {
            // closing
        }
    }
}
