package dev.linkproof.engine.reporting;

import dev.linkproof.engine.api.SweepPoint;
import dev.linkproof.engine.config.ConfigurationException;
import dev.linkproof.engine.config.Constants;
import dev.linkproof.engine.config.LinkproofConfiguration;
import dev.linkproof.engine.config.PrometheusSettings;
import dev.linkproof.engine.failure.Failures;
import dev.linkproof.engine.judging.Judgement;
import dev.linkproof.engine.judging.RunProfile;
import dev.linkproof.fleet.blame.Blame;
import dev.linkproof.fleet.blame.PairOutcome;
import dev.linkproof.fleet.blame.Point;
import dev.linkproof.reports.allure.AllureBridge;
import dev.linkproof.reports.allure.RunFiles;
import dev.linkproof.reports.fleet.FleetHeatMap;
import dev.linkproof.reports.fleet.FleetHistory;
import dev.linkproof.reports.fleet.FleetPrometheus;
import dev.linkproof.reports.fleet.FleetRunInfo;
import dev.linkproof.reports.fleet.FleetVerdictFile;
import dev.linkproof.reports.prometheus.Exposition;
import dev.linkproof.reports.prometheus.PointLabels;
import dev.linkproof.reports.prometheus.PointMetrics;
import dev.linkproof.reports.prometheus.Pushgateway;
import dev.linkproof.reports.prometheus.RunMetrics;
import dev.linkproof.reports.results.PointRecord;
import dev.linkproof.reports.results.ResultsFile;
import dev.linkproof.transfer.FailureKind;
import dev.linkproof.transfer.TransferSpec;
import dev.linkproof.transfer.measure.HostContention;
import dev.linkproof.transfer.measure.Measurement;
import io.prometheus.metrics.model.snapshots.MetricSnapshots;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import org.junit.platform.engine.TestExecutionResult;

/**
 * Everything a run reports besides Surefire's view: the JSON-lines results, the Allure labels,
 * parameters, steps and attachments of each point, a chart and CSV per sweep, and the run-level
 * Allure files. It writes down what the judge decided ({@link Judgement}) and decides nothing.
 */
public final class RunReporter implements AutoCloseable {
    /** Started by {@link #open}, once the run's configuration and profile have loaded. */
    private volatile ResultsFile results;

    private final LinkproofConfiguration config;
    private final Map<String, List<PointRecord>> sweeps = new ConcurrentHashMap<>();
    private final Map<String, List<String>> sweepUuids = new ConcurrentHashMap<>();
    /**
     * The run's profile. Always loaded: a profile that does not load is an error-level discovery
     * issue, and JUnit executes nothing of an engine with one, so no reporter exists without it.
     */
    private final RunProfile profile;

    private volatile boolean anyPoint;
    /** Every point recorded, with its labels, for the run's Prometheus metrics. */
    private final List<PointMetrics.Entry> metrics = java.util.Collections.synchronizedList(new ArrayList<>());
    /** A fleet run's metrics, once its verdicts are in. */
    private volatile MetricSnapshots fleetMetrics;
    /** What went wrong writing down the run that does not fail it (a push the gateway refused), for the run's summary. */
    private final List<String> warnings = new java.util.concurrent.CopyOnWriteArrayList<>();

    public RunReporter(LinkproofConfiguration config, RunProfile profile) {
        this.config = config;
        this.profile = java.util.Objects.requireNonNull(profile, "profile");
    }

    /**
     * Starts the results file, replacing the previous run's: only once the run's configuration and
     * profile have loaded, so a run that stops on them leaves the previous results in place (and
     * {@code linkproof.baseline} may name the file this run replaces: the judge read it at discovery).
     * A results file that cannot be created is a {@link ConfigurationException} naming the key and the file.
     */
    public void open() {
        try {
            results = ResultsFile.create(config.results());
        } catch (UncheckedIOException | java.nio.file.InvalidPathException e) {
            throw new ConfigurationException(Constants.RESULTS + "=" + config.results() + ": " + e.getMessage(), e);
        }
    }

    public void pointStarted(String sweepId, String method, SweepPoint point) {
        anyPoint = true;
        AllureBridge.currentTestCase()
                .ifPresent(uuid -> sweepUuids
                        .computeIfAbsent(sweepId, k -> new ArrayList<>())
                        .add(uuid));
        AllureBridge.pointStarted(placed(point), profile.id(), method);
    }

