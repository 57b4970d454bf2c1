package dev.linkproof.reports.chart;

import dev.linkproof.reports.results.PointRecord;
import dev.linkproof.transfer.Units;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.ToLongFunction;

/**
 * What {@link BandwidthChart} draws of a sweep, before any drawing: the x axis (message size, or
 * batch, QPs or depth when the size does not vary), the lines (one per combination of the other
 * dimensions, named for it) and each line's rails.
 */
final class ChartSeries {
    private ChartSeries() {}

    /** The x axis: its label, each point's value on it, and whether that value is a size in bytes. */
    record Axis(String label, ToLongFunction<PointRecord> value, boolean bytes) {}

    /** A rail of one point of a line. */
    record RailAt(PointRecord point, PointRecord.Rail rail) {}

    /** The first of message size, batch, queue pairs and pipeline depth that varies among the points; else size. */
    static Axis chooseAxis(List<PointRecord> points) {
        List<Axis> axes = List.of(
                new Axis("message size", PointRecord::size, true),
                new Axis("batch", PointRecord::batch, false),
                new Axis("queue pairs", PointRecord::qps, false),
                new Axis("pipeline depth", PointRecord::pipeline, false));
        for (Axis a : axes) {
            if (points.stream().mapToLong(a.value()).distinct().count() > 1) {
                return a;
            }
        }
        return axes.getFirst();
    }

    /** The points by line, each line named by its {@link #seriesKey}, in the order of their first points. */
    static Map<String, List<PointRecord>> lines(List<PointRecord> points, Axis x) {
        Map<String, List<PointRecord>> series = new LinkedHashMap<>();
        for (PointRecord p : points) {
            series.computeIfAbsent(seriesKey(p, x), k -> new ArrayList<>()).add(p);
        }
        return series;
    }

    /**
     * The rails of a line's points, by rail ("rail 1 (rxe9)"), in the order of rail and then of the
     * line's points; empty when none of its points ran several rails.
     */
    static Map<String, List<RailAt>> rails(List<PointRecord> line) {
        Map<String, List<RailAt>> byRail = new HashMap<>();
        Map<String, Integer> index = new HashMap<>();
        for (PointRecord p : line) {
            for (PointRecord.Rail r : p.rails()) {
                byRail.computeIfAbsent(r.name(), k -> new ArrayList<>()).add(new RailAt(p, r));
                index.put(r.name(), r.index());
            }
        }
        Map<String, List<RailAt>> ordered = new LinkedHashMap<>();
        byRail.keySet().stream()
                .sorted(Comparator.comparingInt((String k) -> index.get(k)).thenComparing(k -> k))
                .forEach(k -> ordered.put(k, byRail.get(k)));
        return ordered;
    }

    private static String seriesKey(PointRecord p, Axis x) {
        StringBuilder k = new StringBuilder(p.op());
        if (!x.label().equals("message size")) {
            k.append(' ').append(Units.formatSize(p.size()));
        }
        if (!x.label().equals("batch")) {
            k.append(" ×").append(p.batch());
        }
        if (!x.label().equals("queue pairs")) {
            k.append(" · ").append(p.qps()).append(" QP");
        }
        if (!x.label().equals("pipeline depth") && p.pipeline() > 1) {
            k.append(" · depth ").append(p.pipeline());
        }
        if (p.device() != null) {
            k.append(" · ").append(p.device()); // linkproof.nics=each: a curve per NIC
        }
        return k.toString();
    }
}
