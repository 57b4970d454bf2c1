package dev.linkproof.transfer.gpuipc;

import dev.linkproof.transfer.Availability;
import dev.linkproof.transfer.MemoryKind;
import dev.linkproof.transfer.Op;
import dev.linkproof.transfer.TransferException;
import dev.linkproof.transfer.TransferSpec;
import dev.linkproof.transfer.gpu.GpuBuffer;
import dev.linkproof.transfer.gpu.GpuRuntime;
import dev.linkproof.transfer.gpu.select.GpuRuntimes;
import dev.linkproof.transfer.memory.Buffer;
import dev.linkproof.transfer.spi.DataPath;
import dev.linkproof.transfer.spi.IoSettings;
import dev.linkproof.transfer.spi.PeerEndpoint;
import dev.linkproof.transfer.spi.TargetContext;
import dev.linkproof.transfer.spi.TargetPoint;
import dev.linkproof.transfer.spi.Transport;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * GPU to GPU inside one node, between two processes, through IPC memory handles — the path
 * MORI-IO calls XGMI and CUDA applications reach over NVLink (or one GPU's own memory when both
 * ranks share it). The target exports its region ({@code cuIpcGetMemHandle}/{@code hipIpcGetMemHandle});
 * the initiator maps it and copies device to device on its own streams: WRITE copies its buffer
 * into the target's, READ the other way. {@code qps} is the number of streams the transfers are
 * spread over. The target takes no part in the data path, as with RDMA.
 */
public final class GpuIpcTransport implements Transport {
    public static final String ID = "gpu-ipc";

    static final String HANDLE = "gpu.ipc.handle";
    static final String API = "gpu.ipc.api";
    static final String PID = "gpu.ipc.pid";

    @Override
    public String id() {
        return ID;
    }

    @Override
    public boolean sameHostOnly() {
        return true;
    }

    @Override
    public String connectionNoun() {
        return "stream";
    }

    @Override
    public Availability availability() {
        return GpuRuntimes.availability();
    }

    @Override
    public Availability supports(TransferSpec spec) {
        if (spec.op().atomic()) {
            // Copies through cudaMemcpy/hipMemcpy between mapped device memory: no atomic of another
            // process's counter is among them (that needs a kernel of our own).
            return Availability.notSupported("gpu-ipc copies device to device and has no remote atomics: "
                    + spec.op().label() + " runs on verbs and ucx");
        }
        if (spec.op() != Op.WRITE && spec.op() != Op.READ) {
            return Availability.notSupported("gpu-ipc copies device to device: write or read, not "
                    + spec.op().label());
        }
        if (spec.initiatorMemory().kind() != MemoryKind.GPU
                || spec.targetMemory().kind() != MemoryKind.GPU) {
            return Availability.notSupported("gpu-ipc moves GPU memory to GPU memory: memory must be gpu->gpu, was "
                    + spec.initiatorMemory() + "->" + spec.targetMemory());
        }
        return GpuRuntimes.availability(spec.initiatorMemory().device());
    }

    @Override
    public TargetPoint serve(TransferSpec spec, Buffer region, TargetContext context) throws TransferException {
        GpuBuffer gpu = requireGpu(region, "target");
        byte[] handle = gpu.runtime().exportIpc(gpu.device(), gpu.devicePointer());
        Map<String, String> endpoint = Map.of(
                HANDLE,
                HexFormat.of().formatHex(handle),
                API,
                gpu.runtime().api(),
                PID,
                Long.toString(ProcessHandle.current().pid()));
        return new TargetPoint() {
            @Override
            public Map<String, String> endpoint() {
                return endpoint;
            }

            @Override
            public void close() {
                // The region (and with it what the handle names) is freed by the agent after this.
            }
        };
    }

    @Override
    public DataPath connect(TransferSpec spec, Buffer local, Map<String, String> endpoint, IoSettings io)
            throws TransferException {
        GpuBuffer gpu = requireGpu(local, "initiator");
        GpuRuntime runtime = gpu.runtime();
        PeerEndpoint peer = PeerEndpoint.of(ID, endpoint);
        String api = peer.string(API);
        if (!runtime.api().equals(api)) {
            throw new TransferException("the target exported a " + api + " IPC handle; this initiator runs "
                    + runtime.api() + " (both ranks of a gpu-ipc point must use the same GPU runtime)");
        }
        // Read as a number, not compared as text: a pid that is no pid (pid_t is a positive 32-bit
        // int) is the target's fault and must be named, not taken for "another process".
        if (peer.number(PID, 1, Integer.MAX_VALUE) == ProcessHandle.current().pid()) {
            throw new TransferException("gpu-ipc needs the target in another process: an IPC handle cannot be opened "
                    + "by the process that exported it (run the target as an agent process)");
        }
        byte[] handle = peer.hex(HANDLE);
        return GpuIpcDataPath.open(spec, gpu, handle, io);
    }

    @Override
    public Map<String, String> describe() {
        Map<String, String> d = new LinkedHashMap<>();
        GpuRuntimes.find().ifPresent(rt -> {
            d.put("gpu.runtime", rt.describe());
            rt.devices().forEach(dev -> d.put("gpu." + dev.index(), dev.name() + " @ " + dev.pciBusId()));
        });
        return d;
    }

    private static GpuBuffer requireGpu(Buffer buffer, String rank) throws TransferException {
        if (buffer instanceof GpuBuffer g) {
            return g;
        }
        throw new TransferException("gpu-ipc needs GPU memory on the " + rank + ", got " + buffer.placement());
    }
}
