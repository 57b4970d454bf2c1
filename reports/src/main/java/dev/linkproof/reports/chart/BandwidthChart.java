package dev.linkproof.reports.chart;

import dev.linkproof.reports.chart.ChartSeries.Axis;
import dev.linkproof.reports.chart.ChartSeries.RailAt;
import dev.linkproof.reports.results.PointRecord;
import dev.linkproof.transfer.Units;
import dev.linkproof.transfer.validate.Validation;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.OptionalDouble;

/**
 * An SVG chart of one sweep: bandwidth against message size on a log-2 axis (or batch, QPs or depth when the size
 * does not vary), one line per combination of the other dimensions, criterion and link rate dashed, failed points a
 * red cross; a line of rails points is their aggregate, with a thinner dashed line per rail, so a lagging rail shows
 * as the curve that falls away. A small writer rather than a charting library: the chart is a few dozen elements,
 * and writing them keeps the axis as perftest users read it (powers of two). Which axis, lines and rails are
 * {@link ChartSeries}'s choice; this class draws them.
 */
public final class BandwidthChart {
    private static final int W = 760;
    private static final int H = 420;
    private static final int LEFT = 70;
    private static final int RIGHT = 190;
    private static final int TOP = 40;
    private static final int BOTTOM = 60;
    /** A generous width of a character of the legend (12 px sans-serif), to size the picture to its longest entry. */
    private static final double CHAR_WIDTH = 7.0;

    private static final String[] COLORS = {
        "#1f77b4", "#2ca02c", "#9467bd", "#ff7f0e", "#17becf", "#8c564b", "#e377c2", "#7f7f7f"
    };

    private BandwidthChart() {}

    /**
     * The largest message size of a sweep that gets a message-rate chart beside its bandwidth chart
     * ({@link #wantsRateChart}): 4 KiB. Up to there a NIC is held back by how many messages it
     * handles a second, not by its link: at 400 Gb/s, 4 KiB at line rate is 12 M messages a second,
     * 64 B would be 780 M, beyond any NIC's published message rate; so at these sizes the bandwidth
     * curve is the message rate times the size, and the rate is the figure vendors publish and
     * perftest prints (MsgRate[Mpps]).
     */
    public static final long SMALL_MESSAGE_BYTES = 4096;

    /**
     * A sweep whose measured points are all atomic is drawn in millions of operations per second,
     * their figure; bandwidth criteria and link rate (GB/s) do not apply to it and are not drawn.
     */
    private static boolean opsSweep(List<PointRecord> points) {
        return points.stream().anyMatch(p -> p.atomic() && p.bandwidthGBps() != null)
                && points.stream().allMatch(p -> p.atomic() || p.bandwidthGBps() == null);
    }

    /**
     * Whether a sweep gets a second chart, its message rate ({@link #rateSvg}), beside the bandwidth
     * chart: when it measured some point and every point of it moves bytes (not an atomic sweep,
     * whose one chart is already its rate) of at most {@link #SMALL_MESSAGE_BYTES}. A sweep that also
     * reaches larger sizes keeps its bandwidth chart alone (every point's rate is in the results and
     * the CSV).
     */
    public static boolean wantsRateChart(List<PointRecord> points) {
        return !opsSweep(points)
                && points.stream().anyMatch(p -> p.bandwidthGBps() != null)
                && points.stream().allMatch(p -> !p.atomic() && p.size() <= SMALL_MESSAGE_BYTES);
    }

    /** The sweep's bandwidth chart, or for a sweep of atomics its operations per second. */
    public static String svg(String title, List<PointRecord> all) {
        if (opsSweep(all)) {
            return rateSvg(title, all);
        }
        return draw(title, all, "bandwidth (GB/s, 10⁹ B/s)", "GB/s");
    }

    /**
     * The sweep drawn in millions of operations (messages) per second: the same drawing, each record
     * seen with its rate in its bandwidth's place, each rail's too. No criterion or link line: they are
     * bandwidths. The rate is the record's {@code opsPerSecond}, or (a record written before every op
     * had one) its bandwidth over its size, which is the same figure.
     */
    public static String rateSvg(String title, List<PointRecord> all) {
        List<PointRecord> asOps = all.stream()
                .map(p -> p.withFigure(
                        mops(p, p.opsPerSecond(), p.bandwidthGBps()),
                        p.rails().stream()
                                .map(r -> new PointRecord.Rail(
                                        r.index(),
                                        r.label(),
                                        mops(p, null, r.bandwidthGBps()),
                                        r.avgLatencyUs(),
                                        r.bytes(),
                                        r.startMs(),
                                        r.durationMs(),
                                        r.validation(),
                                        r.memory(),
                                        r.device()))
                                .toList()))
                .toList();
        return draw(title, asOps, "message rate (Mops/s, 10⁶ ops/s)", "Mops/s");
    }

