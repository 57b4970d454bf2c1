package dev.linkproof.transfer.session;

import dev.linkproof.transfer.Ranks;
import dev.linkproof.transfer.TransferException;
import dev.linkproof.transfer.TransferSpec;
import dev.linkproof.transfer.atomic.AtomicChecks;
import dev.linkproof.transfer.atomic.AtomicLayout;
import dev.linkproof.transfer.atomic.AtomicPlan;
import dev.linkproof.transfer.control.ControlChannel;
import dev.linkproof.transfer.control.MessageType;
import dev.linkproof.transfer.control.Messages;
import dev.linkproof.transfer.measure.MeasurementLoop;
import dev.linkproof.transfer.memory.Buffer;
import dev.linkproof.transfer.spi.DataPath;
import dev.linkproof.transfer.validate.Checksums;
import dev.linkproof.transfer.validate.CompletionCheck;
import dev.linkproof.transfer.validate.Mismatch;
import dev.linkproof.transfer.validate.SlotPatterns;
import dev.linkproof.transfer.validate.Validation;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.util.Optional;

/**
 * A point's data checks, apart from running it ({@link Session}): the target's pattern before the
 * timed loop, and after it one more batch with a fresh pattern generation whose checksums, receive
 * completions or atomic counters are compared on both ranks over the session's control channel.
 */
final class PointVerification {
    private final ControlChannel control;
    private final Timeouts timeouts;

    PointVerification(ControlChannel control, Timeouts timeouts) {
        this.control = control;
        this.timeouts = timeouts;
    }

    /**
     * One more batch with a fresh pattern generation; the receiver's checksums against the owner's,
     * and, where the target receives (SEND, WRITE_WITH_IMM), what it found in its completions.
     */
    Validation verify(TransferSpec spec, Buffer local, DataPath path, boolean initiatorOwns) throws TransferException {
        long[] expected;
        long[] actual;
        CompletionCheck completions = CompletionCheck.NONE;
        if (initiatorOwns) {
            SlotPatterns.fill(local.segment(), spec, Ranks.INITIATOR, Session.VERIFY_GENERATION);
            local.pushHostView();
            expected = Checksums.ofSlots(local.segment(), spec.slots());
            MeasurementLoop.once(path);
            // The agent waits for its receive completions up to the progress deadline this session
            // sent in HELLO before it answers: wait that long on top of the control timeout, so a
            // completion that never comes is the agent's finding, not a timeout here. No reply
            // within both ran out of the control deadline: the agent had its progress wait.
            Messages.Checksums reply = control.call(
                    MessageType.CHECKSUM,
                    new Messages.Checksum(spec.pointId(), MeasurementLoop.batchesPerPoint(spec)),
                    MessageType.CHECKSUMS,
                    Messages.Checksums.class,
                    timeouts.control(),
                    timeouts.io().progressTimeout(),
                    "waiting for its receive completions");
            actual = reply.checksums();
            if (reply.completions() != null) {
                completions = reply.completions();
            }
        } else {
            expected = fillTarget(spec, Session.VERIFY_GENERATION);
            MeasurementLoop.once(path);
            local.pullHostView();
            actual = Checksums.ofSlots(local.segment(), spec.slots());
        }
        if (expected.length != spec.batch() || actual.length != spec.batch()) {
            throw new TransferException("checksum count mismatch: expected " + spec.batch() + " slots, got "
                    + expected.length + " and " + actual.length);
        }
        int bad = 0;
        int firstBad = -1;
        for (int slot = 0; slot < spec.batch(); slot++) {
            if (expected[slot] != actual[slot]) {
                bad++;
                if (firstBad < 0) {
                    firstBad = slot;
                }
            }
        }
        Optional<Mismatch> where = Optional.empty();
        if (firstBad >= 0) {
            where = initiatorOwns
                    ? locateOnTarget(spec, firstBad)
                    : SlotPatterns.locate(local.segment(), spec, firstBad, Ranks.TARGET, Session.VERIFY_GENERATION);
        }
        return new Validation(spec.batch(), spec.bytesPerIteration(), bad, where, completions);
    }

    /** Every counter's step, and the compare-and-swap chain's first compare value (the counter's start). */
    static void writeOperands(Buffer local, AtomicLayout layout, AtomicPlan plan) throws TransferException {
        MemorySegment m = local.segment();
        for (int slot = 0; slot < layout.batch(); slot++) {
            m.set(ValueLayout.JAVA_LONG_UNALIGNED, layout.operand(slot), plan.step(slot));
            m.set(ValueLayout.JAVA_LONG_UNALIGNED, layout.chain(slot), plan.start(slot));
        }
        local.pushHostView();
    }

    /**
     * An atomic point's verification: {@link AtomicPlan#VERIFY_BATCHES} more batches, stop-and-wait,
     * the values each op fetched read after it completed; then every counter's value from the target.
     * The final values account for every op of the point (warmup and timed loop included), the fetched
     * values for each verification op one by one.
     */
    Validation verifyAtomics(TransferSpec spec, Buffer local, DataPath path, AtomicLayout layout, AtomicPlan plan)
            throws TransferException {
        long[][] fetched = new long[spec.batch()][AtomicPlan.VERIFY_BATCHES];
        long before = plan.opsBeforeVerification();
        for (int v = 0; v < AtomicPlan.VERIFY_BATCHES; v++) {
            MeasurementLoop.once(path);
            local.pullHostView();
            int ring = layout.ring(before + v);
            for (int slot = 0; slot < spec.batch(); slot++) {
                fetched[slot][v] = local.segment().get(ValueLayout.JAVA_LONG_UNALIGNED, layout.result(ring, slot));
            }
        }
        Messages.Checksums reply = control.call(
                MessageType.CHECKSUM,
                new Messages.Checksum(spec.pointId(), 0),
                MessageType.CHECKSUMS,
                Messages.Checksums.class,
                timeouts.control());
        if (reply.counters() == null || reply.counters().length != spec.batch()) {
            throw new TransferException(
                    "the target agent sent " + (reply.counters() == null ? "no" : reply.counters().length)
                            + " counter values for an atomic point of " + spec.batch()
                            + " counters (an agent of an older build?)");
        }
        return Validation.ofAtomics(spec.batch(), AtomicChecks.check(plan, reply.counters(), fetched));
    }

    long[] fillTarget(TransferSpec spec, int generation) throws TransferException {
        return control.call(
                        MessageType.FILL,
                        new Messages.Fill(spec.pointId(), generation),
                        MessageType.CHECKSUMS,
                        Messages.Checksums.class,
                        timeouts.control())
                .checksums();
    }

    private Optional<Mismatch> locateOnTarget(TransferSpec spec, int slot) throws TransferException {
        Messages.Located l = control.call(
                MessageType.LOCATE,
                new Messages.Locate(spec.pointId(), slot, Ranks.INITIATOR, Session.VERIFY_GENERATION),
                MessageType.LOCATED,
                Messages.Located.class,
                timeouts.control());
        return l.offset() < 0
                ? Optional.empty()
                : Optional.of(new Mismatch(l.slot(), l.offset(), l.expected(), l.actual()));
    }
}
