package dev.linkproof.transfer.atomic;

import dev.linkproof.transfer.TransferSpec;

/**
 * The initiator's buffer of an atomic point (the target's is one 8-byte counter per slot): per slot
 * an operand word (fetch-add's addend, compare-swap's step) and a chain word (the value the counter
 * holds before the next compare-swap); per ring position and slot an argument word (UCX's
 * {@code buffer}) and a result word, where the fetched value lands. Operands are in memory so that
 * both transports read them alike and a fault-injecting decorator can change one op of one counter
 * without the transport's help: a data path reads them once per op, when it posts it. Each batch in
 * flight has its own argument and result words: UCX requires them untouched until the op completes.
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
