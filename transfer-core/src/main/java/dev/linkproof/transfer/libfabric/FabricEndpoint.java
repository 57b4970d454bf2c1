package dev.linkproof.transfer.libfabric;

import static dev.linkproof.transfer.libfabric.FabricInfo.check;
import static dev.linkproof.transfer.libfabric.LibfabricAbi.FID_EP;
import static dev.linkproof.transfer.libfabric.LibfabricAbi.offset;
import static java.lang.foreign.ValueLayout.ADDRESS;
import static java.lang.foreign.ValueLayout.JAVA_LONG;

import dev.linkproof.transfer.TransferException;
import dev.linkproof.transfer.nativeaccess.Downcalls;
import java.lang.foreign.MemorySegment;

/**
 * A reliable-datagram endpoint ({@code fi_endpoint}), bound to its domain's address vector and
 * completion queue (both directions), enabled; its name is what a peer inserts into its address
 * vector. Its data-path functions are looked up once here, from its operation tables, so a post is
 * one downcall through a function pointer already read.
 */
final class FabricEndpoint {
    final MemorySegment ep;
    final byte[] name;

    private FabricEndpoint(MemorySegment ep, byte[] name) {
        this.ep = ep;
        this.name = name;
    }

    static FabricEndpoint open(FabricDomain d) throws TransferException {
        return Downcalls.inArena("libfabric endpoint setup", a -> {
            MemorySegment out = a.allocate(ADDRESS);
            check(
                    (int) Libfabric.OPEN.invokeExact(
                            Libfabric.function(
                                    d.domain,
                                    offset(LibfabricAbi.FID_DOMAIN, "ops"),
                                    LibfabricAbi.FI_OPS_DOMAIN,
                                    "endpoint"),
                            d.domain,
                            d.info.info,
                            out,
                            MemorySegment.NULL),
                    "fi_endpoint");
            MemorySegment ep = out.get(ADDRESS, 0).reinterpret(FID_EP.byteSize());
            try {
                MemorySegment bind = Libfabric.fidFunction(ep, "bind");
                check((int) Libfabric.BIND.invokeExact(bind, ep, d.av, 0L), "fi_ep_bind (address vector)");
                check(
                        (int) Libfabric.BIND.invokeExact(
                                bind, ep, d.cq.cq, LibfabricAbi.FI_TRANSMIT | LibfabricAbi.FI_RECV),
                        "fi_ep_bind (completion queue)");
                check(
                        (int) Libfabric.CONTROL.invokeExact(
                                Libfabric.fidFunction(ep, "control"), ep, LibfabricAbi.FI_ENABLE, MemorySegment.NULL),
                        "fi_enable");
                MemorySegment len = a.allocate(JAVA_LONG);
                len.set(JAVA_LONG, 0, 256);
                MemorySegment addr = a.allocate(256);
                check(
                        (int) Libfabric.GETNAME.invokeExact(
                                function(ep, "cm", LibfabricAbi.FI_OPS_CM, "getname"), ep, addr, len),
                        "fi_getname");
                return new FabricEndpoint(
                        ep, addr.asSlice(0, len.get(JAVA_LONG, 0)).toArray(java.lang.foreign.ValueLayout.JAVA_BYTE));
            } catch (TransferException | RuntimeException e) {
                java.util.ArrayDeque<MemorySegment> one = new java.util.ArrayDeque<>();
                one.push(ep);
                FabricDomain.closeAll(one);
                throw e;
            }
        });
    }

    /** {@code ep->table->name}, e.g. ("rma", FI_OPS_RMA, "write") for fi_write. */
    static MemorySegment function(MemorySegment ep, String table, java.lang.foreign.StructLayout layout, String name) {
        return Libfabric.function(ep, offset(FID_EP, table), layout, name);
    }

    MemorySegment function(String table, java.lang.foreign.StructLayout layout, String name) {
        return function(ep, table, layout, name);
    }
}
