package dev.linkproof.reports.fleet;

import dev.linkproof.fleet.blame.Blame;
import dev.linkproof.fleet.blame.Evidence;
import dev.linkproof.fleet.blame.PairOutcome;
import dev.linkproof.fleet.blame.Point;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;

/**
 * A node × node bandwidth heat map of one point as a standalone SVG: rows initiators, columns targets, in the
 * launcher's order; colour from 0 to the point's highest bandwidth in viridis (which reads in grey print and to
 * colour-blind eyes); grey where not measured, red outline where the blame counted the pair against its nodes. A
 * slow node shows as a dark cross through its row and column, a slow link as two dark cells mirrored across the
 * diagonal. Beyond {@link #MAX_DRAWN} nodes the map is drawn by blocks ({@link #aggregate}), each cell the slowest
 * pair in its block, so a slow node or link still shows: a 1,024-node map is 128 × 128 cells, not a million.
 */
public final class FleetHeatMap {
    private static final int PLOT = 640;
    private static final int MAX_CELL = 24;
    private static final int MIN_CELL = 2;
    private static final int MIN_LABELLED_CELL = 9;
    private static final double CHAR_WIDTH = 6.5;
    private static final int LEGEND_W = 170;
    private static final String MISSING = "#c8c8c8";
    private static final String BAD = "#d62728";
    /** Viridis at five stops, from 0 to the highest bandwidth. */
    private static final int[][] VIRIDIS = {
        {0x44, 0x01, 0x54}, {0x3b, 0x52, 0x8b}, {0x21, 0x91, 0x8c}, {0x5e, 0xc9, 0x62}, {0xfd, 0xe7, 0x25}
    };

    private FleetHeatMap() {}

