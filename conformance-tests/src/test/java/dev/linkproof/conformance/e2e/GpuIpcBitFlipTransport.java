package dev.linkproof.conformance.e2e;

import dev.linkproof.transfer.Op;
import dev.linkproof.transfer.TransferException;
import dev.linkproof.transfer.TransferSpec;
import dev.linkproof.transfer.gpu.GpuBuffer;
import dev.linkproof.transfer.gpuipc.GpuIpcTransport;
import dev.linkproof.transfer.measure.MeasurementLoop;
import dev.linkproof.transfer.memory.Buffer;
import dev.linkproof.transfer.spi.DataPath;
import dev.linkproof.transfer.spi.InitiatorPoint;
import dev.linkproof.transfer.spi.IoSettings;
import dev.linkproof.transfer.spi.TransportDecorator;
import java.lang.foreign.ValueLayout;
import java.util.Map;

/**
 * A fault-injecting decorator over gpu-ipc: in the verification pass it flips one byte of one slot in
 * the initiator's GPU buffer before a WRITE is copied (setting {@code fault.slot}, {@code fault.offset}),
 * and only on the GPU setting {@code fault.gpu} names (a runtime ordinal): a point of several GPU rails
 * sends every rail the same settings, and the fault lands on the rail whose initiator is that GPU. The
 * flip goes to the device through the buffer's host view, which is then restored, so what this side
 * wrote and what it checks against are the pattern, and the target's checksum of its GPU differs.
 * The target side is the plain delegate. Registered as {@value #ID}; runs on one host, as gpu-ipc does.
 */
public final class GpuIpcBitFlipTransport extends TransportDecorator {
    public static final String ID = "gpu-ipc-bitflip";

    public GpuIpcBitFlipTransport() {
        super(ID, new GpuIpcTransport());
    }

    @Override
    public InitiatorPoint open(TransferSpec spec, Buffer local, Map<String, String> endpoint, IoSettings io)
            throws TransferException {
        InitiatorPoint inner = delegate.open(spec, local, endpoint, io);
        int gpu = Integer.parseInt(spec.settings().getOrDefault("fault.gpu", "0"));
        if (spec.op() != Op.WRITE || !(local instanceof GpuBuffer buffer) || buffer.device() != gpu) {
            return inner;
        }
        int slot = Integer.parseInt(spec.settings().getOrDefault("fault.slot", "0"));
        long at = spec.slots().slotOffset(slot) + Long.parseLong(spec.settings().getOrDefault("fault.offset", "0"));
        long verifyBatch = MeasurementLoop.batchesPerPoint(spec);
        return DataPathFault.around(inner, path -> new DataPath() {
            private long posts;

            @Override
            public void post() throws TransferException {
                if (++posts == verifyBatch) {
                    byte b = buffer.segment().get(ValueLayout.JAVA_BYTE, at);
                    buffer.segment().set(ValueLayout.JAVA_BYTE, at, (byte) (b ^ 0x10));
                    buffer.pushHostView(at, 1);
                    buffer.segment().set(ValueLayout.JAVA_BYTE, at, b);
                }
                path.post();
            }

            @Override
            public void awaitOldest() throws TransferException {
                path.awaitOldest();
            }

            @Override
            public void close() {
                path.close();
            }
        });
    }
}
