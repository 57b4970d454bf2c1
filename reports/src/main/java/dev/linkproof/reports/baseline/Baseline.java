package dev.linkproof.reports.baseline;

import dev.linkproof.reports.results.PointRecord;
import dev.linkproof.reports.results.ResultsFile;
import dev.linkproof.transfer.Units;
import dev.linkproof.transfer.measure.Measurement;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;

/**
 * Previous runs' results, by point unique id. A point regresses when its bandwidth falls more than the tolerance
 * below the baseline's (bandwidth mode) or its median latency rises more than the tolerance above it (latency mode).
 * Only a measured point whose data validated is a reference ({@link PointRecord#validated()}), passed or not: one
 * short of a criterion is still what the hardware did, while a corrupt transfer measures no working data path. Over
 * several runs a point's reference is the median of its references (bandwidth and p50 latency each on its own), so
 * one lucky or unlucky run does not set the bar: on a shared 2-core VM (five runs, 2026-12-04) at 50 % tolerance
 * each run failed 1-3 points against the median of the other four, 1.8-4.2 on average against one of them alone.
 */
public final class Baseline {
    private final Path source;
    private final Map<String, Reference> byId = new HashMap<>();

    private Baseline(Path source, List<PointRecord> records) {
        this.source = source;
        Map<String, List<PointRecord>> validated = new HashMap<>();
        for (PointRecord r : records) {
            if (r.validated()) {
                validated.computeIfAbsent(r.uniqueId(), k -> new ArrayList<>()).add(r);
            }
        }
        validated.forEach((id, rs) -> byId.put(id, Reference.of(rs)));
    }

    /**
     * A point's reference: the median bandwidth of its validated records ({@code records} of them),
     * and the median p50 latency of those that have one ({@code p50Records}; null when none has).
     */
    private record Reference(double bandwidthGBps, int records, Double p50Us, int p50Records) {
        static Reference of(List<PointRecord> rs) {
            List<Double> p50s = rs.stream()
                    .map(PointRecord::p50Us)
                    .filter(java.util.Objects::nonNull)
                    .toList();
            return new Reference(
                    median(rs.stream().map(PointRecord::bandwidthGBps).toList()),
                    rs.size(),
                    p50s.isEmpty() ? null : median(p50s),
                    p50s.size());
        }

        private static double median(List<Double> values) {
            double[] v =
                    values.stream().mapToDouble(Double::doubleValue).sorted().toArray();
            int mid = v.length / 2;
            return v.length % 2 == 1 ? v[mid] : (v[mid - 1] + v[mid]) / 2;
        }
    }

    public static Baseline load(Path fileOrFolder) {
        return new Baseline(fileOrFolder, ResultsFile.read(fileOrFolder));
    }

    public int size() {
        return byId.size();
    }

    /** Whether the baseline has a reference for the point: a record of it that was measured and validated. */
    public boolean covers(String uniqueId) {
        return byId.containsKey(uniqueId);
    }

    /** The file or folder the baseline was read from. */
    public Path source() {
        return source;
    }

    /**
     * How the point compares with its reference, whether or not it regressed: "-3.7 % bandwidth
     * against the baseline's 5.61 GB/s" (latency mode: "+2.0 % p50 latency against …"); empty when
     * the baseline lacks the point. For the report of a point that passed, so a slow drift shows
     * before it fails.
     */
    public Optional<String> change(String uniqueId, Measurement m) {
        return compare(uniqueId, m)
                .map(c -> String.format(
                        Locale.ROOT,
                        "%+.1f %% %s against %s %s",
                        (c.now() / c.reference() - 1) * 100,
                        c.figure(),
                        c.whose(),
                        c.format(c.reference())));
    }

    /** The regression message, or empty when the point holds (or the baseline lacks it). */
    public Optional<String> regression(String uniqueId, Measurement m, double tolerance) {
        return compare(uniqueId, m)
                .filter(c -> c.latency()
                        ? c.now() > c.reference() * (1 + tolerance)
                        : c.now() < c.reference() * (1 - tolerance))
                .map(c -> String.format(
                        Locale.ROOT,
                        "performance regression: %s%s is %.1f %% %s %s %s (tolerance %.1f %%, baseline %s)",
                        c.latency() ? "p50 latency " : "",
                        c.format(c.now()),
                        Math.abs(c.now() / c.reference() - 1) * 100,
                        c.latency() ? "above" : "below",
                        c.whose(),
                        c.format(c.reference()),
                        tolerance * 100,
                        source));
    }

    /**
     * The figure a point is judged on and its reference: the p50 latency in latency mode (where both
     * sides have one), else the bandwidth; {@code records}: how many runs the reference's median is of.
     */
    private record Comparison(boolean latency, double now, double reference, int records) {
        String figure() {
            return latency ? "p50 latency" : "bandwidth";
        }

        String format(double v) {
            return latency ? Units.formatMicros(v) : Units.formatGBps(v);
        }

        /** "the baseline's" or, over several runs, "the baseline's median (of 3 runs)". */
        String whose() {
            return records == 1 ? "the baseline's" : "the baseline's median (of " + records + " runs)";
        }
    }

    private Optional<Comparison> compare(String uniqueId, Measurement m) {
        Reference base = byId.get(uniqueId);
        if (base == null) {
            return Optional.empty();
        }
        if (m.latency().hasPercentiles() && base.p50Us() != null) {
            return Optional.of(new Comparison(true, m.latency().p50Nanos() / 1e3, base.p50Us(), base.p50Records()));
        }
        return Optional.of(new Comparison(false, m.bandwidthGBps(), base.bandwidthGBps(), base.records()));
    }
}
