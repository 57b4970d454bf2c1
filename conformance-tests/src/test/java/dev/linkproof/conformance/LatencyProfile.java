package dev.linkproof.conformance;

import static dev.linkproof.engine.api.LinkproofAssertions.assertThat;

import dev.linkproof.engine.api.Sweep;
import dev.linkproof.engine.api.TransferTest;
import dev.linkproof.transfer.Mode;
import dev.linkproof.transfer.Op;
import dev.linkproof.transfer.measure.Measurement;

/** Stop-and-wait latency with per-iteration samples, perftest style (ib_write_lat / ib_read_lat). */
class LatencyProfile {
    @TransferTest(
            op = {Op.WRITE, Op.READ},
            sizes = @Sweep(values = {"8", "4KiB", "64KiB"}),
            mode = Mode.LATENCY,
            iterations = 2000,
            warmup = 200)
    void percentiles(Measurement m) {
        assertThat(m).isValid();
        var l = m.latency();
        assertThat(l.samples()).isEqualTo(m.spec().iterations());
        assertThat(l.minNanos()).isPositive();
        assertThat(l.p50()).isLessThanOrEqualTo(l.p99());
        assertThat(l.p99()).isLessThanOrEqualTo(l.p999());
        assertThat(l.p999()).isLessThanOrEqualTo(l.max());
    }
}