    /**
     * The heat map of {@code point}: {@code outcomes} are the first round's at that point (others are
     * ignored), {@code blame} gives the nodes, their order, and which pairs it counted against them.
     */
    public static String svg(Point point, List<PairOutcome> outcomes, Blame blame) {
        List<String> nodes = blame.nodes();
        int n = nodes.size();
        if (n > MAX_DRAWN) {
            return aggregate(point, outcomes, blame);
        }
        Map<String, Integer> index = new HashMap<>();
        for (int i = 0; i < n; i++) {
            index.put(nodes.get(i), i);
        }
        PairOutcome[][] cells = new PairOutcome[n][n];
        double max = 0;
        for (PairOutcome o : outcomes) {
            Integer i = index.get(o.pair().initiator());
            Integer t = index.get(o.pair().target());
            if (o.point().equals(point) && i != null && t != null) {
                cells[i][t] = o;
                if (o.hasBandwidth()) {
                    max = Math.max(max, o.bandwidthGBps());
                }
            }
        }
        int cell = Math.max(MIN_CELL, Math.min(MAX_CELL, PLOT / Math.max(1, n)));
        boolean labels = cell >= MIN_LABELLED_CELL;
        int labelSpace = labels
                ? (int) Math.ceil(nodes.stream().mapToInt(String::length).max().orElse(0) * CHAR_WIDTH) + 10
                : 10;
        int left = 30 + labelSpace;
        int top = 60 + labelSpace;
        int width = left + n * cell + 20 + LEGEND_W;
        int height = Math.max(top + n * cell + 40, top + 260);

        StringBuilder s = new StringBuilder(256 + n * n * 160);
        s.append(String.format(
                Locale.ROOT,
                "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%d\" height=\"%d\" viewBox=\"0 0 %d %d\" "
                        + "font-family=\"sans-serif\" font-size=\"11\">%n",
                width,
                height,
                width,
                height));
        s.append("<rect width=\"100%\" height=\"100%\" fill=\"white\"/>\n");
        s.append(String.format(
                Locale.ROOT,
                "<text x=\"%d\" y=\"22\" font-size=\"15\" font-weight=\"bold\">%s</text>%n",
                10,
                Xml.escape("Bandwidth by pair: " + point.name())));
        s.append(String.format(
                Locale.ROOT, "<text x=\"%d\" y=\"40\">rows: initiator · columns: target · %d nodes</text>%n", 10, n));
        if (labels) {
            int font = Math.min(11, cell - 1);
            for (int i = 0; i < n; i++) {
                String name = Xml.escape(nodes.get(i));
                s.append(String.format(
                        Locale.ROOT,
                        "<text class=\"row-label\" x=\"%d\" y=\"%.1f\" text-anchor=\"end\""
                                + " font-size=\"%d\">%s</text>%n",
                        left - 4,
                        top + i * cell + cell / 2.0 + font / 3.0,
                        font,
                        name));
                double x = left + i * cell + cell / 2.0 + font / 3.0;
                s.append(String.format(
                        Locale.ROOT,
                        "<text class=\"column-label\" x=\"%.1f\" y=\"%d\" transform=\"rotate(-90 %.1f %d)\""
                                + " font-size=\"%d\">%s</text>%n",
                        x,
                        top - 4,
                        x,
                        top - 4,
                        font,
                        name));
            }
        }
        for (int i = 0; i < n; i++) {
            for (int t = 0; t < n; t++) {
                int x = left + t * cell;
                int y = top + i * cell;
                if (i == t) {
                    continue; // a node with itself is no pair
                }
                PairOutcome o = cells[i][t];
                String pair = Xml.escape(nodes.get(i) + "->" + nodes.get(t));
                if (o == null) {
                    s.append(String.format(
                            Locale.ROOT,
                            "<rect class=\"cell not-run\" x=\"%d\" y=\"%d\" width=\"%d\" height=\"%d\" fill=\"%s\">"
                                    + "<title>%s: not run</title></rect>%n",
                            x,
                            y,
                            cell,
                            cell,
                            MISSING,
                            pair));
                    continue;
                }
                Optional<Evidence> fault = blame.judge().fault(o);
                String fill = o.hasBandwidth() ? colour(max == 0 ? 0 : o.bandwidthGBps() / max) : MISSING;
                String figure =
                        o.hasBandwidth() ? String.format(Locale.ROOT, "%.3f GB/s", o.bandwidthGBps()) : "not measured";
                String tip = pair + ": " + figure
                        + Xml.escape(fault.map(f ->
                                        " (" + f.fault().orElseThrow().name().toLowerCase(Locale.ROOT) + ")")
                                .orElse(""));
                double stroke = Math.max(1, cell / 8.0);
                s.append(String.format(
                        Locale.ROOT,
                        "<rect class=\"cell%s%s\" x=\"%d\" y=\"%d\" width=\"%d\" height=\"%d\" fill=\"%s\"%s>"
                                + "<title>%s</title></rect>%n",
                        o.hasBandwidth() ? "" : " not-measured",
                        fault.isPresent() ? " bad" : "",
                        x,
                        y,
                        cell,
                        cell,
                        fill,
                        fault.isPresent()
                                ? String.format(Locale.ROOT, " stroke=\"%s\" stroke-width=\"%.1f\"", BAD, stroke)
                                : "",
                        tip));
            }
        }
        s.append(String.format(
                Locale.ROOT,
                "<rect x=\"%d\" y=\"%d\" width=\"%d\" height=\"%d\" fill=\"none\" stroke=\"#333\"/>%n",
                left,
                top,
                n * cell,
                n * cell));
        legend(s, left + n * cell + 20, top, max);
        s.append("</svg>\n");
        return s.toString();
    }

    /** The most nodes drawn one per row and column; more are drawn by blocks. */
    static final int MAX_DRAWN = 128;

