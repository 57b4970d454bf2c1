package dev.linkproof.conformance;

import static dev.linkproof.engine.api.LinkproofAssertions.assertThat;

import dev.linkproof.engine.api.Sweep;
import dev.linkproof.engine.api.TransferTest;
import dev.linkproof.transfer.Op;
import dev.linkproof.transfer.measure.Measurement;

/**
 * Several connections per pair, the tcp analogue of queue pairs: batches spread over them, single
 * transfers striped across them, with and without pipelining.
 */
class MultiConnection {
    @TransferTest(
            op = {Op.WRITE, Op.READ},
            sizes = @Sweep(values = {"64KiB", "1MiB"}),
            qps = {2, 4, 8},
            batch = {1, 16})
    void spreadAndStriped(Measurement m) {
        assertThat(m).isValid();
    }

    @TransferTest(
            op = {Op.WRITE, Op.READ},
            sizes = @Sweep(values = {"64KiB", "1MiB"}),
            qps = {1, 4},
            pipeline = {4, 16})
    void pipelined(Measurement m) {
        assertThat(m).isValid();
    }

    /** A transfer smaller than the connection count: every byte still lands exactly once. */
    @TransferTest(
            op = {Op.WRITE, Op.READ},
            sizes = @Sweep(values = {"1", "3", "7"}),
            qps = 8)
    void fewerBytesThanConnections(Measurement m) {
        assertThat(m).isValid();
    }
}
