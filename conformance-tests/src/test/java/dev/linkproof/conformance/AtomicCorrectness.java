package dev.linkproof.conformance;

import static dev.linkproof.engine.api.LinkproofAssertions.assertThat;

import dev.linkproof.engine.api.TransferTest;
import dev.linkproof.transfer.Mode;
import dev.linkproof.transfer.Op;
import dev.linkproof.transfer.measure.Measurement;

/**
 * Remote atomics: fetch-and-add and compare-and-swap, 8 bytes on 8-byte aligned counters (the size
 * is always 8; batch is the number of counters). Every point checks every counter: its final value
 * accounts for every op, each fetch-add returned a distinct prior value, each compare-and-swap the
 * chain's previous link. Over ucx on shared memory here ({@code ucp_atomic_op_nbx}); tcp points
 * skip (no remote atomics), and the verbs points run in the Soft-RoCE suite ({@code VerbsAtomics}).
 */
class AtomicCorrectness {
    private static final String SHM = "UCX_TLS=shm";

    @TransferTest(
            transport = "ucx",
            settings = SHM,
            op = {Op.FETCH_ADD, Op.COMPARE_SWAP},
            batch = {1, 64},
            qps = {1, 4},
            pipeline = {1, 8})
    void counters(Measurement m) {
        assertThat(m).isValid();
        assertThat(m).hasOpsPerSecondAtLeast(1);
    }

    @TransferTest(
            transport = "ucx",
            settings = SHM,
            op = {Op.FETCH_ADD, Op.COMPARE_SWAP},
            mode = Mode.LATENCY,
            iterations = 2000,
            warmup = 200)
    void latency(Measurement m) {
        assertThat(m).isValid();
        assertThat(m.latency().samples()).isEqualTo(m.spec().iterations());
    }

    /** tcp has no remote atomics: its points are skipped with the reason, never failed. */
    @TransferTest(transport = "tcp", op = Op.FETCH_ADD)
    void notOnTcp() {}
}