    /**
     * The point's spec with its GPUs those the profile provides ({@link dev.linkproof.engine.judging.ProfilePlacement#placeGpus}): what a
     * record or report of a point that was not measured (it failed, or was skipped) shows as its
     * memory, as a measured one shows the spec it ran with.
     */
    private TransferSpec placed(SweepPoint point) {
        return profile.placement().placeGpus(point.spec());
    }

    /**
     * What a point of several rails says of how they were placed, as the Allure parameter "rail GPUs":
     * a rail whose GPU is not NUMA-local to its NIC, and why (RailPlan's notes).
     */
    public void railNotes(List<String> notes) {
        AllureBridge.pointParameter("rail GPUs", String.join("; ", notes));
    }

    /** Reports a point's last attempt: its figures, verdicts and, in Allure, host load and attempts. */
    public void accept(Measurement m, Judgement judgement) {
        AllureBridge.pointMeasured(m, judgement.verdicts(), judgement.criteria());
        judgement.hosts().initiator().ifPresent(h -> AllureBridge.pointParameter("host load", load(h)));
        judgement.hosts().target().ifPresent(h -> AllureBridge.pointParameter("target host load", load(h)));
        if (judgement.attempts() > 1) {
            AllureBridge.pointParameter("attempts", Integer.toString(judgement.attempts()));
        }
        judgement.baselineChange().ifPresent(c -> AllureBridge.pointParameter("vs baseline", c));
    }

    private static String load(HostContention h) {
        return String.format(
                java.util.Locale.ROOT, "other %.2f, ours %.2f of %d CPUs", h.otherCpus(), h.ownCpus(), h.cpus());
    }

    public void pointFinished(
            String uniqueId,
            String sweepId,
            Class<?> testClass,
            String method,
            SweepPoint point,
            Measurement m,
            Judgement judgement,
            TestExecutionResult result) {
        String status = status(result);
        String message = result.getThrowable().map(Throwable::getMessage).orElse(null);
        PointRecord r = PointRecord.of(
                uniqueId,
                sweepId,
                testClass.getName(),
                method,
                point.displayName(),
                placed(point),
                m,
                status,
                message,
                judgement == null ? List.of() : judgement.verdicts(),
                judgement == null ? null : judgement.criteria(),
                judgement == null ? null : judgement.criterionGBps(),
                linkGBps());
        r = r.withFailureKind(Failures.kindOf(result).orElse(null));
        record(
                point,
                judgement == null
                        ? r
                        : r.withHostLoads(
                                judgement
                                        .hosts()
                                        .initiator()
                                        .map(HostContention::otherCpus)
                                        .orElse(null),
                                judgement
                                        .hosts()
                                        .initiator()
                                        .map(HostContention::cpus)
                                        .orElse(null),
                                judgement
                                        .hosts()
                                        .target()
                                        .map(HostContention::otherCpus)
                                        .orElse(null),
                                judgement
                                        .hosts()
                                        .target()
                                        .map(HostContention::cpus)
                                        .orElse(null),
                                judgement.attempts()));
    }

    /**
     * A point's status as the results file, Allure and the run summary name it: passed, skipped, failed
     * (an {@link AssertionError}: a verdict or the method's own check) or broken (anything else).
     */
    public static String status(TestExecutionResult result) {
        return switch (result.getStatus()) {
            case SUCCESSFUL -> "passed";
            case ABORTED -> "skipped";
            case FAILED ->
                result.getThrowable().filter(t -> t instanceof AssertionError).isPresent() ? "failed" : "broken";
        };
    }

    public void pointSkipped(
            String uniqueId, String sweepId, Class<?> testClass, String method, SweepPoint point, String reason) {
        record(
                point,
                PointRecord.of(
                                uniqueId,
                                sweepId,
                                testClass.getName(),
                                method,
                                point.displayName(),
                                placed(point),
                                null,
                                "skipped",
                                reason,
                                List.of(),
                                null,
                                linkGBps())
                        .withFailureKind(FailureKind.UNAVAILABLE));
    }

    private Double linkGBps() {
        return profile.criteria().linkGBps().orElse(null);
    }

