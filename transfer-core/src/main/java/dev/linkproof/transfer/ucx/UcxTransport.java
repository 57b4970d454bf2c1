package dev.linkproof.transfer.ucx;

import dev.linkproof.transfer.Availability;
import dev.linkproof.transfer.MemoryKind;
import dev.linkproof.transfer.MemoryPlacement;
import dev.linkproof.transfer.Op;
import dev.linkproof.transfer.TransferException;
import dev.linkproof.transfer.TransferSpec;
import dev.linkproof.transfer.gpu.GpuBuffer;
import dev.linkproof.transfer.gpu.GpuRuntime;
import dev.linkproof.transfer.gpu.select.GpuRuntimes;
import dev.linkproof.transfer.memory.Buffer;
import dev.linkproof.transfer.memory.HostMemory;
import dev.linkproof.transfer.spi.DataPath;
import dev.linkproof.transfer.spi.IoSettings;
import dev.linkproof.transfer.spi.TargetContext;
import dev.linkproof.transfer.spi.TargetPoint;
import dev.linkproof.transfer.spi.Transport;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;

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
        return why == null
                ? Availability.yes("UCX " + Ucx.lib().version() + " (" + Ucx.LIBRARY + ")")
                : Availability.no(why);
    }

    @Override
    public Availability supports(TransferSpec spec) {
        Availability a = availability();
        if (!a.available()) {
            return a;
        }
        if (spec.op() != Op.WRITE && spec.op() != Op.READ && !spec.op().atomic()) {
            return Availability.notSupported(
                    "ucx supports write (put), read (get), fetch-add and compare-swap (ucp_atomic_op_nbx), not "
                            + spec.op().label());
        }
        if (spec.op().atomic()
                && (spec.initiatorMemory().kind() == MemoryKind.GPU
                        || spec.targetMemory().kind() == MemoryKind.GPU)) {
            return Availability.notSupported(
                    "ucx atomics run on host memory here: UCX's GPU transports (cuda_ipc, rocm) offer no remote"
                            + " atomics");
        }
        if (spec.initiatorMemory().kind() == MemoryKind.GPU
                || spec.targetMemory().kind() == MemoryKind.GPU) {
            return gpuSupport(ucxSettings(spec));
        }
        return a;
    }

    /** What {@code ucp_context_query} said of each configuration's memory types: a context costs milliseconds. */
    private final Map<Map<String, String>, Long> memoryTypes = new ConcurrentHashMap<>();

    /**
     * GPU memory moves only where UCX was built with the GPU runtime's transports (cuda_copy,
     * cuda_ipc, rocm_copy, ...): its context lists the memory type then. Both ranks are assumed to
     * run the same UCX; a target whose UCX lacks it refuses the point's PREPARE with the same reason.
     */
    private Availability gpuSupport(Map<String, String> settings) {
        Optional<GpuRuntime> rt = GpuRuntimes.find();
        if (rt.isEmpty()) {
            return GpuRuntimes.availability();
        }
        long types;
        try {
            types = memoryTypes.computeIfAbsent(settings, s -> {
                try (UcxContext context = UcxContext.create(s)) {
                    return context.memoryTypes();
                } catch (TransferException e) {
                    throw new IllegalStateException(e.getMessage(), e);
                }
            });
        } catch (IllegalStateException e) {
            return Availability.no("ucx cannot tell which memory types it supports: " + e.getMessage());
        }
        int type = rt.get().ucxMemoryType();
        if ((types & (1L << type)) == 0) {
            return Availability.no("UCX " + Ucx.lib().version() + " has no transport for " + memoryTypeName(type)
                    + " memory: its context supports " + memoryTypeNames(types) + " (a UCX built with "
                    + (type == Ucx.UCS_MEMORY_TYPE_CUDA ? "CUDA" : "ROCm")
                    + " support is needed, e.g. NVIDIA's or AMD's UCX packages)");
        }
        return Availability.yes("UCX " + Ucx.lib().version() + " moves " + memoryTypeName(type) + " memory");
    }

    private static final String[] MEMORY_TYPES = {
        "host", "cuda", "cuda-managed", "rocm", "rocm-managed", "rdma", "ze-host", "ze-device", "ze-managed"
    };

    static String memoryTypeName(int type) {
        return type >= 0 && type < MEMORY_TYPES.length ? MEMORY_TYPES[type] : "memory type " + type;
    }

    static String memoryTypeNames(long types) {
        java.util.List<String> names = new java.util.ArrayList<>();
        for (int t = 0; t < 64; t++) {
            if ((types & (1L << t)) != 0) {
                names.add(memoryTypeName(t));
            }
        }
        return names.isEmpty() ? "none" : String.join(", ", names);
    }

    /**
     * A key of {@link #ucxSettings} (never a UCX variable: it does not start with {@code UCX_}) that asks
     * the context for 64-bit atomics; part of the map so a buffer's context is reused only by points
     * that need the same features.
     */
    static final String AMO64 = "ucp.feature.amo64";

    /** The settings UCX sees: the {@code UCX_*} entries of the spec's settings, and {@link #AMO64} for an atomic point. */
    static Map<String, String> ucxSettings(TransferSpec spec) {
        Map<String, String> m = new TreeMap<>();
        spec.settings().forEach((k, v) -> {
            if (k.startsWith("UCX_")) {
                m.put(k, v);
            }
        });
        if (spec.op().atomic()) {
            m.put(AMO64, "true");
        }
        return Map.copyOf(m);
    }

    /** UCX 1.13's shared-memory transports have no peer failure handler: peer mode would be refused. */
    private static final java.util.Set<String> SHARED_MEMORY_TLS =
            java.util.Set.of("shm", "posix", "sysv", "cma", "xpmem", "knem", "self", "sm", "mm");

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
     * registered in place; GPU memory comes from the GPU runtime and is registered in place with its
     * memory type (the host view it is validated through stays the GpuBuffer's).
     */
    @Override
    public Buffer allocate(TransferSpec spec, MemoryPlacement placement, long bytes) throws TransferException {
        UcxContext context = UcxContext.create(ucxSettings(spec));
        Buffer backing = null;
        try {
            UcxMemory memory;
            if (placement.kind() == MemoryKind.GPU) {
                GpuBuffer gpu = GpuBuffer.allocate(GpuRuntimes.require(), placement.device(), bytes);
                backing = gpu;
                memory = UcxMemory.registerDevice(
                        context, gpu.devicePointer(), bytes, gpu.runtime().ucxMemoryType());
            } else if (placement.kind() == MemoryKind.HUGEPAGE) {
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
