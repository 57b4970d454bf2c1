package dev.linkproof.conformance.e2e;

import dev.linkproof.transfer.TransferException;
import dev.linkproof.transfer.TransferSpec;
import dev.linkproof.transfer.atomic.AtomicLayout;
import dev.linkproof.transfer.atomic.AtomicPlan;
import dev.linkproof.transfer.memory.Buffer;
import dev.linkproof.transfer.spi.DataPath;
import dev.linkproof.transfer.spi.InitiatorPoint;
import dev.linkproof.transfer.spi.IoSettings;
import dev.linkproof.transfer.spi.Transport;
import dev.linkproof.transfer.spi.TransportDecorator;
import dev.linkproof.transfer.ucx.UcxTransport;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.util.Map;

/**
 * A fault-injecting decorator for atomic points: in one batch it changes one counter's op, so that counter gets one
 * atomic fewer ({@code fault.kind=lost}) or one more ({@code doubled}) than the plan, while every other counter and
 * batch runs as planned. It changes the initiator's operand word ({@link AtomicLayout#operand}), where a transport
 * reads an op's step: a fetch-add of 0 or twice the step, a compare-and-swap to the same value or two steps on; it is
 * restored once that batch is posted, since data paths read it when they post. Settings: {@code fault.slot} (default
 * 0), {@code fault.kind}, {@code fault.batch} (1-based over the point; default the first verification batch). The
 * target side is the plain delegate. Registered as {@value #ID} over ucx; {@link VerbsAtomicFaultTransport} is verbs'.
 */
public class AtomicFaultTransport extends TransportDecorator {
    public static final String ID = "ucx-atomic-fault";

    public AtomicFaultTransport() {
        this(ID, new UcxTransport());
    }

    protected AtomicFaultTransport(String id, Transport delegate) {
        super(id, delegate);
    }

    @Override
    public InitiatorPoint open(TransferSpec spec, Buffer local, Map<String, String> endpoint, IoSettings io)
            throws TransferException {
        InitiatorPoint inner = delegate.open(spec, local, endpoint, io);
        int slot = Integer.parseInt(spec.settings().getOrDefault("fault.slot", "0"));
        String kind = spec.settings().getOrDefault("fault.kind", "lost");
        if (!kind.equals("lost") && !kind.equals("doubled")) {
            throw new TransferException("fault.kind must be lost or doubled, was " + kind);
        }
        long batch = Long.parseLong(spec.settings()
                .getOrDefault("fault.batch", Long.toString(new AtomicPlan(spec, 0).opsBeforeVerification() + 1)));
        long at = AtomicLayout.of(spec).operand(slot);
        return DataPathFault.around(
                inner, path -> new Faulty(path, local.segment(), at, kind.equals("lost") ? 0 : 2, batch));
    }

    /** The delegate's path, with the operand at {@code at} scaled by {@code factor} for batch {@code batch}. */
    private static final class Faulty implements DataPath {
        private final DataPath path;
        private final MemorySegment local;
        private final long at;
        private final long factor;
        private final long batch;
        private long posts;
        private long saved;

        Faulty(DataPath path, MemorySegment local, long at, long factor, long batch) {
            this.path = path;
            this.local = local;
            this.at = at;
            this.factor = factor;
            this.batch = batch;
        }

        @Override
        public void post() throws TransferException {
            if (++posts == batch) {
                saved = local.get(ValueLayout.JAVA_LONG_UNALIGNED, at);
                local.set(ValueLayout.JAVA_LONG_UNALIGNED, at, saved * factor);
            }
            try {
                path.post();
            } finally {
                if (posts == batch) {
                    local.set(ValueLayout.JAVA_LONG_UNALIGNED, at, saved);
                }
            }
        }

        @Override
        public void awaitOldest() throws TransferException {
            path.awaitOldest();
        }

        @Override
        public void close() {
            path.close();
        }
    }
}
