package dev.linkproof.transfer.libfabric;

import static dev.linkproof.transfer.libfabric.FabricInfo.check;
import static dev.linkproof.transfer.libfabric.LibfabricAbi.FI_AV_ATTR;
import static dev.linkproof.transfer.libfabric.LibfabricAbi.FI_CQ_ATTR;
import static dev.linkproof.transfer.libfabric.LibfabricAbi.FI_INFO;
import static dev.linkproof.transfer.libfabric.LibfabricAbi.offset;
import static java.lang.foreign.ValueLayout.ADDRESS;
import static java.lang.foreign.ValueLayout.JAVA_INT;
import static java.lang.foreign.ValueLayout.JAVA_LONG;

import dev.linkproof.transfer.TransferException;
import dev.linkproof.transfer.nativeaccess.Downcalls;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.util.ArrayDeque;
import java.util.Deque;

/**
 * One side's libfabric objects below its endpoints: fabric, domain, an address vector
 * ({@code FI_AV_TABLE}, so a peer's {@code fi_addr_t} is its insertion index) and one completion queue
 * that all its endpoints report to. It owns everything opened through it, endpoints and memory
 * registrations included, and closes them in the reverse order ({@link #close}).
 */
final class FabricDomain implements AutoCloseable {
    final FabricInfo info;
    final MemorySegment fabric;
    final MemorySegment domain;
    final MemorySegment av;
    final FabricCq cq;
    /** Whatever was opened here, newest first: closed in that order. */
    private final Deque<MemorySegment> opened = new ArrayDeque<>();

    private boolean closed;

    private FabricDomain(FabricInfo info, MemorySegment fabric, MemorySegment domain, MemorySegment av, FabricCq cq) {
        this.info = info;
        this.fabric = fabric;
        this.domain = domain;
        this.av = av;
        this.cq = cq;
    }

    /**
     * Opens fabric, domain, address vector and completion queue for {@code info} (which the domain then
     * owns). {@code cqFormat} is FI_CQ_FORMAT_CONTEXT for an initiator, FI_CQ_FORMAT_MSG where received
     * lengths are checked; {@code cqSize} at least the completions that may be outstanding.
     */
    static FabricDomain open(FabricInfo info, int cqFormat, long cqSize, int peers) throws TransferException {
        Deque<MemorySegment> made = new ArrayDeque<>();
        try {
            return Downcalls.inArena("libfabric domain setup", a -> {
                MemorySegment out = a.allocate(ADDRESS);
                MemorySegment fabricAttr = info.info.get(ADDRESS, offset(FI_INFO, "fabric_attr"));
                check((int) Libfabric.lib().fabric.invokeExact(fabricAttr, out, MemorySegment.NULL), "fi_fabric");
                MemorySegment fabric = object(out, LibfabricAbi.FID_FABRIC.byteSize());
                made.push(fabric);
                check(
                        (int) Libfabric.OPEN.invokeExact(
                                Libfabric.function(
                                        fabric,
                                        offset(LibfabricAbi.FID_FABRIC, "ops"),
                                        LibfabricAbi.FI_OPS_FABRIC,
                                        "domain"),
                                fabric,
                                info.info,
                                out,
                                MemorySegment.NULL),
                        "fi_domain");
                MemorySegment domain = object(out, LibfabricAbi.FID_DOMAIN.byteSize());
                made.push(domain);
                long domainOps = offset(LibfabricAbi.FID_DOMAIN, "ops");

                MemorySegment avAttr = a.allocate(FI_AV_ATTR);
                avAttr.set(JAVA_INT, offset(FI_AV_ATTR, "type"), LibfabricAbi.FI_AV_TABLE);
                avAttr.set(JAVA_LONG, offset(FI_AV_ATTR, "count"), Math.max(1, peers));
                check(
                        (int) Libfabric.OPEN.invokeExact(
                                Libfabric.function(domain, domainOps, LibfabricAbi.FI_OPS_DOMAIN, "av_open"),
                                domain,
                                avAttr,
                                out,
                                MemorySegment.NULL),
                        "fi_av_open");
                MemorySegment av = object(out, LibfabricAbi.FID_AV.byteSize());
                made.push(av);

                MemorySegment cqAttr = a.allocate(FI_CQ_ATTR);
                cqAttr.set(JAVA_LONG, offset(FI_CQ_ATTR, "size"), cqSize);
                cqAttr.set(JAVA_INT, offset(FI_CQ_ATTR, "format"), cqFormat);
                cqAttr.set(JAVA_INT, offset(FI_CQ_ATTR, "wait_obj"), LibfabricAbi.FI_WAIT_NONE);
                check(
                        (int) Libfabric.OPEN.invokeExact(
                                Libfabric.function(domain, domainOps, LibfabricAbi.FI_OPS_DOMAIN, "cq_open"),
                                domain,
                                cqAttr,
                                out,
                                MemorySegment.NULL),
                        "fi_cq_open");
                MemorySegment cq = object(out, LibfabricAbi.FID_CQ.byteSize());
                made.push(cq);
                FabricDomain d = new FabricDomain(info, fabric, domain, av, new FabricCq(cq, cqFormat));
                made.clear();
                return d;
            });
        } catch (TransferException | RuntimeException e) {
            closeAll(made);
            info.close();
            throw e;
        }
    }

