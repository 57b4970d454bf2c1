package dev.linkproof.reports.results;

import java.util.List;
import java.util.Locale;

/**
 * One sweep as CSV, columns named in the spirit of MORI-IO's bench_engine and perftest output, so a
 * spreadsheet or a plotting script that reads theirs by column name reads it too (the order is
 * Linkproof's own: read it by the header). Every dimension a sweep can vary
 * comes before the figures (the RDMA device, where a point named one; memory as
 * initiator-&gt;target; layout and slot offset, which tell apart points that are otherwise alike).
 */
public final class SweepCsv {
    public static final String HEADER = "MsgSize(B),Batch,QPs,Depth,Op,Transport,Device,Memory,Layout,Offset(B),Iters,AvgBW(GB/s),AvgLat(us),p50(us),p99(us),p99.9(us),max(us),verdict";

    private SweepCsv() {
    }

    public static String of(List<PointRecord> points) {
        StringBuilder sb = new StringBuilder(HEADER).append('\n');
        for (PointRecord p : points) {
            sb.append(p.size()).append(',')
                    .append(p.batch()).append(',')
                    .append(p.qps()).append(',')
                    .append(p.pipeline()).append(',')
                    .append(p.op()).append(',')
                    .append(p.transport()).append(',')
                    .append(p.device() == null ? "" : p.device()).append(',')
                    .append(p.memory()).append(',')
                    .append(p.layout() == null ? "" : p.layout()).append(',')
                    .append(p.offset() == null ? "" : p.offset()).append(',')
                    .append(p.iterations()).append(',')
                    .append(num(p.bandwidthGBps(), "%.4f")).append(',')
                    .append(num(p.avgLatencyUs(), "%.3f")).append(',')
                    .append(num(p.p50Us(), "%.3f")).append(',')
                    .append(num(p.p99Us(), "%.3f")).append(',')
                    .append(num(p.p999Us(), "%.3f")).append(',')
                    .append(num(p.maxUs(), "%.3f")).append(',')
                    .append(p.status()).append('\n');
        }
        return sb.toString();
    }

    private static String num(Double v, String format) {
        return v == null ? "" : String.format(Locale.ROOT, format, v);
    }
}
