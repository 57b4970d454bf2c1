package dev.linkproof.profiles;

import dev.linkproof.profiles.Verdict.Kind;
import dev.linkproof.profiles.Verdict.Outcome;
import dev.linkproof.transfer.Layout;
import dev.linkproof.transfer.MemoryKind;
import dev.linkproof.transfer.MemoryPlacement;
import dev.linkproof.transfer.Mode;
import dev.linkproof.transfer.Op;
import dev.linkproof.transfer.TransferSpec;
import dev.linkproof.transfer.Units;
import dev.linkproof.transfer.measure.Measurement;
import dev.linkproof.transfer.measure.RailResult;
import dev.linkproof.transfer.probe.MemoryCopyBaseline;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;

/**
 * Judges measurements against a profile's criteria ("measured vs criterion", TransferBench style); built once per
 * run, after the profile is loaded and any memory-copy baseline measured, and stateless between calls. Every verdict
 * names its criterion, in {@link Verdict#criterion()} and in brackets after the threshold ("… ≥ criterion 0.87 GB/s
 * (bulk: 0.10 × memcpy baseline 8.74 GB/s)"). {@link #evaluate(Measurement)} gives the point's validation verdict,
 * then one per threshold covering it, or a {@link Kind#NO_CRITERION} verdict (passed on validation alone);
 * {@link #evaluateSweep(List)} one per {@code max-drop} step between neighbouring sizes of otherwise equal points.
 * A point of several rails gets a per-pair threshold's verdict per rail ({@link Verdict#rail()}), as {@link Criterion} says.
 */
public final class CriteriaEvaluator {
    private final HardwareProfile profile;
    private final BandwidthFloor.Context context;

    /**
     * @throws IllegalArgumentException when a criterion is a fraction of the memory-copy baseline and
     *                                  {@code evaluation} carries none (see {@link EvaluationContext#forProfile})
     */
    public CriteriaEvaluator(HardwareProfile profile, EvaluationContext evaluation) {
        if (profile.needsMemoryCopyBaseline() && evaluation.memcpyBaseline().isEmpty()) {
            throw new IllegalArgumentException(
                    "profile '" + profile.id() + "' has criteria relative to the memory-copy "
                            + "baseline; measure it first (EvaluationContext.forProfile)");
        }
        this.profile = profile;
        this.context = new BandwidthFloor.Context(
                profile.linkRateGbps().orElse(Double.NaN),
                evaluation.memcpyBaseline().map(MemoryCopyBaseline::bestGBps).orElse(Double.NaN));
    }

    public HardwareProfile profile() {
        return profile;
    }

    /**
     * The criteria that cover a point of one pair (any threshold), in profile order. Give it the spec
     * the point ran with (its settings merged with the profile's), as {@link Measurement#spec()} is:
     * criteria scoped by transport settings look at them.
     */
    public List<Criterion> criteriaFor(TransferSpec spec) {
        return criteriaFor(spec, 1);
    }

    /** {@link #criteriaFor(TransferSpec)} for a point that ran {@code railCount} rails at once. */
    public List<Criterion> criteriaFor(TransferSpec spec, int railCount) {
        return profile.criteria().stream()
                .filter(c -> c.appliesTo(spec, railCount))
                .toList();
    }

    /** How many rails a measurement ran: 1 for one pair. */
    public static int railCount(Measurement m) {
        return Math.max(1, m.rails().size());
    }

