package dev.linkproof.conformance;

import static dev.linkproof.engine.api.LinkproofAssertions.assertThat;

import dev.linkproof.engine.api.Sweep;
import dev.linkproof.engine.api.TransferTest;
import dev.linkproof.transfer.Layout;
import dev.linkproof.transfer.Op;
import dev.linkproof.transfer.measure.Measurement;

/** RDMA-WRITE semantics: the initiator's bytes land in the target's region, every size, every alignment. */
class WriteCorrectness {
    /** Powers of two from 1 B to 64 MiB: 27 points, each validated by checksum on the target. */
    @TransferTest(op = Op.WRITE, sizes = @Sweep(from = "1", to = "64MiB"))
    void powersOfTwo(Measurement m) {
        assertThat(m).isValid().movedBytes(m.spec().size() * m.spec().iterations());
    }

    /** Sizes that straddle word, page and MTU boundaries. */
    @TransferTest(
            op = Op.WRITE,
            sizes = @Sweep(values = {"1", "3", "4097", "1000003"}),
            batch = {1, 3})
    void oddSizes(Measurement m) {
        assertThat(m).isValid();
    }

    /** Slots that start off any word boundary, contiguous and strided. */
    @TransferTest(
            op = Op.WRITE,
            sizes = @Sweep(values = {"3", "4097", "65537"}),
            offset = {1, 7, 4095},
            batch = 4,
            layout = Layout.STRIDED)
    void unalignedOffsets(Measurement m) {
        assertThat(m).isValid();
    }
}
