package dev.linkproof.transfer.ucx;

import static dev.linkproof.transfer.ucx.Ucx.check;
import static dev.linkproof.transfer.ucx.Ucx.lib;
import static java.lang.foreign.MemoryLayout.PathElement.groupElement;
import static java.lang.foreign.ValueLayout.ADDRESS;
import static java.lang.foreign.ValueLayout.JAVA_BYTE;
import static java.lang.foreign.ValueLayout.JAVA_LONG;

import dev.linkproof.transfer.TransferException;
import dev.linkproof.transfer.nativeaccess.Downcalls;
import java.lang.foreign.MemorySegment;
import java.lang.invoke.VarHandle;

/**
 * Memory mapped by {@code ucp_mem_map}: either allocated by UCX ({@code UCP_MEM_MAP_ALLOCATE}, which
 * lands in memory its shared-memory transports can expose, so RMA is truly one-sided) or existing
 * memory registered in place.
 */
final class UcxMemory {
    private static final VarHandle M_MASK = Ucx.MEM_MAP_PARAMS.varHandle(groupElement("field_mask"));
    private static final VarHandle M_ADDRESS = Ucx.MEM_MAP_PARAMS.varHandle(groupElement("address"));
    private static final VarHandle M_LENGTH = Ucx.MEM_MAP_PARAMS.varHandle(groupElement("length"));
    private static final VarHandle M_FLAGS = Ucx.MEM_MAP_PARAMS.varHandle(groupElement("flags"));
    private static final VarHandle M_TYPE = Ucx.MEM_MAP_PARAMS.varHandle(groupElement("memory_type"));
    private static final VarHandle A_MASK = Ucx.MEM_ATTR.varHandle(groupElement("field_mask"));
    private static final VarHandle A_ADDRESS = Ucx.MEM_ATTR.varHandle(groupElement("address"));
    private static final VarHandle A_LENGTH = Ucx.MEM_ATTR.varHandle(groupElement("length"));

    final UcxContext context;
    final MemorySegment memh;
    /** The mapped bytes, exactly as long as asked for. */
    final MemorySegment segment;

    final boolean allocated;
    private boolean unmapped;

    private UcxMemory(UcxContext context, MemorySegment memh, MemorySegment segment, boolean allocated) {
        this.context = context;
        this.memh = memh;
        this.segment = segment;
        this.allocated = allocated;
    }

    /** ucp_mem_map(ALLOCATE) of host memory, queried for its address. */
    static UcxMemory allocate(UcxContext context, long bytes) throws TransferException {
        return map(context, MemorySegment.NULL, bytes, Ucx.UCP_MEM_MAP_ALLOCATE, Ucx.UCS_MEMORY_TYPE_HOST);
    }

    /** ucp_mem_map of host memory that already exists: registration, no copy. */
    static UcxMemory register(UcxContext context, MemorySegment existing) throws TransferException {
        return map(context, existing, existing.byteSize(), 0, Ucx.UCS_MEMORY_TYPE_HOST);
    }

    /**
     * ucp_mem_map of device memory, with its {@code ucs_memory_type_t}. The resulting
     * {@link #segment} names device addresses: UCX reads it, Java never may.
     */
    static UcxMemory registerDevice(UcxContext context, long devicePointer, long bytes, int memoryType)
            throws TransferException {
        return map(context, MemorySegment.ofAddress(devicePointer), bytes, 0, memoryType);
    }

    private static UcxMemory map(UcxContext context, MemorySegment address, long bytes, int flags, int memoryType)
            throws TransferException {
        Ucx.Lib l = lib();
        return Downcalls.inArena("ucp_mem_map downcall", a -> {
            MemorySegment params = a.allocate(Ucx.MEM_MAP_PARAMS);
            M_MASK.set(
                    params,
                    0L,
                    Ucx.UCP_MEM_MAP_PARAM_FIELD_ADDRESS
                            | Ucx.UCP_MEM_MAP_PARAM_FIELD_LENGTH
                            | Ucx.UCP_MEM_MAP_PARAM_FIELD_FLAGS
                            | Ucx.UCP_MEM_MAP_PARAM_FIELD_MEMORY_TYPE);
            M_ADDRESS.set(params, 0L, address);
            M_LENGTH.set(params, 0L, bytes);
            M_FLAGS.set(params, 0L, flags);
            M_TYPE.set(params, 0L, memoryType);
            MemorySegment out = a.allocate(ADDRESS);
            Ucx.checkLimits(
                    (byte) l.memMap.invokeExact(context.handle, params, out),
                    "ucp_mem_map of " + bytes + " bytes"
                            + ((flags & Ucx.UCP_MEM_MAP_ALLOCATE) != 0 ? " (allocate)" : ""),
                    bytes,
                    bytes);
            MemorySegment memh = out.get(ADDRESS, 0);
            MemorySegment attr = a.allocate(Ucx.MEM_ATTR);
            A_MASK.set(attr, 0L, Ucx.UCP_MEM_ATTR_FIELD_ADDRESS | Ucx.UCP_MEM_ATTR_FIELD_LENGTH);
            byte st = (byte) l.memQuery.invokeExact(memh, attr);
            if (st != Ucx.UCS_OK) {
                byte ignored = (byte) l.memUnmap.invokeExact(context.handle, memh);
                check(st, "ucp_mem_query");
            }
            MemorySegment base = (MemorySegment) A_ADDRESS.get(attr, 0L);
            long length = (long) A_LENGTH.get(attr, 0L);
            if (length < bytes) {
                byte ignored = (byte) l.memUnmap.invokeExact(context.handle, memh);
                throw new TransferException("ucp_mem_map gave " + length + " bytes, " + bytes + " asked for");
            }
            return new UcxMemory(context, memh, base.reinterpret(bytes), flags != 0);
        });
    }

    /** The packed remote key for this memory. */
    byte[] packRkey() throws TransferException {
        Ucx.Lib l = lib();
        return Downcalls.inArena("ucp_rkey_pack downcall", a -> {
            MemorySegment buf = a.allocate(ADDRESS);
            MemorySegment size = a.allocate(JAVA_LONG);
            check((byte) l.rkeyPack.invokeExact(context.handle, memh, buf, size), "ucp_rkey_pack");
            MemorySegment packed = buf.get(ADDRESS, 0).reinterpret(size.get(JAVA_LONG, 0));
            byte[] bytes = packed.toArray(JAVA_BYTE);
            l.rkeyBufferRelease.invokeExact(packed);
            return bytes;
        });
    }

    synchronized void unmap() {
        if (!unmapped) {
            unmapped = true;
            try {
                byte st = (byte) lib().memUnmap.invokeExact(context.handle, memh);
                if (st != Ucx.UCS_OK) {
                    throw new IllegalStateException("ucp_mem_unmap failed: " + Ucx.statusString(st));
                }
            } catch (RuntimeException e) {
                throw e;
            } catch (Throwable t) {
                throw new IllegalStateException("ucp_mem_unmap downcall failed", t);
            }
        }
    }
}
