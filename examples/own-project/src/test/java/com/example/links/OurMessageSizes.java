package com.example.links;

import static dev.linkproof.engine.api.LinkproofAssertions.assertThat;

import dev.linkproof.engine.api.Sweep;
import dev.linkproof.engine.api.TransferTest;
import dev.linkproof.transfer.Mode;
import dev.linkproof.transfer.Op;
import dev.linkproof.transfer.measure.Measurement;
import java.time.Duration;

/**
 * Our own checks, beside Linkproof's suite: the message sizes our service sends (an Ethernet frame,
 * a jumbo frame, a 64 KiB block), written and read back in batches of 1 and 8, each point
 * validated byte for byte and judged by the hardware profile the engine picks for this host.
 */
class OurMessageSizes {
    @TransferTest(
            op = {Op.WRITE, Op.READ},
            sizes = @Sweep(values = {"1500", "9000", "64KiB"}),
            batch = {1, 8})
    void arriveIntact(Measurement m) {
        assertThat(m)
                .isValid()
                .movedBytes(m.spec().size() * m.spec().batch() * m.spec().iterations());
    }

    /** A service-level bound of our own, on top of the profile's criteria. */
    @TransferTest(op = Op.WRITE, sizes = @Sweep(values = "1500"), mode = Mode.LATENCY, iterations = 500)
    void smallWritesAnswerWithinFiveMilliseconds(Measurement m) {
        assertThat(m).isValid().hasAverageLatencyAtMost(Duration.ofMillis(5));
    }
}
