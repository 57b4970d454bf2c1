package dev.linkproof.conformance.e2e;

import dev.linkproof.transfer.TransferException;
import dev.linkproof.transfer.TransferSpec;
import dev.linkproof.transfer.measure.MeasurementLoop;
import dev.linkproof.transfer.memory.Buffer;
import dev.linkproof.transfer.spi.InitiatorPoint;
import dev.linkproof.transfer.spi.IoSettings;
import dev.linkproof.transfer.spi.TransportDecorator;
import dev.linkproof.transfer.verbs.Immediates;
import dev.linkproof.transfer.verbs.VerbsTransport;
import java.util.Map;

/**
 * A fault-injecting decorator over verbs that leaves the data alone and corrupts an immediate: in
 * the verification pass, every WRITE_WITH_IMM work request whose data starts in slot
 * {@code fault.slot} carries its immediate with bit {@value #FLIPPED_BIT} flipped. The target is
 * plain verbs, whose receive-completion check must fail the point naming that slot and both
 * values. Registered as transport {@value #ID}.
 */
public final class VerbsImmediateFaultTransport extends TransportDecorator {
    public static final String ID = "verbs-badimm";
    public static final int FLIPPED_BIT = 16;

    public VerbsImmediateFaultTransport() {
        super(ID, new VerbsTransport());
    }

    @Override
    public InitiatorPoint open(TransferSpec spec, Buffer local, Map<String, String> endpoint, IoSettings io)
            throws TransferException {
        int faultSlot = Integer.parseInt(spec.settings().getOrDefault("fault.slot", "0"));
        long verifyBatch = MeasurementLoop.batchesPerPoint(spec) - 1; // 0-based, as Immediates counts
        Immediates right = Immediates.forPoint(spec);
        Immediates wrong = (batch, workRequest, slot) -> {
            int imm = right.immediate(batch, workRequest, slot);
            return batch == verifyBatch && slot == faultSlot ? imm ^ (1 << FLIPPED_BIT) : imm;
        };
        return ((VerbsTransport) delegate).open(spec, local, endpoint, io, wrong);
    }
}
