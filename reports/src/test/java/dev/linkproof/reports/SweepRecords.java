package dev.linkproof.reports;

import dev.linkproof.reports.results.PointRecord;
import dev.linkproof.transfer.Mode;
import dev.linkproof.transfer.TransferSpec;
import dev.linkproof.transfer.measure.LatencyStats;
import dev.linkproof.transfer.measure.Measurement;
import dev.linkproof.transfer.measure.Timing;
import dev.linkproof.transfer.validate.Validation;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/** Measurements of one tcp write of a given size, and the point records of a sweep "sweep" that hold them. */
final class SweepRecords {
    /** A rail's validation as a record writes it when the rail's data checked out. */
    static final String RAIL_VALID = "data valid: 1 slot(s), 4096 bytes, checksums match";

    private SweepRecords() {}

    private static TransferSpec spec(long size, Mode mode) {
        return TransferSpec.builder()
                .pointId("p" + size)
                .size(size)
                .mode(mode)
                .iterations(10)
                .warmup(1)
                .build();
    }

    /** A measurement of {@code gbps} (bandwidth mode) or with p50 {@code p50Nanos} (latency mode). */
    static Measurement m(long size, double gbps, long p50Nanos) {
        Mode mode = p50Nanos > 0 ? Mode.LATENCY : Mode.BANDWIDTH;
        TransferSpec s = spec(size, mode);
        long total = Math.round(s.bytesPerIteration() * 10 / gbps);
        LatencyStats l = p50Nanos > 0
                ? new LatencyStats(p50Nanos, 10, p50Nanos, p50Nanos, p50Nanos, p50Nanos, p50Nanos)
                : LatencyStats.averageOnly(total / 10.0);
        return Measurement.of(s, new Timing(total, 10, l), new Validation(1, size, 0, Optional.empty()), Map.of());
    }

    static PointRecord record(String id, Measurement m, String status) {
        return PointRecord.of(
                id, "sweep", "C", "m", "write " + m.spec().size(), m.spec(), m, status, null, List.of(), 1.0, 5.0);
    }

    /** {@link #m} with {@code validation} in place of a passing one. */
    static Measurement m(long size, double gbps, Validation validation) {
        Measurement ok = m(size, gbps, 0);
        return new Measurement(
                ok.spec(),
                ok.bytes(),
                ok.totalNanos(),
                ok.bandwidthGBps(),
                ok.latency(),
                validation,
                Map.of(),
                List.of());
    }
}