    /** Millions of operations a second: {@code opsPerSecond} / 10⁶, else GB/s × 10⁹ / size / 10⁶; null when neither. */
    private static Double mops(PointRecord p, Double opsPerSecond, Double gbps) {
        if (opsPerSecond != null) {
            return opsPerSecond / 1e6;
        }
        return gbps == null ? null : gbps * 1e3 / p.size();
    }

    private static String draw(String title, List<PointRecord> all, String yLabel, String unit) {
        List<PointRecord> points = all.stream()
                .filter(p -> p.bandwidthGBps() != null || p.failed())
                .toList();
        Axis x = ChartSeries.chooseAxis(points);
        long minX = points.stream().mapToLong(x.value()).min().orElse(1);
        long maxX = points.stream().mapToLong(x.value()).max().orElse(1);
        double lo = log2(Math.max(1, minX));
        double hi = Math.max(lo + 1, log2(Math.max(1, maxX)));
        OptionalDouble criterion = points.stream()
                .filter(p -> p.criterionGBps() != null)
                .mapToDouble(PointRecord::criterionGBps)
                .max();
        OptionalDouble link = points.stream()
                .filter(p -> p.linkGBps() != null)
                .mapToDouble(PointRecord::linkGBps)
                .max();
        double top = points.stream()
                .filter(p -> p.bandwidthGBps() != null)
                .mapToDouble(PointRecord::bandwidthGBps)
                .max()
                .orElse(0);
        // A rail can outrun the aggregate when the rails barely overlapped (the aggregate spans them all).
        top = Math.max(
                top,
                points.stream()
                        .flatMap(p -> p.rails().stream())
                        .mapToDouble(PointRecord.Rail::bandwidthGBps)
                        .max()
                        .orElse(0));
        top = Math.max(top, Math.max(criterion.orElse(0), link.orElse(0)));
        double yMax = niceCeiling(top * 1.1);

        Map<String, List<PointRecord>> series = ChartSeries.lines(points, x);
        // Eight rails make nine legend entries a line, and a line's name grows by " · aggregate": the
        // picture grows downwards and to the right to hold its legend, the plot stays as it is.
        List<String> legendTexts = new ArrayList<>();
        link.ifPresent(v -> legendTexts.add("link rate " + trim(v) + " GB/s"));
        criterion.ifPresent(v -> legendTexts.add("criterion " + trim(v) + " GB/s"));
        for (var e : series.entrySet()) {
            Map<String, List<RailAt>> rails = ChartSeries.rails(e.getValue());
            legendTexts.add(rails.isEmpty() ? e.getKey() : e.getKey() + " · aggregate");
            legendTexts.addAll(rails.keySet());
        }
        if (points.stream().anyMatch(PointRecord::failed)) {
            legendTexts.add("failed point");
        }
        int height = Math.max(H, TOP + 10 + 18 * legendTexts.size());
        int longest = legendTexts.stream().mapToInt(String::length).max().orElse(0);
        int width = Math.max(W, W - RIGHT + 32 + (int) Math.ceil(longest * CHAR_WIDTH) + 8);

        StringBuilder s = new StringBuilder();
        s.append(String.format(
                Locale.ROOT,
                "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%d\" height=\"%d\" viewBox=\"0 0 %d %d\" "
                        + "font-family=\"sans-serif\" font-size=\"12\">%n",
                width,
                height,
                width,
                height));
        s.append("<rect width=\"100%\" height=\"100%\" fill=\"white\"/>\n");
        s.append(String.format(
                Locale.ROOT,
                "<text x=\"%d\" y=\"22\" font-size=\"15\" font-weight=\"bold\">%s</text>%n",
                LEFT,
                esc(title)));
        int plotW = W - LEFT - RIGHT;
        int plotH = H - TOP - BOTTOM;
        // grid and axes
        for (int i = 0; i <= 5; i++) {
            double v = yMax * i / 5;
            double y = TOP + plotH - plotH * i / 5.0;
            s.append(String.format(
                    Locale.ROOT,
                    "<line x1=\"%d\" y1=\"%.1f\" x2=\"%d\" y2=\"%.1f\" stroke=\"#e0e0e0\"/>%n",
                    LEFT,
                    y,
                    LEFT + plotW,
                    y));
            s.append(String.format(
                    Locale.ROOT,
                    "<text x=\"%d\" y=\"%.1f\" text-anchor=\"end\">%s</text>%n",
                    LEFT - 6,
                    y + 4,
                    trim(v)));
        }
        int firstTick = (int) Math.floor(lo);
        int lastTick = (int) Math.ceil(hi);
        int stepTick = Math.max(1, (lastTick - firstTick) / 12 + 1);
        for (int e = firstTick; e <= lastTick; e += stepTick) {
            double px = xPos(e, lo, hi, plotW);
            s.append(String.format(
                    Locale.ROOT,
                    "<line x1=\"%.1f\" y1=\"%d\" x2=\"%.1f\" y2=\"%d\" stroke=\"#e0e0e0\"/>%n",
                    px,
                    TOP,
                    px,
                    TOP + plotH));
            String label = x.bytes() ? Units.formatSize(1L << e).replace(" ", "") : Long.toString(1L << e);
            s.append(String.format(
                    Locale.ROOT,
                    "<text x=\"%.1f\" y=\"%d\" text-anchor=\"middle\">%s</text>%n",
                    px,
                    TOP + plotH + 18,
                    esc(label)));
        }
        s.append(String.format(
                Locale.ROOT,
                "<rect x=\"%d\" y=\"%d\" width=\"%d\" height=\"%d\" fill=\"none\" stroke=\"#333\"/>%n",
                LEFT,
                TOP,
                plotW,
                plotH));
        s.append(String.format(
                Locale.ROOT,
                "<text x=\"%d\" y=\"%d\" text-anchor=\"middle\">%s (log₂)</text>%n",
                LEFT + plotW / 2,
                H - 18,
                esc(x.label())));
        s.append(String.format(
                Locale.ROOT,
                "<text x=\"18\" y=\"%d\" transform=\"rotate(-90 18 %d)\" text-anchor=\"middle\">%s</text>%n",
                TOP + plotH / 2,
                TOP + plotH / 2,
                esc(yLabel)));

        int legendY = TOP + 10;
        if (link.isPresent()) {
            double y = yPos(link.getAsDouble(), yMax, plotH);
            s.append(String.format(
                    Locale.ROOT,
                    "<line class=\"link-rate\" x1=\"%d\" y1=\"%.1f\" x2=\"%d\" y2=\"%.1f\" stroke=\"#555\""
                            + " stroke-dasharray=\"2,3\"/>%n",
                    LEFT,
                    y,
                    LEFT + plotW,
                    y));
            legendY = legend(s, legendY, "#555", "2,3", "link rate " + trim(link.getAsDouble()) + " GB/s");
        }
        if (criterion.isPresent()) {
            double y = yPos(criterion.getAsDouble(), yMax, plotH);
            s.append(String.format(
                    Locale.ROOT,
                    "<line class=\"criterion\" x1=\"%d\" y1=\"%.1f\" x2=\"%d\" y2=\"%.1f\" stroke=\"#d62728\""
                            + " stroke-dasharray=\"6,4\"/>%n",
                    LEFT,
                    y,
                    LEFT + plotW,
                    y));
            legendY = legend(s, legendY, "#d62728", "6,4", "criterion " + trim(criterion.getAsDouble()) + " GB/s");
        }

        int c = 0;
        for (var entry : series.entrySet()) {
            String color = COLORS[c++ % COLORS.length];
            List<PointRecord> line = new ArrayList<>(entry.getValue());
            line.sort(Comparator.comparingLong(x.value()));
            StringBuilder poly = new StringBuilder();
            for (PointRecord p : line) {
                if (p.bandwidthGBps() != null) {
                    poly.append(String.format(
                            Locale.ROOT,
                            "%.1f,%.1f ",
                            xPos(log2(x.value().applyAsLong(p)), lo, hi, plotW),
                            yPos(p.bandwidthGBps(), yMax, plotH)));
                }
            }
            s.append(String.format(
                    "<polyline class=\"series\" points=\"%s\" fill=\"none\" stroke=\"%s\" stroke-width=\"2\"/>%n",
                    poly.toString().trim(), color));
            for (PointRecord p : line) {
                double px = xPos(log2(x.value().applyAsLong(p)), lo, hi, plotW);
                double py = p.bandwidthGBps() == null ? TOP + plotH : yPos(p.bandwidthGBps(), yMax, plotH);
                String tip = esc(p.name() + ": "
                        + (p.bandwidthGBps() == null ? "no measurement" : trim(p.bandwidthGBps()) + " " + unit) + " ("
                        + p.status() + ")");
                if (p.failed()) {
                    s.append(String.format(
                            Locale.ROOT,
                            "<g class=\"failed\"><title>%s</title><path d=\"M%.1f %.1fl8 8m0 -8l-8 8\" "
                                    + "stroke=\"#d62728\" stroke-width=\"2.5\" transform=\"translate(-4 -4)\"/></g>%n",
                            tip,
                            px,
                            py));
                } else {
                    s.append(String.format(
                            Locale.ROOT,
                            "<circle class=\"point\" cx=\"%.1f\" cy=\"%.1f\" r=\"3.5\""
                                    + " fill=\"%s\"><title>%s</title></circle>%n",
                            px,
                            py,
                            color,
                            tip));
                }
            }
            Map<String, List<RailAt>> rails = ChartSeries.rails(line);
            legendY =
                    legend(s, legendY, color, null, rails.isEmpty() ? entry.getKey() : entry.getKey() + " · aggregate");
            for (var rail : rails.entrySet()) {
                String railColor = COLORS[c++ % COLORS.length];
                StringBuilder railPoly = new StringBuilder();
                for (RailAt r : rail.getValue()) {
                    railPoly.append(String.format(
                            Locale.ROOT,
                            "%.1f,%.1f ",
                            xPos(log2(x.value().applyAsLong(r.point())), lo, hi, plotW),
                            yPos(r.rail().bandwidthGBps(), yMax, plotH)));
                }
                s.append(String.format(
                        "<polyline class=\"rail\" points=\"%s\" fill=\"none\" stroke=\"%s\" stroke-width=\"1.5\" "
                                + "stroke-dasharray=\"5,3\"/>%n",
                        railPoly.toString().trim(), railColor));
                for (RailAt r : rail.getValue()) {
                    double px = xPos(log2(x.value().applyAsLong(r.point())), lo, hi, plotW);
                    double py = yPos(r.rail().bandwidthGBps(), yMax, plotH);
                    String tip = esc(r.point().name() + ": " + r.rail().name() + " "
                            + trim(r.rail().bandwidthGBps()) + " " + unit + ", "
                            + String.format(
                                    Locale.ROOT,
                                    "%.1f–%.1f ms",
                                    r.rail().startMs(),
                                    r.rail().startMs() + r.rail().durationMs())
                            + " (" + r.rail().validation() + ")");
                    if (r.rail().validation() == null || !r.rail().validation().startsWith(Validation.VALID)) {
                        s.append(String.format(
                                Locale.ROOT,
                                "<g class=\"failed-rail\"><title>%s</title><path d=\"M%.1f %.1fl8 8m0 -8l-8 8\""
                                    + " stroke=\"#d62728\" stroke-width=\"2\" transform=\"translate(-4 -4)\"/></g>%n",
                                tip,
                                px,
                                py));
                    } else {
                        s.append(String.format(
                                Locale.ROOT,
                                "<circle class=\"rail-point\" cx=\"%.1f\" cy=\"%.1f\" r=\"2.5\" fill=\"%s\">"
                                        + "<title>%s</title></circle>%n",
                                px,
                                py,
                                railColor,
                                tip));
                    }
                }
                legendY = legend(s, legendY, railColor, "5,3", rail.getKey());
            }
        }
        if (points.stream().anyMatch(PointRecord::failed)) {
            s.append(String.format(
                    Locale.ROOT,
                    "<path d=\"M%d %dl8 8m0 -8l-8 8\" stroke=\"#d62728\" stroke-width=\"2.5\"/>%n",
                    W - RIGHT + 16,
                    legendY - 4));
            s.append(String.format(
                    Locale.ROOT, "<text x=\"%d\" y=\"%d\">failed point</text>%n", W - RIGHT + 32, legendY + 4));
        }
        s.append("</svg>\n");
        return s.toString();
    }

