package dev.linkproof.fleet.blame;

import java.util.Arrays;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * The fleet as its own reference, in ClusterKit's spirit, made robust to the faults it looks for.
 * Per point: a reference (the median over nodes of each node's median pair, so a bad node, which
 * drags down every pair it is in, moves its own median and not the fleet's), the spread of the
 * healthy pairs in ratio terms (a robust σ of the logarithm, from the pairs on the healthy side of
 * the reference), and whether a pair is an outlier against both ({@link Thresholds}). A fleet of
 * identical nodes needs no per-SKU number to see the one that lags; a noisy fleet is not blamed
 * for its noise.
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
            if (o.hasBandwidth() && o.bandwidthGBps() > 0) {
                f.bandwidth.add(o.bandwidthGBps());
                f.bandwidthOf(o.pair().initiator()).add(Math.log(o.bandwidthGBps()));
                f.bandwidthOf(o.pair().target()).add(Math.log(o.bandwidthGBps()));
            }
            if (o.hasLatency() && o.latencyUs() > 0) {
                f.latency.add(o.latencyUs());
                f.latencyOf(o.pair().initiator()).add(Math.log(o.latencyUs()));
                f.latencyOf(o.pair().target()).add(Math.log(o.latencyUs()));
            }
        }
        Map<Point, PointStats> stats = new LinkedHashMap<>();
        byPoint.forEach((p, f) -> {
            double[] bw = f.bandwidth.sorted();
            double[] lat = f.latency.sorted();
            int measured = p.judgedOn() == Measure.BANDWIDTH ? bw.length : lat.length;
            Optional<String> notJudged = Optional.empty();
            if (registeredNodes < thresholds.minNodes()) {
                notJudged = Optional.of(String.format(
                        "%d registered node%s, fewer than the %d a fleet reference needs",
                        registeredNodes, registeredNodes == 1 ? "" : "s", thresholds.minNodes()));
            } else if (measured < thresholds.minPairs()) {
                notJudged = Optional.of(String.format(
                        "%d pair%s measured, fewer than the %d a fleet reference needs",
                        measured, measured == 1 ? "" : "s", thresholds.minPairs()));
            }
            double bwRef = nodeReference(f.bandwidthByNode);
            double latRef = nodeReference(f.latencyByNode);
            stats.put(
                    p,
                    new PointStats(
                            p,
                            f.pairs,
                            bw.length,
                            Math.exp(bwRef),
                            median(bw),
                            first(bw),
                            last(bw),
                            healthySpread(bw, bwRef, true),
                            lat.length,
                            first(lat),
                            Math.exp(latRef),
                            median(lat),
                            healthySpread(lat, latRef, false),
                            notJudged));
        });
        return new FleetRelative(thresholds, stats);
    }

    /** ln of the reference: the median over nodes of each node's median ln figure; NaN without figures. */
    private static double nodeReference(Map<String, Doubles> byNode) {
        double[] medians = new double[byNode.size()];
        int i = 0;
        for (Doubles d : byNode.values()) {
            medians[i++] = median(d.sorted());
        }
        Arrays.sort(medians);
        return median(medians);
    }

    /**
     * A robust σ of ln(figure) from the pairs on the healthy side of the reference ({@code above}:
     * bandwidth, where faults only lower the figure): the median of their distances from it, over
     * 0.6745 (the median of a half-normal). 0 when fewer than two pairs are there.
     */
    private static double healthySpread(double[] sorted, double lnReference, boolean above) {
        Doubles d = new Doubles();
        for (double v : sorted) {
            double dev = Math.log(v) - lnReference;
            if (above ? dev > 0 : dev < 0) {
                d.add(Math.abs(dev));
            }
        }
        double[] dev = d.sorted();
        return dev.length < 2 ? 0 : median(dev) / 0.6745;
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
        double deviations = thresholds.maxDeviations();
        return switch (o.point().judgedOn()) {
            case BANDWIDTH -> {
                if (!o.hasBandwidth() || s.measuredBandwidth() == 0) {
                    yield Optional.empty();
                }
                double limit = thresholds.bandwidthFraction() * s.referenceGBps();
                double spread = s.referenceGBps() * Math.exp(-deviations * s.bandwidthSpread());
                yield o.bandwidthGBps() < limit && o.bandwidthGBps() < spread
                        ? Optional.of(
                                new Outlier(o, Measure.BANDWIDTH, o.bandwidthGBps(), s.referenceGBps(), limit, spread))
                        : Optional.empty();
            }
            case LATENCY -> {
                if (!o.hasLatency() || s.measuredLatency() == 0) {
                    yield Optional.empty();
                }
                double limit = thresholds.latencyMultiple() * s.lowestLatencyUs();
                double spread = s.referenceLatencyUs() * Math.exp(deviations * s.latencySpread());
                yield o.latencyUs() > limit && o.latencyUs() > spread
                        ? Optional.of(
                                new Outlier(o, Measure.LATENCY, o.latencyUs(), s.lowestLatencyUs(), limit, spread))
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

    private static double first(double[] sorted) {
        return sorted.length == 0 ? Double.NaN : sorted[0];
    }

    private static double last(double[] sorted) {
        return sorted.length == 0 ? Double.NaN : sorted[sorted.length - 1];
    }

    /** One point's figures while they are gathered, over pairs and per node (ln, for the node medians). */
    private static final class Figures {
        int pairs;
        final Doubles bandwidth = new Doubles();
        final Doubles latency = new Doubles();
        final Map<String, Doubles> bandwidthByNode = new java.util.HashMap<>();
        final Map<String, Doubles> latencyByNode = new java.util.HashMap<>();

        Doubles bandwidthOf(String node) {
            return bandwidthByNode.computeIfAbsent(node, n -> new Doubles());
        }

        Doubles latencyOf(String node) {
            return latencyByNode.computeIfAbsent(node, n -> new Doubles());
        }
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