    public List<Verdict> evaluate(Measurement m) {
        TransferSpec spec = m.spec();
        String label = label(m);
        int railCount = railCount(m);
        // What a per-pair threshold judges: the point itself, or each of its rails.
        List<Pair> pairs = m.rails().isEmpty()
                ? List.of(new Pair(m, Optional.empty(), ""))
                : m.rails().stream()
                        .map(r -> new Pair(r.measurement(), Optional.of(r.name()), r.name() + " "))
                        .toList();
        List<Verdict> out = new ArrayList<>();
        out.add(new Verdict(
                spec.pointId(),
                Kind.VALIDATION,
                m.isValid() ? Outcome.PASS : Outcome.FAIL,
                "",
                Double.NaN,
                Double.NaN,
                "",
                label + ": " + m.validation().describe()));
        boolean judged = false;
        BandwidthFloor.Context railsContext = context.withRails(railCount);
        for (Criterion c : criteriaFor(spec, railCount)) {
            if (c.minAggregateBandwidth().isPresent()) {
                out.add(bandwidth(
                        spec,
                        new Pair(m, Optional.empty(), "aggregate "),
                        Kind.MIN_AGGREGATE_BANDWIDTH,
                        c,
                        c.minAggregateBandwidth().get(),
                        railsContext,
                        label));
                judged = true;
            }
            if (c.minRailBalance().isPresent()) {
                out.add(balance(m, c, c.minRailBalance().getAsDouble(), label));
                judged = true;
            }
            if (c.minBandwidth().isPresent()) {
                for (Pair p : pairs) {
                    out.add(bandwidth(
                            spec, p, Kind.MIN_BANDWIDTH, c, c.minBandwidth().get(), context, label));
                }
                judged = true;
            }
            if (c.minOpsPerSecond().isPresent()) {
                double limit = c.minOpsPerSecond().getAsDouble();
                for (Pair p : pairs) {
                    double measured = p.m().opsPerSecond();
                    boolean pass = measured >= limit;
                    out.add(new Verdict(
                            spec.pointId(),
                            Kind.MIN_OPS_PER_SECOND,
                            pass ? Outcome.PASS : Outcome.FAIL,
                            c.name(),
                            measured,
                            limit,
                            "ops/s",
                            label + ": " + p.prefix() + Units.formatOps(measured) + (pass ? " ≥ " : " < ")
                                    + "criterion " + Units.formatOps(limit) + " (" + c.name() + ")",
                            p.rail()));
                }
                judged = true;
            }
            if (c.maxAverageLatency().isPresent()) {
                double limit = c.maxAverageLatency().get().toNanos() / 1e3;
                for (Pair p : pairs) {
                    double measured = p.m().latency().averageNanos() / 1e3;
                    out.add(latency(spec, p, c, Kind.MAX_AVG_LATENCY, "avg latency", measured, limit, label));
                }
                judged = true;
            }
            if (c.maxP99Latency().isPresent()) {
                double limit = c.maxP99Latency().get().toNanos() / 1e3;
                if (pairs.stream().anyMatch(p -> p.m().latency().hasPercentiles())) {
                    for (Pair p : pairs) {
                        if (p.m().latency().hasPercentiles()) {
                            out.add(latency(
                                    spec,
                                    p,
                                    c,
                                    Kind.MAX_P99_LATENCY,
                                    "p99 latency",
                                    p.m().latency().p99Nanos() / 1e3,
                                    limit,
                                    label));
                        } else {
                            out.add(new Verdict(
                                    spec.pointId(),
                                    Kind.MAX_P99_LATENCY,
                                    Outcome.NOT_APPLICABLE,
                                    c.name(),
                                    Double.NaN,
                                    limit,
                                    "µs",
                                    label + ": " + p.prefix() + "p99 latency was not measured; " + "criterion "
                                            + Units.formatMicros(limit) + " (" + c.name() + ")",
                                    p.rail()));
                        }
                    }
                    judged = true;
                } else {
                    out.add(new Verdict(
                            spec.pointId(),
                            Kind.MAX_P99_LATENCY,
                            Outcome.NOT_APPLICABLE,
                            c.name(),
                            Double.NaN,
                            limit,
                            "µs",
                            label + ": p99 latency is not measured in " + mode(spec.mode())
                                    + " mode; criterion " + Units.formatMicros(limit) + " (" + c.name()
                                    + ") judges latency-mode points only"));
                }
            }
        }
        if (!judged) {
            String text = label + ": no criterion of profile '" + profile.id() + "' judges this point; "
                    + (m.isValid()
                            ? "it passes on data validation alone"
                            : "judged on data validation alone, which failed");
            out.add(new Verdict(
                    spec.pointId(),
                    Kind.NO_CRITERION,
                    m.isValid() ? Outcome.PASS : Outcome.FAIL,
                    "",
                    Double.NaN,
                    Double.NaN,
                    "",
                    text));
        }
        return out;
    }

    /**
     * What a threshold judges: the point, or one rail of it ({@code rail} its name, {@code prefix} how
     * a verdict's text names it before the figure: "rail 3 (mlx5_3) ", "aggregate ", or nothing).
     */
    private record Pair(Measurement m, Optional<String> rail, String prefix) {}

    private static Verdict bandwidth(
            TransferSpec spec,
            Pair p,
            Kind kind,
            Criterion c,
            BandwidthFloor floor,
            BandwidthFloor.Context context,
            String label) {
        double measured = p.m().bandwidthGBps();
        double limit = floor.resolve(context);
        boolean pass = measured >= limit;
        String a = Units.formatGBps(measured);
        String b = Units.formatGBps(limit);
        if (a.equals(b) && measured != limit) {
            a = String.format(Locale.ROOT, "%.3f GB/s", measured);
            b = String.format(Locale.ROOT, "%.3f GB/s", limit);
        }
        String explain = floor.explain(context);
        String text = label + ": " + p.prefix() + a + (pass ? " ≥ " : " < ") + "criterion " + b + " (" + c.name()
                + (explain.isEmpty() ? "" : ": " + explain) + ")";
        return new Verdict(
                spec.pointId(),
                kind,
                pass ? Outcome.PASS : Outcome.FAIL,
                c.name(),
                measured,
                limit,
                "GB/s",
                text,
                p.rail());
    }