    /**
     * The map of a fleet of more than {@link #MAX_DRAWN} nodes: nodes in blocks of
     * {@code ceil(n / MAX_DRAWN)} consecutive ones, one cell per (initiator block, target block), its
     * colour the block's slowest measured pair, grey when none was measured, outlined in red when any
     * pair in it was counted against its nodes; its tooltip names the blocks, the slowest pair and how
     * many were bad.
     */
    static String aggregate(Point point, List<PairOutcome> outcomes, Blame blame) {
        List<String> nodes = blame.nodes();
        int n = nodes.size();
        int size = (n + MAX_DRAWN - 1) / MAX_DRAWN;
        int blocks = (n + size - 1) / size;
        Map<String, Integer> index = new HashMap<>();
        for (int i = 0; i < n; i++) {
            index.put(nodes.get(i), i);
        }
        double[][] slowest = new double[blocks][blocks];
        PairOutcome[][] slowestPair = new PairOutcome[blocks][blocks];
        int[][] bad = new int[blocks][blocks];
        double max = 0;
        for (PairOutcome o : outcomes) {
            Integer i = index.get(o.pair().initiator());
            Integer t = index.get(o.pair().target());
            if (!o.point().equals(point) || i == null || t == null) {
                continue;
            }
            int bi = i / size;
            int bt = t / size;
            if (blame.judge().fault(o).isPresent()) {
                bad[bi][bt]++;
            }
            if (o.hasBandwidth()) {
                max = Math.max(max, o.bandwidthGBps());
                if (slowestPair[bi][bt] == null || o.bandwidthGBps() < slowest[bi][bt]) {
                    slowest[bi][bt] = o.bandwidthGBps();
                    slowestPair[bi][bt] = o;
                }
            }
        }
        int cell = Math.max(MIN_CELL, Math.min(MAX_CELL, PLOT / blocks));
        int left = 40;
        int top = 70;
        int width = left + blocks * cell + 20 + LEGEND_W;
        int height = Math.max(top + blocks * cell + 40, top + 260);
        StringBuilder s = new StringBuilder(256 + blocks * blocks * 200);
        s.append(String.format(
                Locale.ROOT,
                "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%d\" height=\"%d\" viewBox=\"0 0 %d %d\" "
                        + "font-family=\"sans-serif\" font-size=\"11\">%n",
                width,
                height,
                width,
                height));
        s.append("<rect width=\"100%\" height=\"100%\" fill=\"white\"/>\n");
        s.append(String.format(
                Locale.ROOT,
                "<text x=\"10\" y=\"22\" font-size=\"15\" font-weight=\"bold\">%s</text>%n",
                Xml.escape("Bandwidth by pair: " + point.name())));
        s.append(String.format(
                Locale.ROOT,
                "<text x=\"10\" y=\"40\">rows: initiators · columns: targets · %d nodes in blocks of %d: "
                        + "each cell the slowest pair of its %d × %d</text>%n",
                n,
                size,
                size,
                size));
        for (int bi = 0; bi < blocks; bi++) {
            for (int bt = 0; bt < blocks; bt++) {
                String from = block(nodes, bi, size);
                String to = block(nodes, bt, size);
                PairOutcome o = slowestPair[bi][bt];
                String fill = o == null ? MISSING : colour(max == 0 ? 0 : slowest[bi][bt] / max);
                String tip = from + " -> " + to + ": "
                        + (o == null
                                ? "nothing measured"
                                : String.format(
                                        Locale.ROOT,
                                        "slowest %s %.3f GB/s",
                                        o.pair().label(),
                                        slowest[bi][bt]))
                        + (bad[bi][bt] == 0 ? "" : ", " + bad[bi][bt] + " pair(s) failed or outliers");
                s.append(String.format(
                        Locale.ROOT,
                        "<rect class=\"cell block%s\" x=\"%d\" y=\"%d\" width=\"%d\" height=\"%d\" fill=\"%s\"%s>"
                                + "<title>%s</title></rect>%n",
                        bad[bi][bt] == 0 ? "" : " bad",
                        left + bt * cell,
                        top + bi * cell,
                        cell,
                        cell,
                        fill,
                        bad[bi][bt] == 0
                                ? ""
                                : String.format(
                                        Locale.ROOT,
                                        " stroke=\"%s\" stroke-width=\"%.1f\"",
                                        BAD,
                                        Math.max(1, cell / 8.0)),
                        Xml.escape(tip)));
            }
        }
        s.append(String.format(
                Locale.ROOT,
                "<rect x=\"%d\" y=\"%d\" width=\"%d\" height=\"%d\" fill=\"none\" stroke=\"#333\"/>%n",
                left,
                top,
                blocks * cell,
                blocks * cell));
        legend(s, left + blocks * cell + 20, top, max);
        s.append("</svg>\n");
        return s.toString();
    }