    private void record(SweepPoint point, PointRecord r) {
        if (results == null) {
            throw new IllegalStateException("the results file is not open (RunReporter.open)");
        }
        results.append(r);
        sweeps.computeIfAbsent(r.sweep(), k -> new ArrayList<>()).add(r);
        metrics.add(new PointMetrics.Entry(PointLabels.of(r, point.rails()), r));
    }

    /**
     * A sweep's end: its CSV and charts attached to Allure; returned, name → (media type, content),
     * for the engine to publish as file entries too. Empty for a sweep without points.
     */
    public Map<String, Map.Entry<String, String>> sweepFinished(String sweepId, String name) {
        List<PointRecord> points = sweeps.getOrDefault(sweepId, List.of());
        List<String> uuids = sweepUuids.getOrDefault(sweepId, List.of());
        if (points.isEmpty()) {
            AllureBridge.sweepFinished(name, uuids, points, "", "");
            return Map.of();
        }
        // Made once, for Allure's attachments and the published file entries alike.
        String csv = dev.linkproof.reports.results.SweepCsv.of(points);
        String chart = dev.linkproof.reports.chart.BandwidthChart.svg(name, points);
        AllureBridge.sweepFinished(name, uuids, points, csv, chart);
        Map<String, Map.Entry<String, String>> files = new java.util.LinkedHashMap<>();
        files.put("sweep.csv", Map.entry("text/csv", csv));
        files.put("bandwidth.svg", Map.entry("image/svg+xml", chart));
        return files;
    }

    /**
     * A fleet run's end: its verdicts on the console; fleet-verdict.json at {@code verdictFile} for
     * automation (and the same document as the results file's last line), a node × node bandwidth heat
     * map per point beside it, and fleet.prom (the fleet's Prometheus metrics, which the run's end also
     * writes to a textfile directory or pushes where configured); returns what the verdict tests attach
     * to the Allure report.
     *
     * @param labels each point's labels in the metrics
     */
    public FleetReport fleetFinished(
            FleetRunInfo run,
            Path verdictFile,
            Optional<Path> history,
            Blame blame,
            List<PairOutcome> outcomes,
            java.util.function.Function<Point, PointLabels> labels,
            java.util.function.Consumer<String> out) {
        StringBuilder lines = new StringBuilder(
                blame.blamesNobody()
                        ? "verdict: the fleet of " + blame.nodes().size() + " nodes blames nobody"
                        : blame.verdicts().size() + " verdict(s) over "
                                + blame.nodes().size() + " nodes:");
        for (var v : blame.verdicts()) {
            lines.append("\n  ").append(v.describe());
            v.evidence().forEach(e -> lines.append("\n      ").append(e.describe()));
            if (v.evidenceOmitted() > 0) {
                lines.append("\n      … and ").append(v.evidenceOmitted()).append(" more run(s) in the verdict file");
            }
        }
        out.accept(lines.toString());
        // One document: the file, the results file's last line and the Allure attachment.
        dev.linkproof.reports.fleet.FleetVerdictDocument document =
                dev.linkproof.reports.fleet.FleetVerdictDocument.of(run, blame);
        Path written = FleetVerdictFile.writeFile(verdictFile, document);
        if (results != null) {
            results.appendDocument(document);
        }
        Path folder = written.toAbsolutePath().getParent();
        Map<String, String> heatMaps = new LinkedHashMap<>();
        java.util.Set<Point> points = new java.util.LinkedHashSet<>();
        outcomes.forEach(o -> points.add(o.point()));
        int i = 0;
        for (Point p : points) {
            String svg = FleetHeatMap.svg(p, outcomes, blame);
            heatMaps.put(p.name(), svg);
            writeQuietly(folder.resolve("fleet-heatmap-" + (++i) + ".svg"), svg);
        }
        fleetMetrics = FleetPrometheus.snapshots(outcomes, blame, labels, run.finished());
        FleetPrometheus.write(folder.resolve("fleet.prom"), fleetMetrics);
        history.ifPresent(dir -> out.accept("kept in the fleet history: " + FleetHistory.keep(dir, document)));
        out.accept("verdicts in " + written + ", heat maps and fleet.prom beside it");
        return new FleetReport(FleetVerdictFile.json(document), heatMaps);
    }