    /**
     * The slowest rail against {@code fraction} × the median rail. The median of an even number of
     * rails is the upper of the two middle ones, so it is always a rail's own figure: of two rails,
     * the faster one ("slowest ≥ 0.90 × the other").
     * Every rail below the threshold is named, slowest first.
     */
    private static Verdict balance(Measurement m, Criterion c, double fraction, String label) {
        List<RailResult> sorted = m.rails().stream()
                .sorted(Comparator.comparingDouble(
                        (RailResult r) -> r.measurement().bandwidthGBps()))
                .toList();
        double median = sorted.get(sorted.size() / 2).measurement().bandwidthGBps();
        double limit = fraction * median;
        RailResult slowest = sorted.getFirst();
        double measured = slowest.measurement().bandwidthGBps();
        String of = BandwidthFloor.formatFraction(fraction) + " × the median rail (" + Units.formatGBps(median) + ")";
        List<RailResult> lagging = sorted.stream()
                .filter(r -> r.measurement().bandwidthGBps() < limit)
                .toList();
        String text;
        if (lagging.isEmpty()) {
            text = label + ": slowest " + slowest.name() + " " + Units.formatGBps(measured) + " ≥ " + of + " ("
                    + c.name() + ")";
        } else {
            List<String> named = lagging.stream()
                    .map(r -> r.name() + " " + Units.formatGBps(r.measurement().bandwidthGBps()))
                    .toList();
            String who = named.size() == 1
                    ? named.getFirst() + " is"
                    : String.join(", ", named.subList(0, named.size() - 1)) + " and " + named.getLast() + " are";
            text = label + ": " + who + " below " + of + " (" + c.name() + ")";
        }
        return new Verdict(
                m.spec().pointId(),
                Kind.MIN_RAIL_BALANCE,
                lagging.isEmpty() ? Outcome.PASS : Outcome.FAIL,
                c.name(),
                measured,
                limit,
                "GB/s",
                text);
    }

    private static Verdict latency(
            TransferSpec spec,
            Pair p,
            Criterion c,
            Kind kind,
            String what,
            double measuredMicros,
            double limitMicros,
            String label) {
        boolean pass = measuredMicros <= limitMicros;
        String a = Units.formatMicros(measuredMicros);
        String b = Units.formatMicros(limitMicros);
        if (a.equals(b) && measuredMicros != limitMicros) {
            a = String.format(Locale.ROOT, "%.3f µs", measuredMicros);
            b = String.format(Locale.ROOT, "%.3f µs", limitMicros);
        }
        return new Verdict(
                spec.pointId(),
                kind,
                pass ? Outcome.PASS : Outcome.FAIL,
                c.name(),
                measuredMicros,
                limitMicros,
                "µs",
                label + ": " + p.prefix() + what + " " + a + (pass ? " ≤ " : " > ") + "criterion " + b + " (" + c.name()
                        + ")",
                p.rail());
    }

    /**
     * Curve rules over a sweep. Points are grouped by everything but their size (their rail count
     * included); within a group, sizes are taken in ascending order (the last measurement of a size
     * repeated counts), and every step from one size to the next that a {@code max-drop} criterion
     * covers (both sizes in its range) gets a verdict; for points of several rails, one per rail (rail i
     * of the smaller size against rail i of the larger), as a per-pair threshold judges each rail.
     */
    public List<Verdict> evaluateSweep(List<Measurement> sweep) {
        Map<Shape, TreeMap<Long, Measurement>> groups = new LinkedHashMap<>();
        for (Measurement m : sweep) {
            groups.computeIfAbsent(Shape.of(m), k -> new TreeMap<>())
                    .put(m.spec().size(), m);
        }
        List<Verdict> out = new ArrayList<>();
        for (TreeMap<Long, Measurement> g : groups.values()) {
            List<Measurement> points = List.copyOf(g.values());
            for (int i = 1; i < points.size(); i++) {
                Measurement a = points.get(i - 1);
                Measurement b = points.get(i);
                int railCount = railCount(a);
                for (Criterion c : profile.criteria()) {
                    if (c.maxDropPercent().isPresent()
                            && c.coversShape(a.spec(), railCount)
                            && c.sizes().contains(a.spec().size())
                            && c.sizes().contains(b.spec().size())) {
                        if (a.rails().isEmpty() || b.rails().isEmpty()) {
                            out.add(curve(a, b, a, b, Optional.empty(), c));
                            continue;
                        }
                        for (RailResult rb : b.rails()) {
                            a.rails().stream()
                                    .filter(ra -> ra.index() == rb.index())
                                    .findFirst()
                                    .ifPresent(ra -> out.add(curve(
                                            a, b, ra.measurement(), rb.measurement(), Optional.of(rb.name()), c)));
                        }
                    }
                }
            }
        }
        return out;
    }

