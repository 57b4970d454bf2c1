package dev.linkproof.conformance;

import static dev.linkproof.engine.api.LinkproofAssertions.assertThat;

import dev.linkproof.engine.api.Sweep;
import dev.linkproof.engine.api.TransferTest;
import dev.linkproof.transfer.Layout;
import dev.linkproof.transfer.Op;
import dev.linkproof.transfer.measure.Measurement;

/** RDMA-READ semantics: the target's bytes arrive in the initiator's buffer, every size, every alignment. */
class ReadCorrectness {
    @TransferTest(op = Op.READ, sizes = @Sweep(from = "1", to = "64MiB"))
    void powersOfTwo(Measurement m) {
        assertThat(m).isValid().movedBytes(m.spec().size() * m.spec().iterations());
    }

    @TransferTest(
            op = Op.READ,
            sizes = @Sweep(values = {"1", "3", "4097", "1000003"}),
            batch = {1, 3})
    void oddSizes(Measurement m) {
        assertThat(m).isValid();
    }

    @TransferTest(
            op = Op.READ,
            sizes = @Sweep(values = {"3", "4097", "65537"}),
            offset = {1, 7, 4095},
            batch = 4,
            layout = Layout.STRIDED)
    void unalignedOffsets(Measurement m) {
        assertThat(m).isValid();
    }
}
