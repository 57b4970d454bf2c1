package dev.linkproof.transfer.atomic;

import dev.linkproof.transfer.TransferSpec;

/**
 * The initiator's buffer of an atomic point (the target's is the spec's slot layout: one 8-byte
 * counter per slot). The session writes the operands; the data path reads them when it posts and
 * writes the values that come back; the session reads those after each verification batch.
 *
 * <pre>
 * per slot s                 operand (16·s)      fetch-add: the addend; compare-swap: the chain's step
 *                            chain   (16·s + 8)  compare-swap: the value the counter holds before the next op
 * per ring r (= batch number mod pipeline depth), slot s, at 16·batch·(1 + r) + 16·s:
 *                            argument            an op's own input word (UCX's buffer: the addend, or the compare value)
 *                            result  (+ 8)       the value the op fetched (UCX's compare-swap: the swap value going out)
 * </pre>
 *
 * Operands are in memory rather than only in the data path so that both transports read them the
 * same way, and so that a fault-injecting decorator can change one op of one counter (a lost or
 * doubled atomic) without the transport's cooperation: a data path reads a counter's operand and
 * chain words once per op, when it posts it, never later. Each batch in flight has its own argument
 * and result words: UCX requires them untouched until the op completes.
 */
public record AtomicLayout(int batch, int depth) {
    public static final long WORD = 8;

    public static AtomicLayout of(TransferSpec spec) {
        return new AtomicLayout(spec.batch(), spec.pipelineDepth());
    }

    public long bytes() {
        return 16L * batch * (1 + depth);
    }

    public long operand(int slot) {
        return 16L * slot;
    }

    public long chain(int slot) {
        return 16L * slot + 8;
    }

    /** The ring position of the batch with this sequence number (0-based over the whole point). */
    public int ring(long batchNumber) {
        return (int) (batchNumber % depth);
    }

    public long argument(int ring, int slot) {
        return 16L * batch * (1 + ring) + 16L * slot;
    }

    public long result(int ring, int slot) {
        return argument(ring, slot) + 8;
    }
}
