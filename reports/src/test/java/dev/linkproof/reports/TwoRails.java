package dev.linkproof.reports;

import dev.linkproof.transfer.TransferSpec;
import dev.linkproof.transfer.measure.LatencyStats;
import dev.linkproof.transfer.measure.Measurement;
import dev.linkproof.transfer.measure.RailResult;
import dev.linkproof.transfer.validate.Mismatch;
import dev.linkproof.transfer.validate.Validation;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * A point of two verbs rails with figures that are easy to check by hand: rail 0 on rxe0 moves
 * 1 GB in 100 ms from t0 (10 GB/s, 50 µs), rail 1 on rxe9 moves 0.5 GB in 100 ms from t0 + 2 ms
 * (5 GB/s, 100 µs), so the aggregate is 1.5 GB over 102 ms (14.7 GB/s) and rail 1 is the slowest.
 */
public final class TwoRails {
    /** An arbitrary {@link System#nanoTime()} reading: only offsets from it may reach a report. */
    public static final long T0 = 7_000_000_000L;

    public static final Validation VALID = new Validation(1, 4096, 0, Optional.empty());
    public static final Validation CORRUPT = new Validation(1, 4096, 1, Optional.of(new Mismatch(0, 7, 1, 2)));

    private TwoRails() {}

    public static TransferSpec spec(String pointId, String device) {
        return TransferSpec.builder()
                .pointId(pointId)
                .transport("verbs")
                .size(4096)
                .iterations(10)
                .warmup(1)
                .settings(device == null ? Map.of() : Map.of("verbs.device", device))
                .build();
    }

    /** Both rails valid. */
    public static Measurement measurement(String pointId) {
        return measurement(pointId, VALID);
    }

    /** Rail 1 (rxe9) with {@code rail1} as its validation. */
    public static Measurement measurement(String pointId, Validation rail1) {
        return Measurement.ofRails(
                spec(pointId, null),
                List.of(
                        rail(pointId, 0, "rxe0", 1_000_000_000L, 50_000, VALID, T0, T0 + 100_000_000L),
                        rail(pointId, 1, "rxe9", 500_000_000L, 100_000, rail1, T0 + 2_000_000L, T0 + 102_000_000L)));
    }

    public static RailResult rail(
            String pointId,
            int index,
            String device,
            long bytes,
            double avgLatencyNanos,
            Validation v,
            long start,
            long end) {
        long nanos = end - start;
        Measurement m = new Measurement(
                spec(pointId, device),
                bytes,
                nanos,
                bytes / (double) nanos,
                LatencyStats.averageOnly(avgLatencyNanos),
                v,
                Map.of("host", "h"),
                List.of());
        return new RailResult(index, device, m, start, end);
    }
}
