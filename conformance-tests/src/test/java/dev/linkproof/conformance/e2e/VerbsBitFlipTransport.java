package dev.linkproof.conformance.e2e;

import dev.linkproof.transfer.Op;
import dev.linkproof.transfer.TransferException;
import dev.linkproof.transfer.TransferSpec;
import dev.linkproof.transfer.measure.DataPath;
import dev.linkproof.transfer.memory.Buffer;
import dev.linkproof.transfer.spi.Availability;
import dev.linkproof.transfer.spi.InitiatorPoint;
import dev.linkproof.transfer.spi.IoSettings;
import dev.linkproof.transfer.spi.TargetContext;
import dev.linkproof.transfer.spi.TargetPoint;
import dev.linkproof.transfer.spi.Transport;
import dev.linkproof.transfer.verbs.VerbsTransport;
import java.lang.foreign.ValueLayout;
import java.util.Map;

/**
 * {@link BitFlipTransport}'s twin over real verbs: during the verification pass it flips one byte of
 * one slot — in the initiator's outgoing data before the WRITE/SEND is posted, in the arrived data
 * after a READ completes. Settings {@code fault.slot} and {@code fault.offset}; the target side is
 * plain verbs. Registered as transport {@value #ID}.
 */
public final class VerbsBitFlipTransport implements Transport {
    public static final String ID = "verbs-bitflip";
    private final VerbsTransport verbs = new VerbsTransport();

    @Override
    public String id() {
        return ID;
    }

    @Override
    public String connectionNoun() {
        return verbs.connectionNoun();
    }

    @Override
    public Availability availability() {
        return verbs.availability();
    }

    @Override
    public Availability supports(TransferSpec spec) {
        return verbs.supports(spec);
    }

    @Override
    public TargetPoint serve(TransferSpec spec, Buffer region, TargetContext context) throws TransferException {
        return verbs.serve(spec, region, context);
    }

    @Override
    public InitiatorPoint open(TransferSpec spec, Buffer local, Map<String, String> endpoint, IoSettings io)
            throws TransferException {
        InitiatorPoint inner = verbs.open(spec, local, endpoint, io);
        int slot = Integer.parseInt(spec.settings().getOrDefault("fault.slot", "0"));
        long at = spec.slots().slotOffset(slot) + Long.parseLong(spec.settings().getOrDefault("fault.offset", "0"));
        long verifyBatch = (long) spec.warmup() + spec.iterations() + 1;
        return new InitiatorPoint() {
            @Override
            public Map<String, String> endpoint() {
                return inner.endpoint();
            }

            @Override
            public DataPath start(Map<String, String> targetReply) throws TransferException {
                DataPath path = inner.start(targetReply);
                return new DataPath() {
                    private long posts;
                    private long awaits;

                    @Override
                    public void post() throws TransferException {
                        if (++posts == verifyBatch && spec.op() != Op.READ) {
                            flip();
                        }
                        path.post();
                    }

                    @Override
                    public void awaitOldest() throws TransferException {
                        path.awaitOldest();
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
                        path.close();
                    }
                };
            }

            @Override
            public void close() {
                inner.close();
            }
        };
    }
}
