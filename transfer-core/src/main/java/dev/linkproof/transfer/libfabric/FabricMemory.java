package dev.linkproof.transfer.libfabric;

import static dev.linkproof.transfer.libfabric.FabricInfo.check;
import static dev.linkproof.transfer.libfabric.LibfabricAbi.FID_MR;
import static dev.linkproof.transfer.libfabric.LibfabricAbi.offset;
import static java.lang.foreign.ValueLayout.ADDRESS;
import static java.lang.foreign.ValueLayout.JAVA_LONG;

import dev.linkproof.transfer.TransferException;
import dev.linkproof.transfer.nativeaccess.Downcalls;
import java.lang.foreign.MemorySegment;

/**
 * A memory registration ({@code fi_mr_reg}) honouring the MR modes the provider chose:
 * <ul>
 * <li>{@code FI_MR_LOCAL}: local buffers are registered too and every op passes its descriptor
 *     ({@link #desc}; passed always, which providers without the mode ignore);</li>
 * <li>{@code FI_MR_VIRT_ADDR}: the peer addresses the region by its virtual address, else by its
 *     offset from 0 ({@link #remoteBase});</li>
 * <li>{@code FI_MR_PROV_KEY}: the provider picks the key ({@link #key}), else the one asked for;</li>
 * <li>{@code FI_MR_ENDPOINT}: the registration is bound to one endpoint and enabled;</li>
 * <li>{@code FI_MR_ALLOCATED}: every region here is allocated memory (HostMemory, huge pages), as it asks.</li>
 * </ul>
 */
final class FabricMemory {
    /** Every access a point may need of a region, on either rank. */
    static final long ACCESS = LibfabricAbi.FI_READ
            | LibfabricAbi.FI_WRITE
            | LibfabricAbi.FI_REMOTE_READ
            | LibfabricAbi.FI_REMOTE_WRITE
            | LibfabricAbi.FI_SEND
            | LibfabricAbi.FI_RECV;

    final MemorySegment mr;
    /** fi_mr_desc: what a local op passes as {@code desc}. */
    final long desc;
    /** fi_mr_key: what the peer passes as {@code key}. */
    final long key;
    /** What the peer adds a byte offset to: the region's address under FI_MR_VIRT_ADDR, else 0. */
    final long remoteBase;

    private FabricMemory(MemorySegment mr, long desc, long key, long remoteBase) {
        this.mr = mr;
        this.desc = desc;
        this.key = key;
        this.remoteBase = remoteBase;
    }

    static FabricMemory register(FabricDomain d, MemorySegment region, long requestedKey, FabricEndpoint boundTo)
            throws TransferException {
        int modes = d.info.mrMode();
        return Downcalls.inArena("fi_mr_reg downcall", a -> {
            MemorySegment out = a.allocate(ADDRESS);
            check(
                    (int) Libfabric.MR_REG.invokeExact(
                            Libfabric.function(
                                    d.domain, offset(LibfabricAbi.FID_DOMAIN, "mr"), LibfabricAbi.FI_OPS_MR, "reg"),
                            d.domain,
                            region.address(),
                            region.byteSize(),
                            ACCESS,
                            0L,
                            requestedKey,
                            0L,
                            out,
                            MemorySegment.NULL),
                    "fi_mr_reg of " + region.byteSize() + " bytes");
            MemorySegment mr = out.get(ADDRESS, 0).reinterpret(FID_MR.byteSize());
            try {
                if ((modes & LibfabricAbi.FI_MR_ENDPOINT) != 0) {
                    if (boundTo == null) {
                        throw new IllegalStateException("FI_MR_ENDPOINT: a registration needs its endpoint");
                    }
                    check(
                            (int) Libfabric.BIND.invokeExact(Libfabric.fidFunction(mr, "bind"), mr, boundTo.ep, 0L),
                            "fi_mr_bind");
                    check(
                            (int) Libfabric.CONTROL.invokeExact(
                                    Libfabric.fidFunction(mr, "control"),
                                    mr,
                                    LibfabricAbi.FI_ENABLE,
                                    MemorySegment.NULL),
                            "fi_mr_enable");
                }
                long desc = mr.get(ADDRESS, offset(FID_MR, "mem_desc")).address();
                long key = mr.get(JAVA_LONG, offset(FID_MR, "key"));
                long base = (modes & LibfabricAbi.FI_MR_VIRT_ADDR) != 0 ? region.address() : 0L;
                return new FabricMemory(mr, desc, key, base);
            } catch (TransferException | RuntimeException e) {
                java.util.ArrayDeque<MemorySegment> one = new java.util.ArrayDeque<>();
                one.push(mr);
                FabricDomain.closeAll(one);
                throw e;
            }
        });
    }

    /** Whether the provider binds registrations to endpoints: then each endpoint has its own. */
    static boolean perEndpoint(FabricInfo info) {
        return (info.mrMode() & LibfabricAbi.FI_MR_ENDPOINT) != 0;
    }
}
