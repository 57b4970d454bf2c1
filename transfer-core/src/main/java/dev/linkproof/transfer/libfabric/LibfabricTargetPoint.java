package dev.linkproof.transfer.libfabric;

import static dev.linkproof.transfer.libfabric.LibfabricAbi.FI_CQ_MSG_ENTRY;
import static dev.linkproof.transfer.libfabric.LibfabricAbi.offset;
import static java.lang.foreign.ValueLayout.JAVA_LONG;

import dev.linkproof.transfer.Op;
import dev.linkproof.transfer.TransferException;
import dev.linkproof.transfer.TransferSpec;
import dev.linkproof.transfer.memory.Buffer;
import dev.linkproof.transfer.spi.TargetContext;
import dev.linkproof.transfer.spi.TargetPoint;
import dev.linkproof.transfer.validate.CompletionCheck;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * The target's side of a libfabric point: one endpoint per connection on one domain, the region
 * registered for them (once, or once per endpoint under FI_MR_ENDPOINT), a SEND point's receives
 * ({@link LibfabricReceiver}), and a platform thread that reads the completion queue until the point
 * closes. The target of an RMA or atomic op takes no
 * completion of its own, but most providers progress only inside their calls (FI_PROGRESS_MANUAL:
 * ofi_rxm over tcp, shm's queue of commands), so a target that stopped calling would stall its
 * initiator.
 */
final class LibfabricTargetPoint implements TargetPoint {
    private final FabricDomain domain;
    /** A SEND point's receives; null for one-sided ops. */
    private final LibfabricReceiver receiver;

    private final Arena arena;
    private final Thread thread;
    private final AtomicBoolean stop;
    private final Map<String, String> endpoint;
    private boolean released;

    private LibfabricTargetPoint(
            FabricDomain domain,
            LibfabricReceiver receiver,
            Arena arena,
            Thread thread,
            AtomicBoolean stop,
            Map<String, String> endpoint) {
        this.domain = domain;
        this.receiver = receiver;
        this.arena = arena;
        this.thread = thread;
        this.stop = stop;
        this.endpoint = endpoint;
    }

    static LibfabricTargetPoint open(TransferSpec spec, Buffer region, TargetContext context) throws TransferException {
        LibfabricSettings settings = LibfabricSettings.of(spec);
        FabricInfo info = FabricInfo.query(
                settings.provider().orElse(null),
                LibfabricSettings.caps(spec),
                settings.domain().orElse(null));
        int endpoints = spec.connections();
        boolean send = spec.op() == Op.SEND;
        BatchPlan plan = BatchPlan.of(spec, endpoints);
        FabricDomain d = FabricDomain.open(
                info,
                send ? LibfabricAbi.FI_CQ_FORMAT_MSG : LibfabricAbi.FI_CQ_FORMAT_CONTEXT,
                send ? (long) plan.ops() * spec.pipelineDepth() + 64 : 256,
                endpoints);
        Arena arena = Arena.ofShared();
        try {
            FabricEndpoint[] eps = new FabricEndpoint[endpoints];
            FabricMemory[] mrs = new FabricMemory[endpoints];
            HexFormat hex = HexFormat.of();
            List<String> names = new ArrayList<>();
            List<String> keys = new ArrayList<>();
            boolean perEndpoint = FabricMemory.perEndpoint(info);
            FabricRegion memory = FabricRegion.of(region);
            FabricMemory shared = null;
            long base = 0;
            for (int e = 0; e < endpoints; e++) {
                FabricEndpoint ep = d.endpoint();
                eps[e] = ep;
                names.add(hex.formatHex(ep.name));
                FabricMemory mr = perEndpoint || shared == null ? d.register(memory, e + 1, ep) : shared;
                mrs[e] = mr;
                if (!perEndpoint) {
                    shared = mr;
                }
                keys.add(Long.toUnsignedString(mr.key));
                base = mr.remoteBase;
            }
            Map<String, String> published = new LinkedHashMap<>();
            published.put("libfabric.provider", info.provider());
            published.put("libfabric.fabric", info.fabricName());
            published.put("libfabric.domain", info.domainName());
            published.put("libfabric.mrMode", FabricInfo.mrModeText(info.mrMode()));
            published.put("libfabric.names", String.join(",", names));
            published.put("libfabric.keys", String.join(",", keys));
            published.put("libfabric.base", Long.toUnsignedString(base));
            published.put("libfabric.length", Long.toString(memory.length()));
            LibfabricReceiver receiver = null;
            if (send) {
                receiver = new LibfabricReceiver(plan, spec.pipelineDepth(), eps, mrs, memory.address(), arena);
                receiver.postAll();
            }
            AtomicBoolean stop = new AtomicBoolean();
            LibfabricReceiver r = receiver;
            Thread t = Thread.ofPlatform()
                    .daemon()
                    .name("libfabric-target-" + spec.pointId())
                    .unstarted(() -> progress(d.cq, r, stop, "libfabric target of point " + spec.pointId()));
            t.start();
            return new LibfabricTargetPoint(d, receiver, arena, t, stop, Map.copyOf(published));
        } catch (TransferException | RuntimeException e) {
            d.close();
            arena.close();
            throw e;
        }
    }

    /** Empty reads between two yields of the target's progress thread, less one (a power of two). */
    private static final int YIELD_MASK = 1023;

    /**
     * Reads the completion queue until stopped, spinning, and yielding the CPU once every
     * {@code YIELD_MASK + 1} empty reads: an RMA target gets no completion saying the initiator is
     * active, so it must poll (dozing 20 µs between reads made every 4 KiB write over shm take 100 µs),
     * and a yield after each empty read still cost a third of a 4 KiB write's median over shm (1.18 vs
     * 0.78 µs, bench/libfabric-vs-pingpong.sh). The point's life bounds the spinning. An error entry
     * here has nobody to fail on this side: the initiator's completion and the checksums say it.
     */
    private static void progress(FabricCq cq, LibfabricReceiver receiver, AtomicBoolean stop, String what) {
        try (Arena a = Arena.ofConfined()) {
            MemorySegment entries = a.allocate(cq.entryBytes * 64, 8);
            long at = entries.address();
            long idle = 0;
            while (!stop.get()) {
                int n;
                try {
                    n = cq.read(at, 64, what);
                    if (receiver != null) {
                        for (int i = 0; i < n; i++) {
                            long base = i * cq.entryBytes;
                            receiver.accept(
                                    entries.get(JAVA_LONG, base + offset(FI_CQ_MSG_ENTRY, "op_context")),
                                    entries.get(JAVA_LONG, base + offset(FI_CQ_MSG_ENTRY, "len")));
                        }
                        receiver.retryBacklog();
                    }
                } catch (TransferException e) {
                    if (receiver != null) {
                        receiver.failed();
                    }
                    n = 1;
                }
                if (n == 0) {
                    if ((++idle & YIELD_MASK) == 0) {
                        Thread.yield();
                    } else {
                        Thread.onSpinWait();
                    }
                }
            }
        }
    }

    /**
     * Waits until the receives of {@code batches} batches have completed (or {@code deadline} passed)
     * and reports what the receiver found; a short count is one more failure. One-sided ops: nothing.
     */
    @Override
    public CompletionCheck completions(long batches, Duration deadline) {
        if (receiver == null) {
            return CompletionCheck.NONE;
        }
        long end = System.nanoTime() + deadline.toNanos();
        try {
            while (receiver.received() < receiver.expected(batches)
                    && thread.isAlive()
                    && System.nanoTime() - end < 0) {
                Thread.sleep(1);
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        return receiver.report(batches);
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
            // The domain's objects are closed after this returns: the progress thread must be gone first.
            thread.join(10_000);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } finally {
            if (!thread.isAlive()) {
                domain.close();
                arena.close();
            }
        }
    }
}
