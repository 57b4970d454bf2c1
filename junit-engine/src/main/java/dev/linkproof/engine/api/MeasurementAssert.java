package dev.linkproof.engine.api;

import dev.linkproof.transfer.Units;
import dev.linkproof.transfer.measure.Measurement;
import java.time.Duration;
import org.assertj.core.api.AbstractAssert;

/** AssertJ assertions on a point's {@link Measurement}; failures quote the measured figure. */
public final class MeasurementAssert extends AbstractAssert<MeasurementAssert, Measurement> {
    MeasurementAssert(Measurement actual) {
        super(actual, MeasurementAssert.class);
    }

    /** The verification pass's checksums matched on every slot. */
    public MeasurementAssert isValid() {
        isNotNull();
        if (!actual.isValid()) {
            failWithMessage("%s", actual.validation().describe());
        }
        return this;
    }

    public MeasurementAssert hasBandwidthAtLeast(double gbps) {
        isNotNull();
        if (!(actual.bandwidthGBps() >= gbps)) {
            failWithMessage(
                    "measured %s < required %s", Units.formatGBps(actual.bandwidthGBps()), Units.formatGBps(gbps));
        }
        return this;
    }

    /** Transfers (for atomic points: atomics) per second over the timed loop, at least {@code perSecond}. */
    public MeasurementAssert hasOpsPerSecondAtLeast(double perSecond) {
        isNotNull();
        if (!(actual.opsPerSecond() >= perSecond)) {
            failWithMessage(
                    "measured %s < required %s", Units.formatOps(actual.opsPerSecond()), Units.formatOps(perSecond));
        }
        return this;
    }

    public MeasurementAssert hasAverageLatencyAtMost(Duration limit) {
        isNotNull();
        if (actual.latency().average().compareTo(limit) > 0) {
            failWithMessage(
                    "measured average latency %s > allowed %s",
                    Units.formatMicros(actual.latency().averageNanos() / 1e3),
                    Units.formatMicros(limit.toNanos() / 1e3));
        }
        return this;
    }

    public MeasurementAssert movedBytes(long bytes) {
        isNotNull();
        if (actual.bytes() != bytes) {
            failWithMessage("moved %d bytes, expected %d", actual.bytes(), bytes);
        }
        return this;
    }
}
