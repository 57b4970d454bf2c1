package dev.linkproof.fleet.blame;

import java.util.Arrays;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * The fleet as its own reference, in ClusterKit's spirit, made robust: per point, the median and
 * the median absolute deviation of the first round's bandwidths (and of its latencies, with the
 * lowest), and whether a pair is an outlier against them ({@link Thresholds}). A fleet of identical
 * nodes needs no per-SKU number to see the one that lags; a noisy fleet is not blamed for its noise.
 */
public final class FleetRelative {
    private final Thresholds thresholds;
    private final Map<Point, PointStats> stats;

    private FleetRelative(Thresholds thresholds, Map<Point, PointStats> stats) {
        this.thresholds = thresholds;
        this.stats = stats;
    }

    /**
     * The reference from the first round's outcomes (outcomes of other stages are left out), points
     * in the order they first appear.
     *
     * @param registeredNodes how many nodes registered: below {@link Thresholds#minNodes} no point is judged
     */
    public static FleetRelative of(Collection<PairOutcome> outcomes, Thresholds thresholds, int registeredNodes) {
        Map<Point, Figures> byPoint = new LinkedHashMap<>();
        for (PairOutcome o : outcomes) {
            if (o.stage() != Stage.FIRST) {
                continue;
            }
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
            int measured = p.judgedOn() == Measure.BANDWIDTH ? bw.length : lat.length;
            Optional<String> notJudged = Optional.empty();
            if (registeredNodes < thresholds.minNodes()) {
                notJudged = Optional.of(String.format("%d registered node%s, fewer than the %d a fleet reference needs", registeredNodes,
                        registeredNodes == 1 ? "" : "s", thresholds.minNodes()));
            } else if (measured < thresholds.minPairs()) {
                notJudged = Optional.of(String.format("%d pair%s measured, fewer than the %d a fleet reference needs", measured,
                        measured == 1 ? "" : "s", thresholds.minPairs()));
            }
            stats.put(p, new PointStats(p, f.pairs, bw.length, median(bw), first(bw), last(bw), mad(bw), lat.length, first(lat), median(lat),
                    mad(lat), notJudged));
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
     * Whether {@code o} is out of line with the fleet at its point, on the figure the point is
     * judged on. A point the first round never measured, or measured on too few pairs, has no
     * reference, so nothing there is an outlier.
     */
    public Optional<Outlier> outlier(PairOutcome o) {
        PointStats s = stats.get(o.point());
        if (s == null || !s.judged()) {
            return Optional.empty();
        }
        double deviations = thresholds.maxDeviations() * Thresholds.MAD_TO_SIGMA;
        return switch (o.point().judgedOn()) {
            case BANDWIDTH -> {
                if (!o.hasBandwidth() || s.measuredBandwidth() == 0) {
                    yield Optional.empty();
                }
                double limit = thresholds.bandwidthFraction() * s.medianGBps();
                double spread = s.medianGBps() - deviations * s.madGBps();
                yield o.bandwidthGBps() < limit && o.bandwidthGBps() < spread
                        ? Optional.of(new Outlier(o, Measure.BANDWIDTH, o.bandwidthGBps(), s.medianGBps(), limit, spread))
                        : Optional.empty();
            }
            case LATENCY -> {
                if (!o.hasLatency() || s.measuredLatency() == 0) {
                    yield Optional.empty();
                }
                double limit = thresholds.latencyMultiple() * s.lowestLatencyUs();
                double spread = s.medianLatencyUs() + deviations * s.madLatencyUs();
                yield o.latencyUs() > limit && o.latencyUs() > spread
                        ? Optional.of(new Outlier(o, Measure.LATENCY, o.latencyUs(), s.lowestLatencyUs(), limit, spread))
                        : Optional.empty();
            }
        };
    }

    static double median(double[] sorted) {
        int n = sorted.length;
        if (n == 0) {
            return Double.NaN;
        }
        return n % 2 == 1 ? sorted[n / 2] : (sorted[n / 2 - 1] + sorted[n / 2]) / 2;
    }

    /** The median absolute deviation from the median. */
    static double mad(double[] sorted) {
        if (sorted.length == 0) {
            return Double.NaN;
        }
        double m = median(sorted);
        double[] dev = new double[sorted.length];
        for (int i = 0; i < sorted.length; i++) {
            dev[i] = Math.abs(sorted[i] - m);
        }
        Arrays.sort(dev);
        return median(dev);
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
