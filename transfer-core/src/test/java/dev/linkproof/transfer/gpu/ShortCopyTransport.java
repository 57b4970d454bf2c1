package dev.linkproof.transfer.gpu;

import dev.linkproof.transfer.TransferException;
import dev.linkproof.transfer.TransferSpec;
import dev.linkproof.transfer.gpuipc.GpuIpcTransport;
import dev.linkproof.transfer.measure.DataPath;
import dev.linkproof.transfer.memory.Buffer;
import dev.linkproof.transfer.spi.Availability;
import dev.linkproof.transfer.spi.IoSettings;
import dev.linkproof.transfer.spi.TargetContext;
import dev.linkproof.transfer.spi.TargetPoint;
import dev.linkproof.transfer.spi.Transport;
import java.util.Map;

/**
 * gpu-ipc with an injected fault: every device-to-device copy moves one byte less than asked, as a
 * copy engine that truncates would. Validation must catch it and name the slot and the last byte.
 */
public final class ShortCopyTransport implements Transport {
    private final GpuIpcTransport ipc = new GpuIpcTransport();

    @Override
    public String id() {
        return "gpu-ipc-short";
    }

    @Override
    public Availability availability() {
        return ipc.availability();
    }

    @Override
    public Availability supports(TransferSpec spec) {
        return ipc.supports(spec);
    }

    @Override
    public TargetPoint serve(TransferSpec spec, Buffer region, TargetContext context) throws TransferException {
        return ipc.serve(spec, region, context);
    }

    @Override
    public DataPath connect(TransferSpec spec, Buffer local, Map<String, String> endpoint, IoSettings io) throws TransferException {
        TransferSpec shorter = new TransferSpec(spec.pointId(), spec.transport(), spec.op(), spec.mode(), spec.size() - 1,
                spec.batch(), spec.connections(), spec.pipelineDepth(), spec.iterations(), spec.warmup(), spec.layout(),
                spec.offset(), spec.initiatorMemory(), spec.targetMemory(), spec.settings());
        // Same slot positions: the layout is computed from the original spec's stride for contiguous slots of size - 1,
        // so only single-slot points keep their positions; the tests use batch 1.
        return ipc.connect(shorter, local, endpoint, io);
    }
}
