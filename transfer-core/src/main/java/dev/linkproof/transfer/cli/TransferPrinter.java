package dev.linkproof.transfer.cli;

import com.fasterxml.jackson.databind.ObjectMapper;
import dev.linkproof.transfer.Mode;
import dev.linkproof.transfer.TransferSpec;
import dev.linkproof.transfer.measure.LatencyStats;
import dev.linkproof.transfer.measure.Measurement;
import dev.linkproof.transfer.measure.RailResult;
import dev.linkproof.transfer.session.Session;
import java.io.PrintWriter;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * The result lines, in the chosen format; banners and notes go to stderr in csv and json. With rails,
 * a point is its aggregate ({@code all}) and then every rail: a row each in the table and csv (csv
 * adds rail, label, start_ms, end_ms, from the first rail's start), one object with a {@code rails}
 * array in json. The message rate ({@link Measurement#opsPerSecond()}) is {@code MsgRate[Mpps]} in
 * the table, as perftest's, and {@code ops_per_s} in json and csv, where it comes after
 * {@code validation} and before the rail columns, so scripts that read the earlier columns by
 * position and the rail columns from the end (bench/) still find them.
 */
final class TransferPrinter {
    private static final ObjectMapper JSON = new ObjectMapper();
    private final TransferCli.Format format;
    private final PrintWriter out;
    private final PrintWriter notes;
    private final boolean showRep;
    /** Every rail's label, in rail order; empty for a point of one pair. */
    private final List<String> rails;

    private final int railWidth;
    /** Whether the rails run on memory of their own (gpu-ipc's GPU pairs), named by their labels. */
    private final boolean railMemory;

    private boolean latencyColumns;

    TransferPrinter(
            TransferCli.Format format,
            PrintWriter out,
            PrintWriter err,
            boolean showRep,
            List<String> rails,
            boolean railMemory) {
        this.railMemory = railMemory;
        this.format = format;
        this.out = out;
        this.notes = format == TransferCli.Format.TABLE ? out : err;
        this.showRep = showRep;
        this.rails = rails;
        int w = "all".length();
        for (int i = 0; i < rails.size(); i++) {
            w = Math.max(w, railName(i, rails.get(i)).length());
        }
        this.railWidth = w;
    }

    private static String railName(int index, String label) {
        return index + " " + label;
    }

    void banner(TransferSpec first, Session session, String target) {
        var agent = session.agent();
        latencyColumns = first.mode() == Mode.LATENCY;
        String rule = "-".repeat((latencyColumns ? 132 : 100) + (rails.isEmpty() ? 0 : railWidth + 19));
        notes.println(rule);
        notes.printf(
                Locale.ROOT,
                " linkproof %s %s · transport %s · %s%n",
                first.op().label(),
                first.mode().name().toLowerCase(Locale.ROOT),
                first.transport(),
                target);
        notes.printf(
                Locale.ROOT,
                " agent %s on %s (pid %d, JDK %s) · initiator JDK %s%n",
                agent.agentVersion(),
                agent.host(),
                agent.pid(),
                agent.jdk(),
                Runtime.version());
        notes.printf(
                Locale.ROOT,
                " memory %s · layout %s · offset %d · warmup %d · GB = 10^9 bytes%n",
                railMemory ? "per rail (its GPUs)" : first.initiatorMemory() + " → " + first.targetMemory(),
                first.layout().name().toLowerCase(Locale.ROOT),
                first.offset(),
                first.warmup());
        if (!rails.isEmpty()) {
            List<String> names = new ArrayList<>();
            for (int i = 0; i < rails.size(); i++) {
                names.add(railName(i, rails.get(i)));
            }
            notes.printf(
                    Locale.ROOT,
                    " %d rail%s at once (%s), started together; 'all' = every rail's bytes over the"
                            + " first start to the last end, the slowest rail's latency%n",
                    rails.size(),
                    rails.size() == 1 ? "" : "s",
                    String.join(", ", names));
        }
        notes.println(rule);
        notes.flush();
        switch (format) {
            case TABLE -> {
                if (!rails.isEmpty()) {
                    out.printf(Locale.ROOT, " %-" + railWidth + "s", "rail");
                }
                out.printf(
                        Locale.ROOT,
                        " %-10s %6s %4s %5s %10s %10s %13s %10s",
                        "#bytes",
                        "batch",
                        "qps",
                        "depth",
                        "#iters",
                        "BW[GB/s]",
                        "MsgRate[Mpps]",
                        "avg[usec]");
                if (latencyColumns) {
                    out.printf(Locale.ROOT, " %9s %9s %9s %9s", "p50[usec]", "p99[usec]", "p99.9[us]", "max[usec]");
                }
                if (!rails.isEmpty()) {
                    out.printf(Locale.ROOT, " %17s", "loop[ms]");
                }
                out.println(showRep ? "  rep  validation" : "  validation");
            }
            case CSV ->
                out.println("op,transport,size,batch,qps,depth,iters,warmup,rep,bytes,total_ns,gbps,avg_us,"
                        + "p50_us,p99_us,p999_us,max_us,valid,validation,ops_per_s"
                        + (rails.isEmpty() ? "" : ",rail,label,start_ms,end_ms"));
            case JSON -> {}
        }
        out.flush();
    }

    void result(Measurement m, int rep) {
        if (rails.isEmpty() || m.rails().isEmpty()) {
            switch (format) {
                case TABLE -> out.println(tableRow(null, m, rep, null));
                case CSV -> out.println(csvRow(m, rep, ""));
                case JSON -> json(jsonRow(m, rep));
            }
            out.flush();
            return;
        }
        long t0 = m.rails().stream().mapToLong(RailResult::loopStartNanos).min().orElseThrow();
        String all = String.join("+", rails);
        switch (format) {
            case TABLE -> {
                out.println(tableRow("all", m, rep, window(0, m.totalNanos())));
                for (RailResult r : m.rails()) {
                    out.println(tableRow(
                            railName(r.index(), r.label()),
                            r.measurement(),
                            rep,
                            window(r.loopStartNanos() - t0, r.loopEndNanos() - t0)));
                }
            }
            case CSV -> {
                out.println(csvRow(m, rep, ",all," + csv(all) + "," + ms(0) + "," + ms(m.totalNanos())));
                for (RailResult r : m.rails()) {
                    out.println(csvRow(
                            r.measurement(),
                            rep,
                            "," + r.index() + "," + csv(r.label()) + "," + ms(r.loopStartNanos() - t0) + ","
                                    + ms(r.loopEndNanos() - t0)));
                }
            }
            case JSON -> {
                Map<String, Object> row = jsonRow(m, rep);
                List<Map<String, Object>> each = new ArrayList<>();
                for (RailResult r : m.rails()) {
                    Map<String, Object> one = new LinkedHashMap<>();
                    one.put("rail", r.index());
                    one.put("label", r.label());
                    Map<String, String> set = r.measurement().spec().settings();
                    putIfPresent(one, "device", set.get(dev.linkproof.transfer.verbs.VerbsSettings.DEVICE));
                    putIfPresent(one, "device", set.get(dev.linkproof.transfer.ucx.UcxSettings.NET_DEVICES));
                    putIfPresent(one, "device", set.get(dev.linkproof.transfer.libfabric.LibfabricSettings.DOMAIN));
                    putIfPresent(one, "source", set.get(RailEntries.TCP_SOURCE));
                    putIfPresent(one, "address", set.get(RailEntries.TCP_ADDRESS));
                    TransferSpec ran = r.measurement().spec();
                    one.put("memory", ran.initiatorMemory() + "->" + ran.targetMemory());
                    one.put("start_ms", (r.loopStartNanos() - t0) / 1e6);
                    one.put("end_ms", (r.loopEndNanos() - t0) / 1e6);
                    Map<String, Object> figures = jsonRow(r.measurement(), rep);
                    for (String k : List.of(
                            "bytes",
                            "total_ns",
                            "gbps",
                            "ops_per_s",
                            "avg_us",
                            "p50_us",
                            "p99_us",
                            "p999_us",
                            "max_us",
                            "valid",
                            "validation")) {
                        putIfPresent(one, k, figures.get(k));
                    }
                    each.add(one);
                }
                row.put("rails", each);
                json(row);
            }
        }
        out.flush();
    }

    private static void putIfPresent(Map<String, Object> row, String key, Object value) {
        if (value != null) {
            row.put(key, value);
        }
    }

    /** "12.3-456.7": a timed loop's start and end in ms from the first rail's start. */
    private static String window(long startNanos, long endNanos) {
        return String.format(Locale.ROOT, "%.1f-%.1f", startNanos / 1e6, endNanos / 1e6);
    }

    private static String ms(long nanos) {
        return String.format(Locale.ROOT, "%.3f", nanos / 1e6);
    }

    private static String validation(Measurement m) {
        return m.isValid() ? "ok" : m.validation().describe();
    }

    private String tableRow(String rail, Measurement m, int rep, String window) {
        TransferSpec s = m.spec();
        LatencyStats l = m.latency();
        StringBuilder b = new StringBuilder();
        if (rail != null) {
            b.append(String.format(Locale.ROOT, " %-" + railWidth + "s", rail));
        }
        b.append(String.format(
                Locale.ROOT,
                " %-10d %6d %4d %5d %10d %10.4f %13.4f %10.2f",
                s.size(),
                s.batch(),
                s.connections(),
                s.pipelineDepth(),
                s.iterations(),
                m.bandwidthGBps(),
                m.opsPerSecond() / 1e6,
                l.averageNanos() / 1e3));
        if (latencyColumns) {
            b.append(String.format(
                    Locale.ROOT,
                    " %9s %9s %9s %9s",
                    us(l, l.p50Nanos()),
                    us(l, l.p99Nanos()),
                    us(l, l.p999Nanos()),
                    us(l, l.maxNanos())));
        }
        if (window != null) {
            b.append(String.format(Locale.ROOT, " %17s", window));
        }
        return b.append(showRep ? String.format(Locale.ROOT, "  %3d", rep) : "")
                .append("  ")
                .append(validation(m))
                .toString();
    }

    private static String csvRow(Measurement m, int rep, String railColumns) {
        TransferSpec s = m.spec();
        LatencyStats l = m.latency();
        return String.join(
                        ",",
                        s.op().label(),
                        s.transport(),
                        Long.toString(s.size()),
                        Integer.toString(s.batch()),
                        Integer.toString(s.connections()),
                        Integer.toString(s.pipelineDepth()),
                        Integer.toString(s.iterations()),
                        Integer.toString(s.warmup()),
                        Integer.toString(rep),
                        Long.toString(m.bytes()),
                        Long.toString(m.totalNanos()),
                        String.format(Locale.ROOT, "%.6f", m.bandwidthGBps()),
                        String.format(Locale.ROOT, "%.3f", l.averageNanos() / 1e3),
                        us(l, l.p50Nanos()),
                        us(l, l.p99Nanos()),
                        us(l, l.p999Nanos()),
                        us(l, l.maxNanos()),
                        Boolean.toString(m.isValid()),
                        csv(validation(m)),
                        String.format(Locale.ROOT, "%.1f", m.opsPerSecond()))
                + railColumns;
    }

    private Map<String, Object> jsonRow(Measurement m, int rep) {
        LatencyStats l = m.latency();
        Map<String, Object> row = row(m.spec(), rep);
        row.put("bytes", m.bytes());
        row.put("total_ns", m.totalNanos());
        row.put("gbps", m.bandwidthGBps());
        row.put("ops_per_s", m.opsPerSecond());
        row.put("avg_us", l.averageNanos() / 1e3);
        if (l.hasPercentiles()) {
            row.put("p50_us", l.p50Nanos() / 1e3);
            row.put("p99_us", l.p99Nanos() / 1e3);
            row.put("p999_us", l.p999Nanos() / 1e3);
            row.put("max_us", l.maxNanos() / 1e3);
        }
        row.put("valid", m.isValid());
        row.put("validation", m.validation().describe());
        return row;
    }

    void skipped(TransferSpec s, String reason) {
        line(s, 0, "skipped", reason);
    }

    void failed(TransferSpec s, int rep, String message) {
        line(s, rep, "failed", message);
    }

    private void line(TransferSpec s, int rep, String outcome, String why) {
        switch (format) {
            case TABLE ->
                out.printf(
                        Locale.ROOT,
                        "%s %-10d %6d %4d %5d %10s %10s %13s %10s%s%s  %s: %s%n",
                        rails.isEmpty() ? "" : String.format(Locale.ROOT, " %-" + railWidth + "s", "all"),
                        s.size(),
                        s.batch(),
                        s.connections(),
                        s.pipelineDepth(),
                        "-",
                        "-",
                        "-",
                        "-",
                        rails.isEmpty() ? "" : String.format(Locale.ROOT, " %17s", "-"),
                        showRep ? String.format(Locale.ROOT, "  %3d", rep) : "",
                        outcome,
                        why);
            case CSV ->
                out.println(String.join(
                                ",",
                                s.op().label(),
                                s.transport(),
                                Long.toString(s.size()),
                                Integer.toString(s.batch()),
                                Integer.toString(s.connections()),
                                Integer.toString(s.pipelineDepth()),
                                Integer.toString(s.iterations()),
                                Integer.toString(s.warmup()),
                                Integer.toString(rep),
                                "",
                                "",
                                "",
                                "",
                                "",
                                "",
                                "",
                                "",
                                "false",
                                csv(outcome + ": " + why),
                                "")
                        + (rails.isEmpty() ? "" : ",all," + csv(String.join("+", rails)) + ",,"));
            case JSON -> {
                Map<String, Object> row = row(s, rep);
                row.put("valid", false);
                row.put(outcome, why);
                json(row);
            }
        }
        out.flush();
    }

    private Map<String, Object> row(TransferSpec s, int rep) {
        Map<String, Object> row = new LinkedHashMap<>();
        row.put("op", s.op().label());
        row.put("transport", s.transport());
        row.put("mode", s.mode().name().toLowerCase(Locale.ROOT));
        row.put("size", s.size());
        row.put("batch", s.batch());
        row.put("qps", s.connections());
        row.put("depth", s.pipelineDepth());
        row.put("iters", s.iterations());
        row.put("warmup", s.warmup());
        row.put("rep", rep);
        if (!rails.isEmpty()) {
            row.put("rail_count", rails.size());
        }
        return row;
    }

    private void json(Map<String, Object> row) {
        try {
            out.println(JSON.writeValueAsString(row));
        } catch (com.fasterxml.jackson.core.JsonProcessingException e) {
            throw new IllegalStateException(e);
        }
    }

    private static String us(LatencyStats l, long nanos) {
        return l.hasPercentiles() ? String.format(Locale.ROOT, "%.2f", nanos / 1e3) : "";
    }

    private static String csv(String text) {
        return text.contains(",") || text.contains("\"") ? '"' + text.replace("\"", "\"\"") + '"' : text;
    }
}
