package dev.linkproof.transfer.atomic;

import dev.linkproof.transfer.Op;
import dev.linkproof.transfer.Ranks;
import dev.linkproof.transfer.TransferSpec;
import dev.linkproof.transfer.validate.Pattern;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;

/**
 * What every atomic of a point does, a pure function of the spec, so the session can check the
 * counters without being told anything by the transport (the checks: docs/writing-tests.md,
 * "Atomics"). Counter s starts at the target's pattern word for slot s and every op steps it by the
 * same odd {@code step(s)}, so after n ops it holds {@code start + n·step} (modulo 2^64, as the
 * hardware counts) whether the ops added or compared-and-swapped; the step being odd, no two op
 * counts give the same value within a point, and a lost or doubled op always shows. Ops per counter:
 * warmup + timed iterations + {@link #VERIFY_BATCHES}, one per batch.
 */
public final class AtomicPlan {
    /**
     * Verification batches after the timed loop: enough that a fetched-value set has room to be
     * wrong in more than one place, few enough to cost nothing next to the timed loop.
     */
    public static final int VERIFY_BATCHES = 8;

    private final TransferSpec spec;
    private final long hash;
    private final int generation;

    /** @param generation the pattern generation the target's counters were filled with */
    public AtomicPlan(TransferSpec spec, int generation) {
        if (!spec.op().atomic()) {
            throw new IllegalArgumentException(spec.op().label() + " is not an atomic op");
        }
        this.spec = spec;
        this.hash = Pattern.pointHash(spec.pointId());
        this.generation = generation;
    }

    public Op op() {
        return spec.op();
    }

    /** The value the target's fill leaves in counter {@code slot}: its pattern's first word, read as the host reads it. */
    public long start(int slot) {
        byte[] word = new byte[Op.ATOMIC_BYTES];
        Pattern.fill(MemorySegment.ofArray(word), 0, word.length, Pattern.seed(Ranks.TARGET, hash, slot, generation));
        return MemorySegment.ofArray(word).get(ValueLayout.JAVA_LONG_UNALIGNED, 0);
    }

    /** Odd, different per counter and per point (a counter another point's ops reached is not mistaken for this one's). */
    public long step(int slot) {
        return (Pattern.mix(hash ^ (0x5851F42D4C957F2DL * (slot + 1))) & 0xFFFF_FFFFL) | 1L;
    }

    /** The counter's value after {@code ops} ops (and the k-th compare-and-swap's compare value, k = ops). */
    public long after(int slot, long ops) {
        return start(slot) + ops * step(slot);
    }

    /** Ops every counter gets over the whole point. */
    public long opsPerCounter() {
        return (long) spec.warmup() + spec.iterations() + VERIFY_BATCHES;
    }

    /** Ops every counter gets before the verification batches. */
    public long opsBeforeVerification() {
        return (long) spec.warmup() + spec.iterations();
    }
}