    private static int legend(StringBuilder s, int y, String color, String dash, String text) {
        int x0 = W - RIGHT + 12;
        s.append(String.format(
                Locale.ROOT,
                "<line x1=\"%d\" y1=\"%d\" x2=\"%d\" y2=\"%d\" stroke=\"%s\" stroke-width=\"2\"%s/>%n",
                x0,
                y,
                x0 + 16,
                y,
                color,
                dash == null ? "" : " stroke-dasharray=\"" + dash + "\""));
        s.append(String.format(Locale.ROOT, "<text x=\"%d\" y=\"%d\">%s</text>%n", x0 + 20, y + 4, esc(text)));
        return y + 18;
    }

    private static double xPos(double log, double lo, double hi, int plotW) {
        return LEFT + (log - lo) / (hi - lo) * plotW;
    }

    private static double yPos(double v, double yMax, int plotH) {
        return TOP + plotH - (yMax == 0 ? 0 : v / yMax * plotH);
    }

    static double log2(long v) {
        return Math.log(v) / Math.log(2);
    }

    private static double niceCeiling(double v) {
        if (v <= 0) {
            return 1;
        }
        double mag = Math.pow(10, Math.floor(Math.log10(v)));
        for (double m : new double[] {1, 2, 2.5, 5, 10}) {
            if (m * mag >= v) {
                return m * mag;
            }
        }
        return 10 * mag;
    }

    private static String trim(double v) {
        if (v == 0) {
            return "0";
        }
        return v >= 10
                ? String.format(Locale.ROOT, "%.0f", v)
                : v >= 1 ? String.format(Locale.ROOT, "%.1f", v) : String.format(Locale.ROOT, "%.3f", v);
    }

    private static String esc(String s) {
        return s.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;").replace("\"", "&quot;");
    }
}
