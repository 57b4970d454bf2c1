package dev.linkproof.reports.results;

import java.util.List;
import java.util.Locale;

/**
 * One sweep as CSV, columns named in the spirit of MORI-IO's bench_engine and perftest output, so a script that reads
 * theirs by column name reads it too (the order is Linkproof's own). Every dimension a sweep can vary comes before
 * the figures. A sweep of rails points gets five more columns per rail ({@code Rail0}, {@code Rail0BW(GB/s)},
 * {@code Rail0Lat(us)}, {@code Rail0Start(ms)}, {@code Rail0Dur(ms)}, the window from the earliest rail's start), so
 * a spreadsheet plots each rail beside the aggregate and sees whether they overlapped. They come last, so a reader
 * by position finds the others where they always were: a sweep of one pair per point keeps exactly {@link #HEADER}.
 */
public final class SweepCsv {
    public static final String HEADER = "MsgSize(B),Batch,QPs,Depth,Op,Transport,Device,Memory,Layout,Offset(B),Iters,"
            + "AvgBW(GB/s),AvgLat(us),p50(us),p99(us),p99.9(us),max(us),verdict";

    private SweepCsv() {}

    public static String of(List<PointRecord> points) {
        int rails = points.stream().mapToInt(p -> p.rails().size()).max().orElse(0);
        StringBuilder sb = new StringBuilder(HEADER);
        for (int i = 0; i < rails; i++) {
            sb.append(",Rail")
                    .append(i)
                    .append(",Rail")
                    .append(i)
                    .append("BW(GB/s),Rail")
                    .append(i)
                    .append("Lat(us),Rail")
                    .append(i)
                    .append("Start(ms),Rail")
                    .append(i)
                    .append("Dur(ms)");
        }
        sb.append('\n');
        for (PointRecord p : points) {
            sb.append(p.size())
                    .append(',')
                    .append(p.batch())
                    .append(',')
                    .append(p.qps())
                    .append(',')
                    .append(p.pipeline())
                    .append(',')
                    .append(p.op())
                    .append(',')
                    .append(p.transport())
                    .append(',')
                    .append(p.device() == null ? "" : p.device())
                    .append(',')
                    .append(p.memory())
                    .append(',')
                    .append(p.layout() == null ? "" : p.layout())
                    .append(',')
                    .append(p.offset() == null ? "" : p.offset())
                    .append(',')
                    .append(p.iterations())
                    .append(',')
                    .append(num(p.bandwidthGBps(), "%.4f"))
                    .append(',')
                    .append(num(p.avgLatencyUs(), "%.3f"))
                    .append(',')
                    .append(num(p.p50Us(), "%.3f"))
                    .append(',')
                    .append(num(p.p99Us(), "%.3f"))
                    .append(',')
                    .append(num(p.p999Us(), "%.3f"))
                    .append(',')
                    .append(num(p.maxUs(), "%.3f"))
                    .append(',')
                    .append(p.status());
            for (int i = 0; i < rails; i++) {
                PointRecord.Rail r = i < p.rails().size() ? p.rails().get(i) : null;
                if (r == null) {
                    sb.append(",,,,,"); // a point with fewer rails than the sweep's most
                } else {
                    sb.append(',')
                            .append(field(r.label()))
                            .append(',')
                            .append(num(r.bandwidthGBps(), "%.4f"))
                            .append(',')
                            .append(num(r.avgLatencyUs(), "%.3f"))
                            .append(',')
                            .append(num(r.startMs(), "%.3f"))
                            .append(',')
                            .append(num(r.durationMs(), "%.3f"));
                }
            }
            sb.append('\n');
        }
        return sb.toString();
    }

    /** A text field, quoted where it holds a comma or a quote (a rail's label is free text). */
    private static String field(String s) {
        return s.indexOf(',') < 0 && s.indexOf('"') < 0 ? s : '"' + s.replace("\"", "\"\"") + '"';
    }

    private static String num(Double v, String format) {
        return v == null ? "" : String.format(Locale.ROOT, format, v);
    }
}