    /** What the Allure report shows of a fleet run: the verdict document and the heat maps by point. */
    public record FleetReport(String verdictJson, Map<String, String> heatMaps) {
        /** Attaches both to the Allure test case running on this thread. */
        public void attach() {
            AllureBridge.attach(
                    "fleet-verdict.json", "application/json", "json", verdictJson.getBytes(StandardCharsets.UTF_8));
            heatMaps.forEach((point, svg) -> AllureBridge.attach(
                    "heat map: " + point, "image/svg+xml", "svg", svg.getBytes(StandardCharsets.UTF_8)));
        }
    }

    private static void writeQuietly(Path file, String text) {
        try {
            Files.writeString(file, text);
        } catch (java.io.IOException e) {
            throw new java.io.UncheckedIOException("cannot write " + file + ": " + e.getMessage(), e);
        }
    }

    /**
     * Writes the run-level files, and the run's Prometheus metrics where {@code linkproof.prometheus.*}
     * sends them; a run that ran no point writes no run file, and one that recorded no point no metrics.
     */
    @Override
    public void close() {
        if (results != null) {
            results.close();
        }
        try {
            exportMetrics();
        } catch (RuntimeException e) {
            warnings.add("the run's Prometheus metrics were not exported: " + e);
        }
        if (!anyPoint) {
            return;
        }
        RunFiles.writeAll(RunFiles.resultsDirectory(), environment(), System.getenv());
    }

    /** What went wrong writing down the run without failing it, one line each: for the run's summary. */
    public List<String> warnings() {
        return List.copyOf(warnings);
    }

    /**
     * The run's metrics, at its end: a fleet's families, else its points', and the run's own (points
     * by status, when it ended); written into the textfile directory, pushed to the Pushgateway. A
     * write or push that fails is a warning naming where and why: the run's verdicts stand.
     */
    private void exportMetrics() {
        PrometheusSettings prometheus = config.prometheus();
        List<PointMetrics.Entry> points;
        synchronized (metrics) {
            points = List.copyOf(metrics);
        }
        if (prometheus.textfile().isEmpty() && prometheus.pushgateway().isEmpty()
                || points.isEmpty() && fleetMetrics == null) {
            return;
        }
        MetricSnapshots all = Exposition.merge(
                fleetMetrics != null ? fleetMetrics : PointMetrics.of(points),
                RunMetrics.of(points.stream().map(p -> p.record().status()).toList(), java.time.Instant.now()));
        prometheus.textfile().ifPresent(dir -> {
            Path file = dir.resolve(PrometheusSettings.TEXTFILE_NAME);
            try {
                Exposition.writeAtomically(file, all);
            } catch (UncheckedIOException e) {
                warnings.add("the run's metrics were not written to " + file + " (" + Constants.PROMETHEUS_TEXTFILE
                        + "): " + e.getCause().getMessage());
            }
        });
        prometheus.pushgateway().ifPresent(gateway -> {
            Pushgateway.Result pushed = gateway.push(all);
            if (!pushed.ok()) {
                warnings.add("the run's metrics were not pushed to the Pushgateway at " + pushed.url() + " ("
                        + Constants.PROMETHEUS_PUSHGATEWAY + "): " + pushed.describe());
            }
        });
    }

    /**
     * Allure's {@code environment.properties}: the profile, and the host as the probe the profile was
     * matched against saw it, so a fake tree under {@code linkproof.probe.root} is what the report
     * describes too.
     */
    Map<String, String> environment() {
        Map<String, String> env = new LinkedHashMap<>();
        env.put("profile", profile.describe());
        try {
            env.putAll(profile.probe().environment());
            // Say so when there is no NIC or GPU, rather than leave the reader to guess.
            if (env.keySet().stream().noneMatch(k -> k.startsWith("rdma."))) {
                env.put("rdma", "none (no RDMA device: model, firmware, driver and link rate n/a)");
            }
            if (env.keySet().stream().noneMatch(k -> k.startsWith("gpu."))) {
                env.put("gpu", "none");
            }
        } catch (RuntimeException e) {
            env.put("probe", "failed: " + e.getMessage());
        }
        env.put("jdk", System.getProperty("java.vm.vendor") + " " + Runtime.version());
        return env;
    }
}
