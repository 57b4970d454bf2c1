package dev.linkproof.transfer.verbs;

import dev.linkproof.transfer.TransferSpec;
import dev.linkproof.transfer.validate.Pattern;

/**
 * The 32-bit immediate each WRITE_WITH_IMM work request carries, and the receiving rank checks:
 * a function of the point, the batch and the work request (and the slot its data starts in), so
 * a constant, stale, reordered or corrupted immediate does not pass. Both ranks compute it from
 * the spec; nothing about it travels but the immediates themselves.
 *
 * <p>The initiator's data path takes an {@code Immediates} so that a test can hand it a faulty one
 * and prove the target's check fails; everything else uses {@link #forPoint}.
 */
@FunctionalInterface
public interface Immediates {
    /**
     * @param batch       0-based over the whole point: warmup, timed loop, then the verification pass
     * @param workRequest 0-based within the batch, queue pair by queue pair ({@link WorkPlan#firstWorkRequest})
     * @param slot        the slot the work request's data starts in
     */
    int immediate(long batch, int workRequest, int slot);

    /** The immediates of {@code spec}'s point. */
    static Immediates forPoint(TransferSpec spec) {
        long point = Pattern.mix(Pattern.pointHash(spec.pointId()) + 0x1D8E4E27C47D124FL);
        return (batch, workRequest, slot) -> {
            long z = Pattern.mix(point ^ batch);
            z = Pattern.mix(z ^ ((long) workRequest << 32) ^ (slot & 0xFFFFFFFFL));
            return (int) (z ^ (z >>> 32));
        };
    }
}
