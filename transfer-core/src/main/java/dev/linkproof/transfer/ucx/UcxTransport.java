package dev.linkproof.transfer.ucx;

import dev.linkproof.transfer.Op;
import dev.linkproof.transfer.TransferException;
import dev.linkproof.transfer.TransferSpec;
import dev.linkproof.transfer.measure.DataPath;
import dev.linkproof.transfer.memory.Buffer;
import dev.linkproof.transfer.memory.HostMemory;
import dev.linkproof.transfer.memory.MemoryKind;
import dev.linkproof.transfer.memory.MemoryPlacement;
import dev.linkproof.transfer.spi.Availability;
import dev.linkproof.transfer.spi.IoSettings;
import dev.linkproof.transfer.spi.TargetContext;
import dev.linkproof.transfer.spi.TargetPoint;
import dev.linkproof.transfer.spi.Transport;
import java.util.Map;
import java.util.TreeMap;

/**
 * UCX (UCP) one-sided RMA through FFM: WRITE = {@code ucp_put_nbx}, READ = {@code ucp_get_nbx},
 * several endpoints standing in for queue pairs. Both ranks allocate their buffers with
 * {@code ucp_mem_map(UCP_MEM_MAP_ALLOCATE)} (through {@link #allocate}), because memory the JVM
 * allocated gives emulated, two-sided RMA. Every {@code UCX_*} entry of the spec's settings
 * (e.g. {@code UCX_TLS=shm}) configures the context on both ranks.
 */
public final class UcxTransport implements Transport {
    public static final String ID = "ucx";

    @Override
    public String id() {
        return ID;
    }

    @Override
    public String connectionNoun() {
        return "ep";
    }

    @Override
    public Availability availability() {
        String why = Ucx.unavailableReason();
        return why == null ? Availability.yes("UCX " + Ucx.lib().version() + " (" + Ucx.LIBRARY + ")")
                : Availability.no(why);
    }

    @Override
    public Availability supports(TransferSpec spec) {
        Availability a = availability();
        if (!a.available()) {
            return a;
        }
        if (spec.op() != Op.WRITE && spec.op() != Op.READ) {
            return Availability.no("ucx supports write (put) and read (get), not " + spec.op().label());
        }
        if (spec.initiatorMemory().kind() == MemoryKind.GPU || spec.targetMemory().kind() == MemoryKind.GPU) {
            return Availability.no("ucx GPU memory needs a GPU runtime to allocate it (UCS_MEMORY_TYPE_CUDA/ROCM); none is bound yet");
        }
        return a;
    }

    /** The settings UCX sees: the {@code UCX_*} entries of the spec's settings. */
    static Map<String, String> ucxSettings(TransferSpec spec) {
        Map<String, String> m = new TreeMap<>();
        spec.settings().forEach((k, v) -> {
            if (k.startsWith("UCX_")) {
                m.put(k, v);
            }
        });
        return Map.copyOf(m);
    }

    /** UCX 1.13's shared-memory transports have no peer failure handler: peer mode would be refused. */
    private static final java.util.Set<String> SHARED_MEMORY_TLS = java.util.Set.of("shm", "posix", "sysv", "cma",
            "xpmem", "knem", "self", "sm", "mm");

    /** False when UCX_TLS names shared-memory transports only, so endpoints skip peer error mode. */
    static boolean mayDetectPeerFailure(TransferSpec spec) {
        String tls = spec.settings().get("UCX_TLS");
        if (tls == null || tls.isBlank() || tls.startsWith("^")) {
            return true;
        }
        for (String t : tls.split(",")) {
            if (!SHARED_MEMORY_TLS.contains(t.trim())) {
                return true;
            }
        }
        return false;
    }

    /**
     * Host memory comes from {@code ucp_mem_map(ALLOCATE)}; huge pages are allocated as usual and
     * registered in place.
     */
    @Override
    public Buffer allocate(TransferSpec spec, MemoryPlacement placement, long bytes) throws TransferException {
        if (placement.kind() == MemoryKind.GPU) {
            throw new TransferException("ucx cannot allocate GPU memory yet: no GPU runtime is bound");
        }
        UcxContext context = UcxContext.create(ucxSettings(spec));
        Buffer backing = null;
        try {
            UcxMemory memory;
            if (placement.kind() == MemoryKind.HUGEPAGE) {
                backing = HostMemory.hugepages(bytes);
                memory = UcxMemory.register(context, backing.segment());
            } else {
                memory = UcxMemory.allocate(context, bytes);
            }
            return new UcxBuffer(context, memory, backing, placement);
        } catch (TransferException | RuntimeException e) {
            if (backing != null) {
                backing.close();
            }
            context.close();
            throw e;
        }
    }

    @Override
    public TargetPoint serve(TransferSpec spec, Buffer region, TargetContext context) throws TransferException {
        return UcxTargetPoint.open(spec, region, context);
    }

    @Override
    public DataPath connect(TransferSpec spec, Buffer local, Map<String, String> endpoint, IoSettings io)
            throws TransferException {
        return UcxDataPath.connect(spec, local, endpoint, io);
    }

    @Override
    public Map<String, String> describe() {
        if (Ucx.unavailableReason() != null) {
            return Map.of();
        }
        return Map.of("ucx.version", Ucx.lib().version(), "ucx.memory", "ucp_mem_map(allocate)");
    }
}
