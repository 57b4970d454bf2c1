package dev.linkproof.conformance;

import static dev.linkproof.engine.api.LinkproofAssertions.assertThat;

import dev.linkproof.engine.api.Sweep;
import dev.linkproof.engine.api.TransferTest;
import dev.linkproof.transfer.Layout;
import dev.linkproof.transfer.Op;
import dev.linkproof.transfer.measure.Measurement;

/** Batches of 1 to 1024 transfers per iteration, each into its own slot, every slot validated. */
class BatchSweep {
    @TransferTest(
            op = {Op.WRITE, Op.READ},
            sizes = @Sweep(values = "4KiB"),
            batch = {1, 2, 4, 8, 16, 32, 64, 128, 256, 512, 1024})
    void contiguous(Measurement m) {
        assertThat(m).isValid();
        assertThat(m.validation().slots()).isEqualTo(m.spec().batch());
    }

    /** Non-adjacent slots (guard page between them), like MORI-IO without --batch-contiguous. */
    @TransferTest(
            op = {Op.WRITE, Op.READ},
            sizes = @Sweep(values = "4KiB"),
            batch = {16, 1024},
            layout = Layout.STRIDED)
    void strided(Measurement m) {
        assertThat(m).isValid();
    }
}
