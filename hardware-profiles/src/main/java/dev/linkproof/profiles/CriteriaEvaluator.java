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
import dev.linkproof.transfer.probe.MemoryCopyBaseline;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;

/**
 * Judges measurements against a profile's criteria ("measured vs criterion", TransferBench style).
 * Build one per run, after the profile is loaded and (if it needs it) the memory-copy baseline is
 * measured; it holds no state between calls.
 *
 * Every verdict names the criterion that gave it, in brackets after the threshold
 * ("… ≥ criterion 0.87 GB/s (bulk: 0.10 × memcpy baseline 8.74 GB/s)"), and in {@link Verdict#criterion()}.
 *
 * <ul>
 *   <li>{@link #evaluate(Measurement)}: one point. The list starts with the point's validation
 *       verdict, then one verdict per threshold of every criterion that covers the point; when none
 *       judges it, a {@link Kind#NO_CRITERION} verdict says it passes on data validation alone.</li>
 *   <li>{@link #evaluateSweep(List)}: curve rules ({@code max-drop}) over a sweep's points, one
 *       verdict per step between neighbouring sizes of points that differ only in size.</li>
 * </ul>
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
            throw new IllegalArgumentException("profile '" + profile.id() + "' has criteria relative to the memory-copy "
                    + "baseline; measure it first (EvaluationContext.forProfile)");
        }
        this.profile = profile;
        this.context = new BandwidthFloor.Context(profile.linkRateGbps().orElse(Double.NaN),
                evaluation.memcpyBaseline().map(MemoryCopyBaseline::bestGBps).orElse(Double.NaN));
    }

    public HardwareProfile profile() {
        return profile;
    }

    /**
     * The criteria that cover a point (any threshold), in profile order. Give it the spec the point ran
     * with (its settings merged with the profile's), as {@link Measurement#spec()} is: criteria scoped
     * by transport settings look at them.
     */
    public List<Criterion> criteriaFor(TransferSpec spec) {
        return profile.criteria().stream().filter(c -> c.appliesTo(spec)).toList();
    }

    public List<Verdict> evaluate(Measurement m) {
        TransferSpec spec = m.spec();
        String label = label(spec);
        List<Verdict> out = new ArrayList<>();
        out.add(new Verdict(spec.pointId(), Kind.VALIDATION, m.isValid() ? Outcome.PASS : Outcome.FAIL, "",
                Double.NaN, Double.NaN, "", label + ": " + m.validation().describe()));
        boolean judged = false;
        for (Criterion c : criteriaFor(spec)) {
            if (c.minBandwidth().isPresent()) {
                out.add(bandwidth(m, c, c.minBandwidth().get(), label));
                judged = true;
            }
            if (c.maxAverageLatency().isPresent()) {
                double measured = m.latency().averageNanos() / 1e3;
                double limit = c.maxAverageLatency().get().toNanos() / 1e3;
                out.add(latency(spec, c, Kind.MAX_AVG_LATENCY, "avg latency", measured, limit, label));
                judged = true;
            }
            if (c.maxP99Latency().isPresent()) {
                double limit = c.maxP99Latency().get().toNanos() / 1e3;
                if (m.latency().hasPercentiles()) {
                    out.add(latency(spec, c, Kind.MAX_P99_LATENCY, "p99 latency", m.latency().p99Nanos() / 1e3, limit, label));
                    judged = true;
                } else {
                    out.add(new Verdict(spec.pointId(), Kind.MAX_P99_LATENCY, Outcome.NOT_APPLICABLE, c.name(), Double.NaN,
                            limit, "µs", label + ": p99 latency is not measured in " + mode(spec.mode())
                            + " mode; criterion " + Units.formatMicros(limit) + " (" + c.name()
                            + ") judges latency-mode points only"));
                }
            }
        }
        if (!judged) {
            String text = label + ": no criterion of profile '" + profile.id() + "' judges this point; "
                    + (m.isValid() ? "it passes on data validation alone" : "judged on data validation alone, which failed");
            out.add(new Verdict(spec.pointId(), Kind.NO_CRITERION, m.isValid() ? Outcome.PASS : Outcome.FAIL, "",
                    Double.NaN, Double.NaN, "", text));
        }
        return out;
    }

    private Verdict bandwidth(Measurement m, Criterion c, BandwidthFloor floor, String label) {
        double measured = m.bandwidthGBps();
        double limit = floor.resolve(context);
        boolean pass = measured >= limit;
        String a = Units.formatGBps(measured);
        String b = Units.formatGBps(limit);
        if (a.equals(b) && measured != limit) {
            a = String.format(Locale.ROOT, "%.3f GB/s", measured);
            b = String.format(Locale.ROOT, "%.3f GB/s", limit);
        }
        String explain = floor.explain(context);
        String text = label + ": " + a + (pass ? " ≥ " : " < ") + "criterion " + b + " (" + c.name()
                + (explain.isEmpty() ? "" : ": " + explain) + ")";
        return new Verdict(m.spec().pointId(), Kind.MIN_BANDWIDTH, pass ? Outcome.PASS : Outcome.FAIL, c.name(), measured,
                limit, "GB/s", text);
    }

    private static Verdict latency(TransferSpec spec, Criterion c, Kind kind, String what, double measuredMicros,
                                   double limitMicros, String label) {
        boolean pass = measuredMicros <= limitMicros;
        String a = Units.formatMicros(measuredMicros);
        String b = Units.formatMicros(limitMicros);
        if (a.equals(b) && measuredMicros != limitMicros) {
            a = String.format(Locale.ROOT, "%.3f µs", measuredMicros);
            b = String.format(Locale.ROOT, "%.3f µs", limitMicros);
        }
        return new Verdict(spec.pointId(), kind, pass ? Outcome.PASS : Outcome.FAIL, c.name(), measuredMicros, limitMicros,
                "µs", label + ": " + what + " " + a + (pass ? " ≤ " : " > ") + "criterion " + b + " (" + c.name() + ")");
    }

    /**
     * Curve rules over a sweep. Points are grouped by everything but their size; within a group,
     * sizes are taken in ascending order (the last measurement of a size repeated counts), and every
     * step from one size to the next that a {@code max-drop} criterion covers (both sizes in its
     * range) gets a verdict.
     */
    public List<Verdict> evaluateSweep(List<Measurement> sweep) {
        Map<Shape, TreeMap<Long, Measurement>> groups = new LinkedHashMap<>();
        for (Measurement m : sweep) {
            groups.computeIfAbsent(Shape.of(m.spec()), k -> new TreeMap<>()).put(m.spec().size(), m);
        }
        List<Verdict> out = new ArrayList<>();
        for (TreeMap<Long, Measurement> g : groups.values()) {
            List<Measurement> points = List.copyOf(g.values());
            for (int i = 1; i < points.size(); i++) {
                Measurement a = points.get(i - 1);
                Measurement b = points.get(i);
                for (Criterion c : profile.criteria()) {
                    if (c.maxDropPercent().isPresent() && c.coversShape(a.spec())
                            && c.sizes().contains(a.spec().size()) && c.sizes().contains(b.spec().size())) {
                        out.add(curve(a, b, c));
                    }
                }
            }
        }
        return out;
    }

    private static Verdict curve(Measurement a, Measurement b, Criterion c) {
        double limit = c.maxDropPercent().getAsDouble();
        double from = a.bandwidthGBps();
        double to = b.bandwidthGBps();
        double drop = from > 0 ? (from - to) / from * 100 : 0;
        boolean pass = drop <= limit;
        TransferSpec s = b.spec();
        String label = s.op().label() + " " + Units.formatSize(a.spec().size()) + " → " + Units.formatSize(s.size())
                + " ×" + s.batch() + suffix(s);
        String change = drop > 0 ? String.format(Locale.ROOT, "drop %.1f%%", drop)
                : String.format(Locale.ROOT, "%+.1f%%", -drop);
        String text = label + ": " + Units.formatGBps(from) + " → " + Units.formatGBps(to) + ", " + change
                + (pass ? " within" : " >") + " criterion max drop " + BandwidthFloor.gbits(limit).replace(" Gb/s", "") + "% ("
                + c.name() + ")";
        return new Verdict(s.pointId(), Kind.CURVE, pass ? Outcome.PASS : Outcome.FAIL, c.name(), drop, limit, "%", text);
    }

    /** Whether no verdict failed. */
    public static boolean passed(List<Verdict> verdicts) {
        return verdicts.stream().noneMatch(Verdict::failed);
    }

    public static List<Verdict> failures(List<Verdict> verdicts) {
        return verdicts.stream().filter(Verdict::failed).toList();
    }

    /** "write 1 MiB ×1", "read 4 KiB ×128 · gpu→gpu · 4 QP", as verdicts begin. */
    public static String label(TransferSpec s) {
        return s.op().label() + " " + Units.formatSize(s.size()) + " ×" + s.batch() + suffix(s);
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

    /** Everything about a point but its size and id. */
    private record Shape(String transport, Op op, Mode mode, int batch, int connections, int pipelineDepth, Layout layout,
                         long offset, MemoryPlacement initiator, MemoryPlacement target, Map<String, String> settings) {
        static Shape of(TransferSpec s) {
            return new Shape(s.transport(), s.op(), s.mode(), s.batch(), s.connections(), s.pipelineDepth(), s.layout(),
                    s.offset(), s.initiatorMemory(), s.targetMemory(), s.settings());
        }
    }
}
