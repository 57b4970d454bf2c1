package dev.linkproof.engine.api;

import static dev.linkproof.engine.api.LinkproofAssertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatCode;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.linkproof.transfer.TransferSpec;
import dev.linkproof.transfer.measure.LatencyStats;
import dev.linkproof.transfer.measure.Measurement;
import dev.linkproof.transfer.measure.Timing;
import dev.linkproof.transfer.validate.Mismatch;
import dev.linkproof.transfer.validate.Validation;
import java.time.Duration;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;

class MeasurementAssertTest {
    private static final TransferSpec SPEC =
            TransferSpec.builder().size(1000).batch(2).iterations(10).build();

    /** 20 000 bytes in 10 µs = 2 GB/s; 500 ns per transfer. */
    private static Measurement measurement(Validation v) {
        return Measurement.of(SPEC, new Timing(10_000, 10, LatencyStats.averageOnly(500)), v, Map.of());
    }

    private static final Measurement GOOD = measurement(new Validation(2, 2000, 0, Optional.empty()));
    private static final Measurement CORRUPT =
            measurement(new Validation(2, 2000, 1, Optional.of(new Mismatch(1, 42, 0x12, 0x34))));

    @Test
    void passingAssertionsChain() {
        assertThatCode(() -> assertThat(GOOD)
                        .isValid()
                        .hasBandwidthAtLeast(2.0)
                        .hasAverageLatencyAtMost(Duration.ofNanos(500))
                        .movedBytes(20_000))
                .doesNotThrowAnyException();
    }

    @Test
    void invalidDataQuotesSlotAndOffset() {
        assertThatThrownBy(() -> assertThat(CORRUPT).isValid())
                .isInstanceOf(AssertionError.class)
                .hasMessage(
                        "data corruption: 1 of 2 slot(s) differ; first at slot 1, byte offset 42: expected 0x12, found"
                                + " 0x34");
    }

    @Test
    void bandwidthBelowTheBarQuotesBoth() {
        assertThatThrownBy(() -> assertThat(GOOD).hasBandwidthAtLeast(45.0))
                .hasMessage("measured 2.00 GB/s < required 45.0 GB/s");
    }

    @Test
    void latencyAboveTheBarQuotesBoth() {
        assertThatThrownBy(() -> assertThat(GOOD).hasAverageLatencyAtMost(Duration.ofNanos(100)))
                .hasMessage("measured average latency 0.50 µs > allowed 0.10 µs");
    }

    @Test
    void movedBytesQuotesBoth() {
        assertThatThrownBy(() -> assertThat(GOOD).movedBytes(1)).hasMessage("moved 20000 bytes, expected 1");
    }

    @Test
    void nullMeasurementFails() {
        assertThatThrownBy(() -> assertThat((Measurement) null).isValid()).isInstanceOf(AssertionError.class);
    }
}
