package dev.linkproof.fleet.blame;

import java.util.Arrays;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * The fleet as its own reference, in ClusterKit's spirit: per point, the median bandwidth and the
 * lowest latency over the first round's measured pairs, and whether a pair is an outlier against
 * them. A fleet of identical nodes needs no per-SKU number to see the one that lags.
 */
public final class FleetRelative {
    private final Thresholds thresholds;
    private final Map<Point, PointStats> stats;

    private FleetRelative(Thresholds thresholds, Map<Point, PointStats> stats) {
        this.thresholds = thresholds;
        this.stats = stats;
    }

    /** The reference from the first round's outcomes, points in the order they first appear. */
    public static FleetRelative of(Collection<PairOutcome> firstRound, Thresholds thresholds) {
        Map<Point, Figures> byPoint = new LinkedHashMap<>();
        for (PairOutcome o : firstRound) {
            Figures f = byPoint.computeIfAbsent(o.point(), p -> new Figures());
            f.pairs++;
            if (o.hasBandwidth()) {
                f.bandwidth.add(o.bandwidthGBps());
            }
            if (o.hasLatency()) {
                f.latency.add(o.latencyUs());
            }
        }
        Map<Point, PointStats> stats = new LinkedHashMap<>();
        byPoint.forEach((p, f) -> {
            double[] bw = f.bandwidth.sorted();
            double[] lat = f.latency.sorted();
            stats.put(p, new PointStats(p, f.pairs, bw.length, median(bw), first(bw), last(bw), lat.length, first(lat), median(lat)));
        });
        return new FleetRelative(thresholds, stats);
    }

    public Thresholds thresholds() {
        return thresholds;
    }

    /** Per point, in the order the points first appeared. */
    public List<PointStats> points() {
        return List.copyOf(stats.values());
    }

    public Optional<PointStats> point(Point point) {
        return Optional.ofNullable(stats.get(point));
    }

    /**
     * Whether {@code o} is out of line with the fleet at its point: bandwidth first (the figure
     * the fleet is mostly run for), then latency. A point the first round never measured has no
     * reference, so nothing there is an outlier.
     */
    public Optional<Outlier> outlier(PairOutcome o) {
        PointStats s = stats.get(o.point());
        if (s == null) {
            return Optional.empty();
        }
        if (o.hasBandwidth() && s.measuredBandwidth() > 0) {
            double limit = thresholds.bandwidthFraction() * s.medianGBps();
            if (o.bandwidthGBps() < limit) {
                return Optional.of(new Outlier(o, Measure.BANDWIDTH, o.bandwidthGBps(), s.medianGBps(), limit));
            }
        }
        if (o.hasLatency() && s.measuredLatency() > 0) {
            double limit = thresholds.latencyMultiple() * s.lowestLatencyUs();
            if (o.latencyUs() > limit) {
                return Optional.of(new Outlier(o, Measure.LATENCY, o.latencyUs(), s.lowestLatencyUs(), limit));
            }
        }
        return Optional.empty();
    }

    private static double median(double[] sorted) {
        int n = sorted.length;
        if (n == 0) {
            return Double.NaN;
        }
        return n % 2 == 1 ? sorted[n / 2] : (sorted[n / 2 - 1] + sorted[n / 2]) / 2;
    }

    private static double first(double[] sorted) {
        return sorted.length == 0 ? Double.NaN : sorted[0];
    }

    private static double last(double[] sorted) {
        return sorted.length == 0 ? Double.NaN : sorted[sorted.length - 1];
    }

    /** One point's figures while they are gathered. */
    private static final class Figures {
        int pairs;
        final Doubles bandwidth = new Doubles();
        final Doubles latency = new Doubles();
    }

    /** A growing array of doubles: a million boxed Doubles per point would cost five times the memory. */
    private static final class Doubles {
        private double[] values = new double[16];
        private int size;

        void add(double v) {
            if (size == values.length) {
                values = Arrays.copyOf(values, size * 2);
            }
            values[size++] = v;
        }

        double[] sorted() {
            double[] s = Arrays.copyOf(values, size);
            Arrays.sort(s);
            return s;
        }
    }
}