    /** A step from point {@code a} to point {@code b}, judged on {@code from}'s and {@code to}'s bandwidth (the points', or one rail's). */
    private static Verdict curve(
            Measurement a, Measurement b, Measurement from, Measurement to, Optional<String> rail, Criterion c) {
        double limit = c.maxDropPercent().getAsDouble();
        double fromGBps = from.bandwidthGBps();
        double toGBps = to.bandwidthGBps();
        double drop = fromGBps > 0 ? (fromGBps - toGBps) / fromGBps * 100 : 0;
        boolean pass = drop <= limit;
        TransferSpec s = b.spec();
        String label = s.op().label() + " " + Units.formatSize(a.spec().size()) + " → " + Units.formatSize(s.size())
                + " ×" + s.batch() + suffix(s) + rails(b);
        String change = drop > 0
                ? String.format(Locale.ROOT, "drop %.1f%%", drop)
                : String.format(Locale.ROOT, "%+.1f%%", -drop);
        String text = label + ": " + rail.map(r -> r + " ").orElse("") + Units.formatGBps(fromGBps) + " → "
                + Units.formatGBps(toGBps) + ", " + change
                + (pass ? " within" : " >") + " criterion max drop "
                + BandwidthFloor.gbits(limit).replace(" Gb/s", "") + "% ("
                + c.name() + ")";
        return new Verdict(
                s.pointId(), Kind.CURVE, pass ? Outcome.PASS : Outcome.FAIL, c.name(), drop, limit, "%", text, rail);
    }

    /** Whether no verdict failed. */
    public static boolean passed(List<Verdict> verdicts) {
        return verdicts.stream().noneMatch(Verdict::failed);
    }

    public static List<Verdict> failures(List<Verdict> verdicts) {
        return verdicts.stream().filter(Verdict::failed).toList();
    }

    /** "write 1 MiB ×1", "read 4 KiB ×128 · gpu→gpu · 4 QP", as verdicts of a one-pair point begin. */
    public static String label(TransferSpec s) {
        return s.op().label() + " " + Units.formatSize(s.size()) + " ×" + s.batch() + suffix(s);
    }

    /** {@link #label(TransferSpec)}, then " · 8 rails" for a point that ran several. */
    public static String label(Measurement m) {
        return label(m.spec()) + rails(m);
    }

    private static String rails(Measurement m) {
        int n = m.rails().size();
        return n == 0 ? "" : n == 1 ? " · 1 rail" : " · " + n + " rails";
    }

    private static String suffix(TransferSpec s) {
        StringBuilder sb = new StringBuilder();
        MemoryPlacement i = s.initiatorMemory();
        MemoryPlacement t = s.targetMemory();
        if (i.kind() != MemoryKind.HOST || t.kind() != MemoryKind.HOST) {
            sb.append(" · ").append(i).append('→').append(t);
        }
        if (s.connections() > 1) {
            sb.append(" · ").append(s.connections()).append(" QP");
        }
        return sb.toString();
    }

    private static String mode(Mode m) {
        return m.name().toLowerCase(Locale.ROOT);
    }

    /** Everything about a point but its size and id: its rail count too (no curve from 1 rail to 8). */
    private record Shape(
            String transport,
            Op op,
            Mode mode,
            int batch,
            int connections,
            int pipelineDepth,
            Layout layout,
            long offset,
            MemoryPlacement initiator,
            MemoryPlacement target,
            Map<String, String> settings,
            int rails) {
        static Shape of(Measurement m) {
            TransferSpec s = m.spec();
            return new Shape(
                    s.transport(),
                    s.op(),
                    s.mode(),
                    s.batch(),
                    s.connections(),
                    s.pipelineDepth(),
                    s.layout(),
                    s.offset(),
                    s.initiatorMemory(),
                    s.targetMemory(),
                    s.settings(),
                    m.rails().size());
        }
    }
}
