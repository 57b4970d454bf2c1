package dev.linkproof.transfer.libfabric;

import dev.linkproof.transfer.SlotLayout;
import dev.linkproof.transfer.TransferSpec;

/**
 * Which transfers a libfabric batch is made of, a pure function of the spec and the endpoint count,
 * so both ranks compute it alike (the target posts a SEND point's receives by it): the batch's slots,
 * each striped over several endpoints when the batch is smaller than the endpoint count (as the ucx
 * and tcp paths do), op k on endpoint {@code k mod endpoints}. Atomics are one op per counter, never
 * striped.
 */
record BatchPlan(TransferSpec spec, int stripes, int ops, int endpoints) {
    /** The plan of {@code spec} on at most {@code connections} endpoints (the target's count). */
    static BatchPlan of(TransferSpec spec, int connections) {
        int stripes = spec.op().atomic() ? 1 : stripes(spec, connections);
        int ops = spec.batch() * stripes;
        return new BatchPlan(spec, stripes, ops, Math.min(connections, ops));
    }

    private static int stripes(TransferSpec spec, int connections) {
        return spec.batch() >= connections ? 1 : (int) Math.max(1, Math.min(spec.size(), connections / spec.batch()));
    }

    int endpoint(int op) {
        return op % endpoints;
    }

    /** The slot op {@code op} carries (a piece of). */
    int slot(int op) {
        return op / stripes;
    }

    /** Op {@code op}'s byte offset into either rank's region. */
    long offset(int op) {
        SlotLayout slots = spec.slots();
        return slots.slotOffset(op / stripes) + (op % stripes) * (spec.size() / stripes);
    }

    /** Op {@code op}'s length: its stripe's share of the slot, the last stripe taking the rest. */
    long length(int op) {
        long piece = spec.size() / stripes;
        return op % stripes == stripes - 1 ? spec.size() - (stripes - 1) * piece : piece;
    }
}
