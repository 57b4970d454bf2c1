package dev.linkproof.transfer.gpu;

import dev.linkproof.transfer.TransferException;
import dev.linkproof.transfer.TransferSpec;
import dev.linkproof.transfer.gpuipc.GpuIpcTransport;
import dev.linkproof.transfer.memory.Buffer;
import dev.linkproof.transfer.spi.InitiatorPoint;
import dev.linkproof.transfer.spi.IoSettings;
import dev.linkproof.transfer.spi.TransportDecorator;
import java.util.Map;

/**
 * gpu-ipc with an injected fault: every device-to-device copy moves one byte less than asked, as a
 * copy engine that truncates would. Validation must catch it and name the slot and the last byte.
 * (Slots keep their places only for batch 1, which is what the tests use.)
 */
public final class ShortCopyTransport extends TransportDecorator {
    public ShortCopyTransport() {
        super("gpu-ipc-short", new GpuIpcTransport());
    }

    @Override
    public InitiatorPoint open(TransferSpec spec, Buffer local, Map<String, String> endpoint, IoSettings io)
            throws TransferException {
        TransferSpec shorter = new TransferSpec(
                spec.pointId(),
                spec.transport(),
                spec.op(),
                spec.mode(),
                spec.size() - 1,
                spec.batch(),
                spec.connections(),
                spec.pipelineDepth(),
                spec.iterations(),
                spec.warmup(),
                spec.layout(),
                spec.offset(),
                spec.initiatorMemory(),
                spec.targetMemory(),
                spec.settings());
        return InitiatorPoint.direct(() -> delegate.connect(shorter, local, endpoint, io));
    }
}
