package dev.linkproof.reports.results;

import com.fasterxml.jackson.annotation.JsonInclude;
import dev.linkproof.transfer.TransferSpec;
import dev.linkproof.transfer.measure.Measurement;
import dev.linkproof.transfer.measure.RailResult;
import dev.linkproof.transfer.validate.Validation;
import java.util.List;

/**
 * One point's result as machines read it: the line of the JSON-lines results file, a row of the sweep CSV, a dot on
 * the chart, and what a later run's baseline compares with, matching on {@code uniqueId}. docs/reports.md ("The
 * results file") says what each field holds. The schema is versioned ({@link #SCHEMA}); readers refuse lines of
 * another major version. A null is a field absent from the line: not measured, not applicable, or a record written
 * before the field was ({@code layout}, {@code offset}, a non-atomic point's {@code opsPerSecond}); an absent
 * {@code rails} reads as empty. {@code hostOtherCpus} and its kin are
 * {@link dev.linkproof.transfer.measure.HostContention}'s figures (docs/reports.md, "Host load").
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
public record PointRecord(
        String schema,
        String uniqueId,
        String sweep,
        String testClass,
        String method,
        String name,
        String op,
        long size,
        int batch,
        int qps,
        int pipeline,
        String transport,
        String device,
        String memory,
        String layout,
        Long offset,
        String mode,
        int iterations,
        int warmup,
        String status,
        String message,
        String failureKind,
        Double bandwidthGBps,
        Double opsPerSecond,
        Double avgLatencyUs,
        Double p50Us,
        Double p99Us,
        Double p999Us,
        Double maxUs,
        String validation,
        List<String> verdicts,
        List<String> criteria,
        Double criterionGBps,
        Double linkGBps,
        Double hostOtherCpus,
        Integer hostCpus,
        Double targetOtherCpus,
        Integer targetCpus,
        Integer attempts,
        @JsonInclude(JsonInclude.Include.NON_EMPTY) List<Rail> rails,
        String timestamp) {

    public static final String SCHEMA = "linkproof.results/1";

    public PointRecord {
        // Absent from a line (one pair, or an older record) reads as none, so readers need no null check.
        rails = rails == null ? List.of() : List.copyOf(rails);
    }

    /**
     * One rail of a point that ran several at once, as the results file, measurement.json and the sweep CSV give it
     * (docs/reports.md, "The results file"). Its window is in milliseconds from the earliest rail's start: the rails'
     * own clocks ({@link System#nanoTime()}) mean nothing outside the run, while offsets from a common start show
     * whether the rails overlapped, which makes the aggregate (all bytes over first start to last end) a figure of
     * them running together.
     *
     * @param memory initiator-&gt;target memory as the rail ran ({@code gpu:1->gpu}: a rail of GPUs runs on its own)
     */
    @JsonInclude(JsonInclude.Include.NON_NULL)
    public record Rail(
            int index,
            String label,
            double bandwidthGBps,
            double avgLatencyUs,
            long bytes,
            double startMs,
            double durationMs,
            String validation,
            String memory,
            String device) {

        /** A rail as records before its memory and device were recorded. */
        public Rail(
                int index,
                String label,
                double bandwidthGBps,
                double avgLatencyUs,
                long bytes,
                double startMs,
                double durationMs,
                String validation) {
            this(index, label, bandwidthGBps, avgLatencyUs, bytes, startMs, durationMs, validation, null, null);
        }

        /** "rail 1 (rxe9)", as {@link RailResult#name()} names it. */
        public String name() {
            return "rail " + index + " (" + label + ")";
        }

        /** The rails of {@code m}, in rail order; empty for a point of one pair (or none measured). */
        public static List<Rail> of(Measurement m) {
            if (m == null || m.rails().isEmpty()) {
                return List.of();
            }
            long first = Long.MAX_VALUE;
            for (RailResult r : m.rails()) {
                first = Math.min(first, r.loopStartNanos());
            }
            List<Rail> out = new java.util.ArrayList<>(m.rails().size());
            for (RailResult r : m.rails()) {
                Measurement rm = r.measurement();
                out.add(new Rail(
                        r.index(),
                        r.label(),
                        rm.bandwidthGBps(),
                        rm.latency().averageNanos() / 1e3,
                        rm.bytes(),
                        (r.loopStartNanos() - first) / 1e6,
                        (r.loopEndNanos() - r.loopStartNanos()) / 1e6,
                        rm.validation().describe(),
                        PointRecord.memory(rm.spec()),
                        nic(rm.spec()).orElse(null)));
            }
            return out;
        }
    }

    /** A record of a point that has (or has not) been measured, without the names of the criteria that judged it. */
    public static PointRecord of(
            String uniqueId,
            String sweep,
            String testClass,
            String method,
            String name,
            TransferSpec spec,
            Measurement m,
            String status,
            String message,
            List<String> verdicts,
            Double criterionGBps,
            Double linkGBps) {
        return of(
                uniqueId,
                sweep,
                testClass,
                method,
                name,
                spec,
                m,
                status,
                message,
                verdicts,
                null,
                criterionGBps,
                linkGBps);
    }

    /** A record of a point that has (or has not) been measured; {@code criteria} may be null (not judged). */
    public static PointRecord of(
            String uniqueId,
            String sweep,
            String testClass,
            String method,
            String name,
            TransferSpec spec,
            Measurement m,
            String status,
            String message,
            List<String> verdicts,
            List<String> criteria,
            Double criterionGBps,
            Double linkGBps) {
        boolean pct = m != null && m.latency().hasPercentiles();
        return new PointRecord(
                SCHEMA,
                uniqueId,
                sweep,
                testClass,
                method,
                name,
                spec.op().label(),
                spec.size(),
                spec.batch(),
                spec.connections(),
                spec.pipelineDepth(),
                spec.transport(),
                device(spec, m),
                memory(m == null ? spec : m.spec()),
                spec.layout().name().toLowerCase(java.util.Locale.ROOT),
                spec.offset(),
                spec.mode().name().toLowerCase(java.util.Locale.ROOT),
                // what ran: linkproof.duration sizes the iterations at run time
                m == null ? spec.iterations() : m.spec().iterations(),
                m == null ? spec.warmup() : m.spec().warmup(),
                status,
                message,
                null,
                m == null ? null : m.bandwidthGBps(),
                m == null ? null : m.opsPerSecond(),
                m == null ? null : m.latency().averageNanos() / 1e3,
                pct ? m.latency().p50Nanos() / 1e3 : null,
                pct ? m.latency().p99Nanos() / 1e3 : null,
                pct ? m.latency().p999Nanos() / 1e3 : null,
                pct ? m.latency().maxNanos() / 1e3 : null,
                m == null ? null : m.validation().describe(),
                List.copyOf(verdicts),
                criteria == null ? null : List.copyOf(criteria),
                criterionGBps,
                linkGBps,
                null,
                null,
                null,
                null,
                null,
                Rail.of(m),
                IsoInstant.of(java.time.Instant.now()));
    }

    /**
     * The RDMA device a point ran on: {@code verbs.device} of the spec it was measured with ({@code m}),
     * else of its own {@code spec} (not measured); null when neither names one.
     */
    public static String device(TransferSpec spec, Measurement m) {
        String key = dev.linkproof.transfer.verbs.VerbsSettings.DEVICE;
        String ran = m == null ? null : m.spec().settings().get(key);
        return ran != null ? ran : spec.settings().get(key);
    }

    /**
     * The RDMA device {@code spec} runs on: {@code verbs.device}, else the device of ucx's
     * {@code UCX_NET_DEVICES} ({@code mlx5_1:1} is {@code mlx5_1}) when it names one alone.
     */
    public static java.util.Optional<String> nic(TransferSpec spec) {
        String verbs = spec.settings().get(dev.linkproof.transfer.verbs.VerbsSettings.DEVICE);
        if (verbs != null) {
            return java.util.Optional.of(verbs);
        }
        String ucx = spec.settings().get("UCX_NET_DEVICES");
        if (ucx == null || ucx.isBlank() || ucx.contains(",") || ucx.equals("all")) {
            return java.util.Optional.empty();
        }
        int colon = ucx.indexOf(':');
        return java.util.Optional.of(
                colon < 0 ? ucx.strip() : ucx.substring(0, colon).strip());
    }

    /**
     * Initiator->target memory as the point ran ({@code gpu:2->gpu:3} when the profile provides GPUs
     * 2 and 3 and the point names {@code gpu->gpu:1}); its name and id keep the point's own.
     */
    private static String memory(TransferSpec ran) {
        return ran.initiatorMemory() + "->" + ran.targetMemory();
    }

    /** This record with the host loads of the point's last attempt and the number of attempts. */
    public PointRecord withHostLoads(
            Double hostOtherCpus, Integer hostCpus, Double targetOtherCpus, Integer targetCpus, int attempts) {
        return new PointRecord(
                schema,
                uniqueId,
                sweep,
                testClass,
                method,
                name,
                op,
                size,
                batch,
                qps,
                pipeline,
                transport,
                device,
                memory,
                layout,
                offset,
                mode,
                iterations,
                warmup,
                status,
                message,
                failureKind,
                bandwidthGBps,
                opsPerSecond,
                avgLatencyUs,
                p50Us,
                p99Us,
                p999Us,
                maxUs,
                validation,
                verdicts,
                criteria,
                criterionGBps,
                linkGBps,
                hostOtherCpus,
                hostCpus,
                targetOtherCpus,
                targetCpus,
                attempts,
                rails,
                timestamp);
    }

    /**
     * This record with {@code figure} in its bandwidth's place and no bandwidth criterion or link rate:
     * how a chart draws operations per second (of atomics, or of a sweep of small messages) with the
     * bandwidth chart's code.
     */
    public PointRecord withFigure(Double figure) {
        return withFigure(figure, rails);
    }

    /** {@link #withFigure(Double)} with the rails' figures in their bandwidths' place too ({@code rails}). */
    public PointRecord withFigure(Double figure, List<Rail> rails) {
        return new PointRecord(
                schema,
                uniqueId,
                sweep,
                testClass,
                method,
                name,
                op,
                size,
                batch,
                qps,
                pipeline,
                transport,
                device,
                memory,
                layout,
                offset,
                mode,
                iterations,
                warmup,
                status,
                message,
                failureKind,
                figure,
                opsPerSecond,
                avgLatencyUs,
                p50Us,
                p99Us,
                p999Us,
                maxUs,
                validation,
                verdicts,
                criteria,
                null,
                null,
                hostOtherCpus,
                hostCpus,
                targetOtherCpus,
                targetCpus,
                attempts,
                rails,
                timestamp);
    }

    /**
     * Whether the point's op is an atomic (fetch-add, compare-swap): 8 bytes an op, whose figure is its
     * rate. Records of every op carry {@code opsPerSecond} now, so it no longer tells atomics apart.
     */
    public boolean atomic() {
        return java.util.Arrays.stream(dev.linkproof.transfer.Op.values())
                .anyMatch(o -> o.atomic() && o.label().equals(op));
    }

    /** This record with the kind of its failure or skip ({@code null}: it passed). */
    public PointRecord withFailureKind(dev.linkproof.transfer.FailureKind kind) {
        return new PointRecord(
                schema,
                uniqueId,
                sweep,
                testClass,
                method,
                name,
                op,
                size,
                batch,
                qps,
                pipeline,
                transport,
                device,
                memory,
                layout,
                offset,
                mode,
                iterations,
                warmup,
                status,
                message,
                kind == null ? null : kind.name(),
                bandwidthGBps,
                opsPerSecond,
                avgLatencyUs,
                p50Us,
                p99Us,
                p999Us,
                maxUs,
                validation,
                verdicts,
                criteria,
                criterionGBps,
                linkGBps,
                hostOtherCpus,
                hostCpus,
                targetOtherCpus,
                targetCpus,
                attempts,
                rails,
                timestamp);
    }

    /**
     * Whether the point was measured and its data validated (checksums, and receive completions where
     * the target checks them), whatever the verdict on its performance.
     */
    public boolean validated() {
        return bandwidthGBps != null && validation != null && validation.startsWith(Validation.VALID);
    }

    public boolean failed() {
        return "failed".equals(status) || "broken".equals(status);
    }
}
