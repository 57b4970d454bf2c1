package dev.linkproof.transfer.ucx;

import dev.linkproof.transfer.TransferException;
import dev.linkproof.transfer.TransferSpec;
import dev.linkproof.transfer.memory.Buffer;
import dev.linkproof.transfer.spi.TargetContext;
import dev.linkproof.transfer.spi.TargetPoint;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.util.HexFormat;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.locks.LockSupport;

/**
 * The target's side of a ucx point: its region's packed rkey and address, and a worker whose
 * address the initiator connects to. One platform thread owns the worker (single-thread mode) and
 * progresses it until the point closes: over shared memory RMA never needs it, but transports that
 * emulate RMA with active messages (tcp) do, and so do wireup and endpoint close.
 */
final class UcxTargetPoint implements TargetPoint {
    /** After this long without events the progress thread sleeps on the worker's event fd. */
    private static final long SPIN_NANOS = 50_000;
    /** The longest sleep, which bounds how late a close is noticed. */
    private static final int SLEEP_MILLIS = 10;
    /** Where the transports offer no event fd: doze this long between polls instead. */
    private static final long DOZE_NANOS = 20_000;

    private static final short POLLIN = 1;

    private final UcxRegion region;
    private final Thread thread;
    private final Map<String, String> endpoint;
    private final AtomicBoolean stop;
    private boolean released;

    private UcxTargetPoint(UcxRegion region, Thread thread, AtomicBoolean stop, Map<String, String> endpoint) {
        this.region = region;
        this.stop = stop;
        this.thread = thread;
        this.endpoint = endpoint;
    }

    static UcxTargetPoint open(TransferSpec spec, Buffer buffer, TargetContext context) throws TransferException {
        UcxRegion region = UcxRegion.of(buffer, UcxTransport.ucxSettings(spec));
        try {
            byte[] rkey = region.memory().packRkey();
            CompletableFuture<byte[]> ready = new CompletableFuture<>();
            AtomicBoolean stop = new AtomicBoolean();
            Thread t = Thread.ofPlatform()
                    .daemon()
                    .name("ucx-target-" + spec.pointId())
                    .unstarted(() -> {
                        UcxWorker worker;
                        try {
                            worker = UcxWorker.create(region.context());
                            ready.complete(worker.address());
                        } catch (Throwable e) {
                            ready.completeExceptionally(e);
                            return;
                        }
                        try {
                            serveLoop(worker, stop);
                        } finally {
                            worker.close();
                        }
                    });
            t.start();
            byte[] address;
            try {
                address = ready.get(context.io().connectTimeout().toMillis(), TimeUnit.MILLISECONDS);
            } catch (ExecutionException e) {
                throw e.getCause() instanceof TransferException te
                        ? te
                        : new TransferException("ucx target worker failed: " + e.getCause(), e.getCause());
            } catch (TimeoutException | InterruptedException e) {
                stop.set(true);
                throw new TransferException("ucx target worker did not start: " + e, e);
            }
            HexFormat hex = HexFormat.of();
            UcxTargetPoint p = new UcxTargetPoint(
                    region,
                    t,
                    stop,
                    Map.of(
                            "ucx.address", hex.formatHex(address),
                            "ucx.rkey", hex.formatHex(rkey),
                            "ucx.base",
                                    Long.toUnsignedString(
                                            region.memory().segment.address()),
                            "ucx.length", Long.toString(region.memory().segment.byteSize()),
                            "ucx.memory",
                                    region.memory().allocated ? "ucp_mem_map(allocate)" : "ucp_mem_map(register)"));
            return p;
        } catch (TransferException | RuntimeException e) {
            region.release();
            throw e;
        }
    }

    private static void serveLoop(UcxWorker worker, AtomicBoolean stop) {
        int fd = worker.eventFd();
        try (Arena a = Arena.ofConfined()) {
            MemorySegment pollFd = a.allocate(8);
            pollFd.set(ValueLayout.JAVA_INT, 0, fd);
            pollFd.set(ValueLayout.JAVA_SHORT, 4, POLLIN);
            long idleSince = 0;
            while (!stop.get()) {
                if (worker.progress() != 0) {
                    idleSince = 0;
                    continue;
                }
                long now = System.nanoTime();
                if (idleSince == 0) {
                    idleSince = now;
                } else if (now - idleSince > SPIN_NANOS) {
                    if (fd >= 0) {
                        worker.sleep(pollFd, SLEEP_MILLIS);
                    } else {
                        LockSupport.parkNanos(DOZE_NANOS);
                    }
                }
            }
        }
    }

    @Override
    public Map<String, String> endpoint() {
        return endpoint;
    }

    @Override
    public synchronized void close() {
        if (released) {
            return;
        }
        released = true;
        stop.set(true);
        try {
            // The region is unmapped after this returns: the worker must be gone first.
            thread.join(10_000);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } finally {
            if (!thread.isAlive()) {
                region.release();
            }
        }
    }
}
