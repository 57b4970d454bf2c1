package dev.linkproof.conformance.e2e;

import dev.linkproof.transfer.Op;
import dev.linkproof.transfer.TransferException;
import dev.linkproof.transfer.TransferSpec;
import dev.linkproof.transfer.measure.MeasurementLoop;
import dev.linkproof.transfer.memory.Buffer;
import dev.linkproof.transfer.spi.DataPath;
import dev.linkproof.transfer.spi.InitiatorPoint;
import dev.linkproof.transfer.spi.IoSettings;
import dev.linkproof.transfer.spi.Transport;
import dev.linkproof.transfer.spi.TransportDecorator;
import dev.linkproof.transfer.tcp.TcpTransport;
import java.lang.foreign.ValueLayout;
import java.util.Map;

/**
 * A fault-injecting decorator over any transport: during the verification pass (the batch after
 * warmup and the timed loop) it flips one byte of one slot in transit — in the initiator's outgoing
 * data before a WRITE/SEND/WRITE_WITH_IMM is posted, in the arrived data after a READ completes.
 * Which byte: settings {@code fault.slot} and {@code fault.offset}. The target side is the plain
 * delegate. Registered as {@value #ID} over tcp; {@link VerbsBitFlipTransport} is the same over verbs.
 */
public class BitFlipTransport extends TransportDecorator {
    public static final String ID = "tcp-bitflip";

    public BitFlipTransport() {
        this(ID, new TcpTransport());
    }

    protected BitFlipTransport(String id, Transport delegate) {
        super(id, delegate);
    }

    @Override
    public InitiatorPoint open(TransferSpec spec, Buffer local, Map<String, String> endpoint, IoSettings io)
            throws TransferException {
        InitiatorPoint inner = delegate.open(spec, local, endpoint, io);
        int slot = Integer.parseInt(spec.settings().getOrDefault("fault.slot", "0"));
        long at = spec.slots().slotOffset(slot) + Long.parseLong(spec.settings().getOrDefault("fault.offset", "0"));
        long verifyBatch = MeasurementLoop.batchesPerPoint(spec);
        return DataPathFault.around(inner, path -> new Flipping(path, spec.op(), local, at, verifyBatch));
    }

    /** The delegate's data path, flipping the byte at {@code at} of the local buffer in batch {@code verifyBatch}. */
    private static final class Flipping implements DataPath {
        private final DataPath path;
        private final Op op;
        private final Buffer local;
        private final long at;
        private final long verifyBatch;
        private long posts;
        private long awaits;

        Flipping(DataPath path, Op op, Buffer local, long at, long verifyBatch) {
            this.path = path;
            this.op = op;
            this.local = local;
            this.at = at;
            this.verifyBatch = verifyBatch;
        }

        @Override
        public void post() throws TransferException {
            if (++posts == verifyBatch && op != Op.READ) {
                flip();
            }
            path.post();
        }

        @Override
        public void awaitOldest() throws TransferException {
            path.awaitOldest();
            if (++awaits == verifyBatch && op == Op.READ) {
                flip();
            }
        }

        private void flip() {
            byte b = local.segment().get(ValueLayout.JAVA_BYTE, at);
            local.segment().set(ValueLayout.JAVA_BYTE, at, (byte) (b ^ 0x10));
        }

        @Override
        public void close() {
            path.close();
        }
    }
}
