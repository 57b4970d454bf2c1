package dev.linkproof.conformance.e2e;

import dev.linkproof.transfer.Op;
import dev.linkproof.transfer.TransferException;
import dev.linkproof.transfer.TransferSpec;
import dev.linkproof.transfer.measure.DataPath;
import dev.linkproof.transfer.memory.Buffer;
import dev.linkproof.transfer.spi.Availability;
import dev.linkproof.transfer.spi.IoSettings;
import dev.linkproof.transfer.spi.TargetContext;
import dev.linkproof.transfer.spi.TargetPoint;
import dev.linkproof.transfer.spi.Transport;
import dev.linkproof.transfer.tcp.TcpTransport;
import java.lang.foreign.ValueLayout;
import java.util.Map;

/**
 * A fault-injecting decorator over tcp: during the verification pass (the batch after warmup and
 * the timed loop) it flips one byte of one slot in transit — in the outgoing data for WRITE, in
 * the arrived data for READ. Which byte: settings {@code fault.slot} and {@code fault.offset}.
 * Registered as transport {@value #ID}; the target side is plain tcp.
 */
public final class BitFlipTransport implements Transport {
    public static final String ID = "tcp-bitflip";
    private final TcpTransport tcp = new TcpTransport();

    @Override
    public String id() {
        return ID;
    }

    @Override
    public Availability availability() {
        return tcp.availability();
    }

    @Override
    public Availability supports(TransferSpec spec) {
        return tcp.supports(spec);
    }

    @Override
    public TargetPoint serve(TransferSpec spec, Buffer region, TargetContext context) throws TransferException {
        return tcp.serve(spec, region, context);
    }

    @Override
    public DataPath connect(TransferSpec spec, Buffer local, Map<String, String> endpoint, IoSettings io) throws TransferException {
        int slot = Integer.parseInt(spec.settings().getOrDefault("fault.slot", "0"));
        long offset = Long.parseLong(spec.settings().getOrDefault("fault.offset", "0"));
        long at = spec.slots().slotOffset(slot) + offset;
        DataPath inner = tcp.connect(spec, local, endpoint, io);
        long verifyBatch = (long) spec.warmup() + spec.iterations() + 1;
        return new DataPath() {
            private long posts;
            private long awaits;

            @Override
            public void post() throws TransferException {
                if (++posts == verifyBatch && spec.op() != Op.READ) {
                    flip();
                }
                inner.post();
            }

            @Override
            public void awaitOldest() throws TransferException {
                inner.awaitOldest();
                if (++awaits == verifyBatch && spec.op() == Op.READ) {
                    flip();
                }
            }

            private void flip() {
                byte b = local.segment().get(ValueLayout.JAVA_BYTE, at);
                local.segment().set(ValueLayout.JAVA_BYTE, at, (byte) (b ^ 0x10));
            }

            @Override
            public void close() {
                inner.close();
            }
        };
    }
}
