package dev.linkproof.transfer.ucx;

import static dev.linkproof.transfer.ucx.Ucx.check;
import static dev.linkproof.transfer.ucx.Ucx.lib;
import static java.lang.foreign.MemoryLayout.PathElement.groupElement;
import static java.lang.foreign.ValueLayout.ADDRESS;

import dev.linkproof.transfer.TransferException;
import dev.linkproof.transfer.nativeaccess.Downcalls;
import java.lang.foreign.MemorySegment;
import java.lang.invoke.VarHandle;
import java.util.Map;

/**
 * A UCP context with RMA, configured from the point's settings: every {@code UCX_*} key is applied
 * with {@code ucp_config_modify} (so both ranks run the same configuration whatever their
 * environments hold). Closed with {@code ucp_cleanup} once every memory map and worker is gone.
 */
final class UcxContext implements AutoCloseable {
    private static final VarHandle P_MASK = Ucx.PARAMS.varHandle(groupElement("field_mask"));
    private static final VarHandle P_FEATURES = Ucx.PARAMS.varHandle(groupElement("features"));
    private static final VarHandle A_MASK = Ucx.CONTEXT_ATTR.varHandle(groupElement("field_mask"));
    private static final VarHandle A_TYPES = Ucx.CONTEXT_ATTR.varHandle(groupElement("memory_types"));

    final MemorySegment handle;
    final Map<String, String> settings;
    private boolean closed;

    private UcxContext(MemorySegment handle, Map<String, String> settings) {
        this.handle = handle;
        this.settings = settings;
    }

    static UcxContext create(Map<String, String> settings) throws TransferException {
        Ucx.Lib l = lib();
        return Downcalls.inArena("ucp_init downcall", a -> {
            MemorySegment configOut = a.allocate(ADDRESS);
            check(
                    (byte) l.configRead.invokeExact(MemorySegment.NULL, MemorySegment.NULL, configOut),
                    "ucp_config_read");
            MemorySegment config = configOut.get(ADDRESS, 0);
            try {
                for (var e : settings.entrySet()) {
                    if (!e.getKey().startsWith("UCX_")) {
                        continue;
                    }
                    String name = e.getKey().substring(4);
                    byte st = (byte)
                            l.configModify.invokeExact(config, a.allocateFrom(name), a.allocateFrom(e.getValue()));
                    check(st, "ucp_config_modify(" + e.getKey() + "=" + e.getValue() + ")");
                }
                MemorySegment params = a.allocate(Ucx.PARAMS);
                P_MASK.set(params, 0L, Ucx.UCP_PARAM_FIELD_FEATURES);
                // WAKEUP lets a target sleep in poll(2) on the worker's event fd instead of spinning.
                // AMO64 only where the point is atomic (UcxTransport.ucxSettings marks it): asked of every
                // context it could change the lanes UCX picks for plain puts and gets.
                P_FEATURES.set(
                        params,
                        0L,
                        Ucx.UCP_FEATURE_RMA
                                | Ucx.UCP_FEATURE_WAKEUP
                                | ("true".equals(settings.get(UcxTransport.AMO64)) ? Ucx.UCP_FEATURE_AMO64 : 0L));
                MemorySegment ctxOut = a.allocate(ADDRESS);
                check((byte) l.init.invokeExact(Ucx.API_MAJOR, Ucx.API_MINOR, params, config, ctxOut), "ucp_init");
                return new UcxContext(ctxOut.get(ADDRESS, 0), Map.copyOf(settings));
            } finally {
                l.configRelease.invokeExact(config);
            }
        });
    }

    /** {@code ucp_context_query}'s memory types: bit {@code ucs_memory_type_t} set where UCX has a transport for it. */
    long memoryTypes() throws TransferException {
        Ucx.Lib l = lib();
        return Downcalls.inArena("ucp_context_query downcall", a -> {
            MemorySegment attr = a.allocate(Ucx.CONTEXT_ATTR);
            A_MASK.set(attr, 0L, Ucx.UCP_ATTR_FIELD_MEMORY_TYPES);
            check((byte) l.contextQuery.invokeExact(handle, attr), "ucp_context_query");
            return (long) A_TYPES.get(attr, 0L);
        });
    }

    @Override
    public synchronized void close() {
        if (!closed) {
            closed = true;
            try {
                lib().cleanup.invokeExact(handle);
            } catch (Throwable t) {
                throw new IllegalStateException("ucp_cleanup failed", t);
            }
        }
    }
}