    /** "lpn9…lpn16": the first and last node of block {@code b}. */
    private static String block(List<String> nodes, int b, int size) {
        int first = b * size;
        int last = Math.min(nodes.size(), first + size) - 1;
        return first == last ? nodes.get(first) : nodes.get(first) + "…" + nodes.get(last);
    }

    /** The colour scale from 0 to {@code max} GB/s, and what grey and red mean. */
    private static void legend(StringBuilder s, int x, int y, double max) {
        int barH = 160;
        s.append("<defs><linearGradient id=\"scale\" x1=\"0\" y1=\"1\" x2=\"0\" y2=\"0\">");
        for (int k = 0; k < VIRIDIS.length; k++) {
            s.append(String.format(
                    Locale.ROOT,
                    "<stop offset=\"%.2f\" stop-color=\"%s\"/>",
                    k / (VIRIDIS.length - 1.0),
                    colour(k / (VIRIDIS.length - 1.0))));
        }
        s.append("</linearGradient></defs>\n");
        s.append(String.format(
                Locale.ROOT, "<g class=\"legend\"><text x=\"%d\" y=\"%d\">GB/s (10⁹ B/s)</text>%n", x, y + 10));
        s.append(String.format(
                Locale.ROOT,
                "<rect x=\"%d\" y=\"%d\" width=\"16\" height=\"%d\" fill=\"url(#scale)\" stroke=\"#333\"/>%n",
                x,
                y + 20,
                barH));
        for (int k = 0; k <= 4; k++) {
            double v = max * k / 4;
            int ty = y + 20 + barH - barH * k / 4;
            s.append(String.format(
                    Locale.ROOT,
                    "<text x=\"%d\" y=\"%d\">%s</text>%n",
                    x + 22,
                    ty + 4,
                    String.format(Locale.ROOT, max >= 10 ? "%.1f" : "%.3f", v)));
        }
        int ly = y + 20 + barH + 24;
        s.append(String.format(
                Locale.ROOT,
                "<rect x=\"%d\" y=\"%d\" width=\"12\" height=\"12\" fill=\"%s\"/><text x=\"%d\" y=\"%d\">not run or"
                        + " not measured</text>%n",
                x,
                ly,
                MISSING,
                x + 18,
                ly + 10));
        s.append(String.format(
                Locale.ROOT,
                "<rect x=\"%d\" y=\"%d\" width=\"12\" height=\"12\" fill=\"white\" stroke=\"%s\" stroke-width=\"2\"/>"
                        + "<text x=\"%d\" y=\"%d\">failed or outlier</text></g>%n",
                x,
                ly + 20,
                BAD,
                x + 18,
                ly + 30));
    }

    /** Viridis at {@code f} in [0, 1]. */
    static String colour(double f) {
        double v = Math.max(0, Math.min(1, f)) * (VIRIDIS.length - 1);
        int k = Math.min(VIRIDIS.length - 2, (int) Math.floor(v));
        double r = v - k;
        int[] a = VIRIDIS[k];
        int[] b = VIRIDIS[k + 1];
        return String.format(
                Locale.ROOT,
                "#%02x%02x%02x",
                Math.round(a[0] + (b[0] - a[0]) * r),
                Math.round(a[1] + (b[1] - a[1]) * r),
                Math.round(a[2] + (b[2] - a[2]) * r));
    }
}
