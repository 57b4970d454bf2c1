package dev.linkproof.engine.api;

import dev.linkproof.transfer.measure.Measurement;
import org.assertj.core.api.Assertions;

/** Entry point for assertions in transfer tests: AssertJ's, plus {@link #assertThat(Measurement)}. */
public final class LinkproofAssertions extends Assertions {
    private LinkproofAssertions() {}

    public static MeasurementAssert assertThat(Measurement measurement) {
        return new MeasurementAssert(measurement);
    }
}
