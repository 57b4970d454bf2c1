package dev.linkproof.transfer.libfabric;

import static dev.linkproof.transfer.libfabric.FabricInfo.check;
import static dev.linkproof.transfer.libfabric.LibfabricAbi.FID_MR;
import static dev.linkproof.transfer.libfabric.LibfabricAbi.FI_MR_ATTR;
import static dev.linkproof.transfer.libfabric.LibfabricAbi.IOVEC;
import static dev.linkproof.transfer.libfabric.LibfabricAbi.offset;
import static java.lang.foreign.ValueLayout.ADDRESS;
import static java.lang.foreign.ValueLayout.JAVA_INT;
import static java.lang.foreign.ValueLayout.JAVA_LONG;

import dev.linkproof.transfer.TransferException;
import dev.linkproof.transfer.nativeaccess.Downcalls;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.SegmentAllocator;

/**
 * A memory registration honouring the MR modes the provider chose: host memory through {@code fi_mr_reg},
 * device memory through {@code fi_mr_regattr} naming its interface and device ({@link FabricRegion}).
 * {@code FI_MR_LOCAL} and {@code FI_MR_HMEM}: every buffer is registered, local ones too, and every op
 * passes its {@link #desc}. {@code FI_MR_VIRT_ADDR}: the peer addresses the region by its address (for
 * device memory its device pointer), else by its offset from 0 ({@link #remoteBase}). {@code FI_MR_PROV_KEY}:
 * the provider's {@link #key}, else the one asked for. {@code FI_MR_ENDPOINT}: bound to one endpoint, then
 * enabled. {@code FI_MR_ALLOCATED}: every region is allocated memory (HostMemory, huge pages, a GPU's).
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

    /**
     * The provider refused to register device memory ({@code fi_mr_regattr} failed): said with the
     * interface, the device, the provider and libfabric's words. A point that meets it fails with it.
     */
    static final class Refused extends TransferException {
        /** "fi_mr_regattr of 4096 bytes of FI_HMEM_CUDA memory on device 0". */
        final String call;

        final String provider;
        final int errno;

        Refused(FabricRegion region, String provider, int errno) {
            super("fi_mr_regattr of " + region.describe() + " failed on libfabric "
                    + Libfabric.lib().version() + " provider " + provider + ": " + words(errno));
            this.call = "fi_mr_regattr of " + region.describe();
            this.provider = provider;
            this.errno = errno;
        }

        /** fi_strerror's words and the number: "Function not implemented (38)". */
        static String words(int errno) {
            return Libfabric.lib().strerror(errno) + " (" + errno + ")";
        }
    }

    private FabricMemory(MemorySegment mr, long desc, long key, long remoteBase) {
        this.mr = mr;
        this.desc = desc;
        this.key = key;
        this.remoteBase = remoteBase;
    }

    static FabricMemory register(FabricDomain d, FabricRegion region, long requestedKey, FabricEndpoint boundTo)
            throws TransferException {
        int modes = d.info.mrMode();
        return Downcalls.inArena("fi_mr_reg downcall", a -> {
            MemorySegment out = a.allocate(ADDRESS);
            if (region.hmem()) {
                int rc = (int) Libfabric.MR_REGATTR.invokeExact(
                        Libfabric.function(
                                d.domain, offset(LibfabricAbi.FID_DOMAIN, "mr"), LibfabricAbi.FI_OPS_MR, "regattr"),
                        d.domain,
                        attr(a, region, requestedKey),
                        0L,
                        out);
                if (rc < 0) {
                    throw new Refused(region, d.info.provider(), -rc);
                }
            } else {
                check(
                        (int) Libfabric.MR_REG.invokeExact(
                                Libfabric.function(
                                        d.domain, offset(LibfabricAbi.FID_DOMAIN, "mr"), LibfabricAbi.FI_OPS_MR, "reg"),
                                d.domain,
                                region.address(),
                                region.length(),
                                ACCESS,
                                0L,
                                requestedKey,
                                0L,
                                out,
                                MemorySegment.NULL),
                        "fi_mr_reg of " + region.length() + " bytes");
            }
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

    /**
     * The {@code struct fi_mr_attr} (and its one iovec) that registers {@code region}: what fi_mr_reg
     * passes as arguments (the same access, offset 0 and key), plus whose memory it is ({@code iface})
     * and on which device ({@code device.cuda}; the whole union is written, as ROCr's ordinal would be).
     */
    static MemorySegment attr(SegmentAllocator a, FabricRegion region, long requestedKey) {
        MemorySegment iov = a.allocate(IOVEC);
        iov.set(JAVA_LONG, offset(IOVEC, "iov_base"), region.address());
        iov.set(JAVA_LONG, offset(IOVEC, "iov_len"), region.length());
        MemorySegment attr = a.allocate(FI_MR_ATTR);
        attr.fill((byte) 0);
        attr.set(ADDRESS, offset(FI_MR_ATTR, "mr_iov"), iov);
        attr.set(JAVA_LONG, offset(FI_MR_ATTR, "iov_count"), 1L);
        attr.set(JAVA_LONG, offset(FI_MR_ATTR, "access"), ACCESS);
        attr.set(JAVA_LONG, offset(FI_MR_ATTR, "requested_key"), requestedKey);
        attr.set(JAVA_INT, offset(FI_MR_ATTR, "iface"), region.iface());
        attr.set(JAVA_LONG, offset(FI_MR_ATTR, "device", "reserved"), region.device());
        return attr;
    }

    /** Whether the provider binds registrations to endpoints: then each endpoint has its own. */
    static boolean perEndpoint(FabricInfo info) {
        return (info.mrMode() & LibfabricAbi.FI_MR_ENDPOINT) != 0;
    }
}
