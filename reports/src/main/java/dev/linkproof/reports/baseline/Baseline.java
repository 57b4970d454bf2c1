package dev.linkproof.reports.baseline;

import dev.linkproof.reports.results.PointRecord;
import dev.linkproof.reports.results.ResultsFile;
import dev.linkproof.transfer.Measurement;
import dev.linkproof.transfer.Units;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;

/**
 * A previous run's results, by point unique id. A point regresses when its bandwidth falls more
 * than the tolerance below the baseline's (bandwidth mode) or its median latency rises more than
 * the tolerance above it (latency mode).
 *
 * <p>Only a record of a point that was measured and whose data validated serves as the reference
 * ({@link PointRecord#validated()}), whether it passed or failed on performance: a point that fell
 * short of a criterion is still what the hardware did (and the criterion judges the new run on its
 * own), while the figures of a corrupt transfer (bad checksums, wrong receive completions) measure no
 * working data path. Records are taken in the order {@link ResultsFile#read} gives them (a folder's
 * files by name), so a later reference of a point replaces an earlier one; a later record that
 * cannot serve (corrupt, skipped, broken before measuring) leaves the earlier one in place.
 */
public final class Baseline {
    private final Path source;
    private final Map<String, PointRecord> byId = new HashMap<>();

    private Baseline(Path source, List<PointRecord> records) {
        this.source = source;
        for (PointRecord r : records) {
            if (r.validated()) {
                byId.put(r.uniqueId(), r);
            }
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

    /** The regression message, or empty when the point holds (or the baseline lacks it). */
    public Optional<String> regression(String uniqueId, Measurement m, double tolerance) {
        PointRecord base = byId.get(uniqueId);
        if (base == null) {
            return Optional.empty();
        }
        if (m.latency().hasPercentiles() && base.p50Us() != null) {
            double now = m.latency().p50Nanos() / 1e3;
            double limit = base.p50Us() * (1 + tolerance);
            if (now > limit) {
                return Optional.of(String.format(Locale.ROOT,
                        "performance regression: p50 latency %s is %.1f %% above the baseline's %s (tolerance %.1f %%, baseline %s)",
                        Units.formatMicros(now), (now / base.p50Us() - 1) * 100, Units.formatMicros(base.p50Us()),
                        tolerance * 100, source));
            }
            return Optional.empty();
        }
        double now = m.bandwidthGBps();
        double floor = base.bandwidthGBps() * (1 - tolerance);
        if (now < floor) {
            return Optional.of(String.format(Locale.ROOT,
                    "performance regression: %s is %.1f %% below the baseline's %s (tolerance %.1f %%, baseline %s)",
                    Units.formatGBps(now), (1 - now / base.bandwidthGBps()) * 100, Units.formatGBps(base.bandwidthGBps()),
                    tolerance * 100, source));
        }
        return Optional.empty();
    }
}
