package dev.linkproof.transfer.spi;

import dev.linkproof.transfer.Availability;
import dev.linkproof.transfer.MemoryKind;
import dev.linkproof.transfer.MemoryPlacement;
import dev.linkproof.transfer.TransferException;
import dev.linkproof.transfer.TransferSpec;
import dev.linkproof.transfer.gpu.GpuBuffer;
import dev.linkproof.transfer.gpu.select.GpuRuntimes;
import dev.linkproof.transfer.memory.Buffer;
import dev.linkproof.transfer.memory.HostMemory;
import java.util.Map;

/**
 * A data path between the two ranks, found through {@link java.util.ServiceLoader}. The same class
 * serves both sides: the target agent calls {@link #serve}, the initiator {@link #connect}.
 * A transport whose native library is missing reports it through {@link #availability()} and is
 * never asked to do anything else.
 */
public interface Transport {
    /** Short id used in specs, unique ids and reports, e.g. {@code tcp}. */
    String id();

    /** How the transport calls a queue pair in display names: "conn", "QP", "ep". */
    default String connectionNoun() {
        return "conn";
    }

    /**
     * Whether GPU memory moves through a host copy on this transport (tcp) rather than directly
     * (gpu-ipc, verbs with a dma-buf, UCX with a memory type); point names say "staged" when so.
     */
    default boolean stagesGpuMemory() {
        return false;
    }

    /**
     * Whether both ranks must share one host (one kernel) for this transport to work at all: gpu-ipc
     * opens the target's GPU memory through an IPC handle. A target on another host is then no rank
     * this transport can reach, whatever its agent has.
     */
    default boolean sameHostOnly() {
        return false;
    }

    /** Availability in this process. Must not throw, and must not load a missing library eagerly. */
    Availability availability();

    /**
     * Whether this transport can run {@code spec} (its op, memory kinds, settings); checked on the
     * initiator before a point is provisioned, so an unsupported combination is skipped, not failed.
     */
    default Availability supports(TransferSpec spec) {
        return availability();
    }

    /**
     * Allocates a buffer of {@code bytes} for {@code spec}, on either rank: the initiator's local
     * buffer and the target's region both come from here. The default is plain {@link HostMemory};
     * a transport whose library must own the memory for RMA to be one-sided (UCX maps it with
     * {@code ucp_mem_map(ALLOCATE)}) supplies its own, and finds it again in {@link #serve} and
     * {@link #open}. GPU placements get device memory from this process's GPU runtime, seen
     * through a host copy ({@link GpuBuffer}).
     */
    default Buffer allocate(TransferSpec spec, MemoryPlacement placement, long bytes) throws TransferException {
        if (placement.kind() == MemoryKind.GPU) {
            return GpuBuffer.allocate(GpuRuntimes.require(), placement.device(), bytes);
        }
        return HostMemory.allocate(placement, bytes);
    }

    /**
     * Target side: registers {@code region} and starts serving it for {@code spec}. Two-phase
     * transports finish in {@link TargetPoint#accept} once the initiator's endpoint arrives.
     */
    TargetPoint serve(TransferSpec spec, Buffer region, TargetContext context) throws TransferException;

    /**
     * Initiator side, phase one: sets up this side for {@code endpoint} (the target's PREPARED reply).
     * The default suits one-way transports: it defers to {@link #connect} when the session starts
     * the point. Transports that must tell the target about themselves return an
     * {@link InitiatorPoint} with a non-empty endpoint.
     */
    default InitiatorPoint open(TransferSpec spec, Buffer local, Map<String, String> endpoint, IoSettings io)
            throws TransferException {
        return InitiatorPoint.direct(() -> connect(spec, local, endpoint, io));
    }

    /** Initiator side of a one-way transport: connects to {@code endpoint} and pre-builds the batch over {@code local}. */
    default DataPath connect(TransferSpec spec, Buffer local, Map<String, String> endpoint, IoSettings io)
            throws TransferException {
        throw new UnsupportedOperationException(
                id() + " connects in two phases: use open() and InitiatorPoint.start()");
    }

    /** Facts for reports: library versions, settings in force. */
    default Map<String, String> describe() {
        return Map.of();
    }
}