    private static MemorySegment object(MemorySegment out, long size) {
        return out.get(ADDRESS, 0).reinterpret(size);
    }

    /** An endpoint on this domain, bound to its address vector and completion queue, enabled. */
    FabricEndpoint endpoint() throws TransferException {
        FabricEndpoint ep = FabricEndpoint.open(this);
        opened.push(ep.ep);
        return ep;
    }

    /** Host memory {@code region}, as {@link #register(FabricRegion, long, FabricEndpoint)}. */
    FabricMemory register(MemorySegment region, long requestedKey, FabricEndpoint boundTo) throws TransferException {
        return register(FabricRegion.host(region), requestedKey, boundTo);
    }

    /** {@code region} registered for every access a point may need (FabricMemory says how per MR mode). */
    FabricMemory register(FabricRegion region, long requestedKey, FabricEndpoint boundTo) throws TransferException {
        FabricMemory mr = FabricMemory.register(this, region, requestedKey, boundTo);
        opened.push(mr.mr);
        return mr;
    }

    /** fi_av_insert of one peer endpoint's name: its {@code fi_addr_t}. */
    long insert(byte[] name) throws TransferException {
        return Downcalls.inArena("fi_av_insert downcall", a -> {
            MemorySegment addr = a.allocate(name.length);
            addr.copyFrom(MemorySegment.ofArray(name));
            MemorySegment fiAddr = a.allocate(JAVA_LONG);
            int n = (int) Libfabric.AV_INSERT.invokeExact(
                    Libfabric.function(av, offset(LibfabricAbi.FID_AV, "ops"), LibfabricAbi.FI_OPS_AV, "insert"),
                    av,
                    addr,
                    1L,
                    fiAddr,
                    0L,
                    MemorySegment.NULL);
            if (n != 1) {
                check(n < 0 ? n : -LibfabricAbi.FI_ENODATA, "fi_av_insert of the peer's address");
            }
            return fiAddr.get(JAVA_LONG, 0);
        });
    }

    /** How long the completion queue must stay empty before the objects close. */
    static final long QUIET_NANOS = 2_000_000;
    /** The most a close waits for that (a dead peer's error entries keep coming). */
    static final long QUIESCE_MAX_NANOS = 50_000_000;

    /**
     * fi_close of every object opened here, newest first, then the AV, CQ, domain and fabric, then the
     * info; first the queue is read until it stays empty ({@link #quiesce}).
     */
    @Override
    public synchronized void close() {
        if (closed) {
            return;
        }
        closed = true;
        quiesce();
        opened.add(av);
        opened.add(cq.cq);
        opened.add(domain);
        opened.add(fabric);
        closeAll(opened);
        info.close();
    }

    /**
     * Reads the completion queue until it stays empty for {@link #QUIET_NANOS} (at most
     * {@link #QUIESCE_MAX_NANOS}): ofi_rxm over verbs handles its own late messages there while every
     * object is still open. Closed on one, libfabric 1.17 crashed the JVM reposting a receive on a
     * connection it had already closed (a SIGSEGV in fi_close, Soft-RoCE VM, 2026-12-06).
     */
    private void quiesce() {
        try (Arena a = Arena.ofConfined()) {
            MemorySegment entries = a.allocate(cq.entryBytes * 16, 8);
            long start = System.nanoTime();
            long quietSince = start;
            for (long now = start;
                    now - quietSince < QUIET_NANOS && now - start < QUIESCE_MAX_NANOS;
                    now = System.nanoTime()) {
                int n;
                try {
                    n = cq.read(entries.address(), 16, "closing");
                } catch (TransferException e) {
                    n = 1; // an error entry is something that happened: keep reading
                }
                if (n > 0) {
                    quietSince = System.nanoTime();
                } else {
                    Thread.onSpinWait();
                }
            }
        }
    }

    /** fi_close of each, newest first; a failure to close one does not keep the others open. */
    static void closeAll(Deque<MemorySegment> fids) {
        RuntimeException first = null;
        while (!fids.isEmpty()) {
            MemorySegment fid = fids.pop();
            try {
                int rc = (int) Libfabric.CLOSE.invokeExact(Libfabric.fidFunction(fid, "close"), fid);
                if (rc < 0 && first == null) {
                    first = new IllegalStateException(
                            "fi_close failed: " + Libfabric.lib().strerror(-rc));
                }
            } catch (Throwable t) {
                if (first == null) {
                    first = new IllegalStateException("fi_close failed: " + t, t);
                }
            }
        }
        if (first != null) {
            throw first;
        }
    }
}
