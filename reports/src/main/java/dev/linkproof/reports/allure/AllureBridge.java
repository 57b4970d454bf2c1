package dev.linkproof.reports.allure;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import dev.linkproof.reports.chart.BandwidthChart;
import dev.linkproof.reports.results.PointRecord;
import dev.linkproof.transfer.Layout;
import dev.linkproof.transfer.TransferSpec;
import dev.linkproof.transfer.Units;
import dev.linkproof.transfer.measure.Measurement;
import dev.linkproof.transfer.measure.Phases;
import dev.linkproof.transfer.measure.RailResult;
import io.qameta.allure.Allure;
import io.qameta.allure.AllureLifecycle;
import io.qameta.allure.model.Attachment;
import io.qameta.allure.model.FixtureResult;
import io.qameta.allure.model.Label;
import io.qameta.allure.model.Parameter;
import io.qameta.allure.model.Stage;
import io.qameta.allure.model.Status;
import io.qameta.allure.model.StepResult;
import io.qameta.allure.model.TestResultContainer;
import java.io.ByteArrayInputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Supplier;

/**
 * Writes what Allure's JUnit Platform listener cannot know (docs/reports.md, "Allure"): per point labels, parameters
 * (dimensions and figures: parameters do not enter Allure's history id), phases as steps, the measurement as JSON
 * (and each rail's, for a point of rails) and the verdicts; per sweep a container whose tear-down carries the CSV and
 * chart. Each call runs on the point's thread and does nothing when no Allure test case runs there. Attachment files
 * are written on one daemon thread: writing two cost every point ~0.35 ms of its own thread on a loaded host
 * (bench/engine-overhead.sh). {@link #sweepFinished} and {@link #awaitWrites} wait for them; a file that could not be
 * written fails the next point or sweep that reports, naming the cause.
 */
public final class AllureBridge {
    private static final ObjectMapper JSON = new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT);
    private static final ExecutorService WRITES = Executors.newSingleThreadExecutor(
            Thread.ofPlatform().daemon().name("linkproof-allure-writes").factory());
    /** The first write that failed, until a point or sweep reports it. */
    private static final AtomicReference<RuntimeException> FAILED = new AtomicReference<>();

    private AllureBridge() {}

    /** The uuid of the Allure test case running on this thread, if any. */
    public static Optional<String> currentTestCase() {
        try {
            return lifecycle().getCurrentTestCase();
        } catch (RuntimeException | LinkageError e) {
            return Optional.empty();
        }
    }

    /**
     * Attaches {@code body} to the test case running on this thread (a fleet's verdicts: the heat maps
     * and fleet-verdict.json). Nothing when no Allure listener runs.
     */
    public static void attach(String name, String type, String extension, byte[] body) {
        if (currentTestCase().isEmpty()) {
            return;
        }
        lifecycle().addAttachment(name, type, extension, body);
    }

    /** Labels and the point's dimensions, as soon as the point starts. */
    public static void pointStarted(TransferSpec spec, String profile, String method) {
        Optional<String> uuid = currentTestCase();
        if (uuid.isEmpty()) {
            return;
        }
        List<Parameter> ps = new ArrayList<>();
        String size = Units.formatSize(spec.size());
        ps.add(parameter("size", size.endsWith(" B") ? size : size + " (" + spec.size() + " B)"));
        ps.add(parameter("batch", Integer.toString(spec.batch())));
        ps.add(parameter("QPs", Integer.toString(spec.connections())));
        ps.add(parameter("pipeline depth", Integer.toString(spec.pipelineDepth())));
        ps.add(parameter("transport", spec.transport()));
        String device = spec.settings().get(dev.linkproof.transfer.verbs.VerbsSettings.DEVICE);
        if (device != null) {
            ps.add(parameter("device", device));
        }
        ps.add(parameter("memory", spec.initiatorMemory() + " → " + spec.targetMemory()));
        ps.add(parameter("mode", spec.mode().name().toLowerCase(Locale.ROOT)));
        ps.add(parameter("iterations", iterations(spec)));
        if (spec.offset() != 0) {
            ps.add(parameter("offset", spec.offset() + " B"));
        }
        // Like the offset, part of the point's unique id and of its name (" · strided") when not the default.
        if (spec.layout() != Layout.CONTIGUOUS) {
            ps.add(parameter("layout", spec.layout().name().toLowerCase(Locale.ROOT)));
        }
        // Labels and parameters in one update of the test case (each is a lookup and a lock).
        lifecycle().updateTestCase(uuid.get(), r -> {
            r.getLabels().add(new Label().setName("epic").setValue(profile));
            r.getLabels().add(new Label().setName("subSuite").setValue(method));
            r.getLabels().add(new Label().setName("feature").setValue(spec.op().label()));
            r.getLabels()
                    .add(new Label().setName("story").setValue(spec.initiatorMemory() + " → " + spec.targetMemory()));
            r.getParameters().addAll(ps);
        });
    }

    /** The measured figures, the phases as steps, the measurement and the verdicts as attachments. */
    public static void pointMeasured(Measurement m, List<String> verdicts) {
        pointMeasured(m, verdicts, List.of());
    }

    /**
     * As {@link #pointMeasured(Measurement, List)}, with the names of the profile's criteria that
     * judged the point as the parameter "criteria" ("none: validation only" when none did).
     */
    public static void pointMeasured(Measurement m, List<String> verdicts, List<String> criteria) {
        Optional<String> uuid = currentTestCase();
        if (uuid.isEmpty()) {
            return;
        }
        List<Parameter> ps = new ArrayList<>();
        ps.add(parameter("criteria", criteria.isEmpty() ? "none: validation only" : String.join(", ", criteria)));
        // Every point's message rate beside its bandwidth: an atomic's figure (8 bytes an op make its
        // bandwidth a curiosity, still given), and a small message's (perftest's Mpps). A point of
        // rails gives the aggregate's.
        ps.add(parameter("ops/s", Units.formatOps(m.opsPerSecond())));
        ps.add(parameter("bandwidth", Units.formatGBps(m.bandwidthGBps())));
        ps.add(parameter("avg latency", Units.formatMicros(m.latency().averageNanos() / 1e3)));
        if (m.latency().hasPercentiles()) {
            ps.add(parameter("p50", Units.formatMicros(m.latency().p50Nanos() / 1e3)));
            ps.add(parameter("p99", Units.formatMicros(m.latency().p99Nanos() / 1e3)));
            ps.add(parameter("p99.9", Units.formatMicros(m.latency().p999Nanos() / 1e3)));
            ps.add(parameter("max", Units.formatMicros(m.latency().maxNanos() / 1e3)));
        }
        if (!m.rails().isEmpty()) {
            RailResult slowest = m.slowestRail().orElseThrow();
            ps.add(parameter("rails", Integer.toString(m.rails().size())));
            ps.add(parameter(
                    "slowest rail",
                    slowest.name() + " "
                            + Units.formatGBps(slowest.measurement().bandwidthGBps())));
        }
        // One update of the test case for all of them: each Allure.parameter call is one (a lookup and a lock).
        lifecycle().updateTestCase(uuid.get(), r -> {
            r.getParameters().addAll(ps);
            // What ran: linkproof.duration sizes the iterations after the point started.
            r.getParameters().stream()
                    .filter(p -> p.getName().equals("iterations"))
                    .forEach(p -> p.setValue(iterations(m.spec())));
            // The GPUs it ran on: a point's gpu:k is the profile's k-th GPU (resources.gpus: [2, 3]).
            String memory = m.spec().initiatorMemory() + " → " + m.spec().targetMemory();
            r.getParameters().stream().filter(p -> p.getName().equals("memory")).forEach(p -> p.setValue(memory));
            // The device it ran on: the profile's NIC where the point named none.
            String device = m.spec().settings().get(dev.linkproof.transfer.verbs.VerbsSettings.DEVICE);
            if (device != null
                    && r.getParameters().stream().noneMatch(p -> p.getName().equals("device"))) {
                r.getParameters().add(parameter("device", device));
            }
            for (Phases.Phase p : m.phases()) {
                r.getSteps()
                        .add(new StepResult()
                                .setName(p.name() + " (" + String.format(Locale.ROOT, "%.1f ms", p.nanos() / 1e6) + ")")
                                .setStatus(Status.PASSED)
                                .setStage(Stage.FINISHED)
                                .setStart(p.startEpochMillis())
                                .setStop(p.stopEpochMillis()));
            }
            long now = System.currentTimeMillis();
            r.getSteps()
                    .add(new StepResult()
                            .setName("judge: " + (m.isValid() ? "data valid" : "data corruption"))
                            .setStatus(m.isValid() ? Status.PASSED : Status.FAILED)
                            .setStage(Stage.FINISHED)
                            .setStart(now)
                            .setStop(now));
        });
        // Shaped here (a copy of what it reads), turned into JSON on the writer thread, off the point's.
        Map<String, Object> shaped = jmhShaped(m);
        attach(
                "measurement.json",
                "application/json",
                ".json",
                () -> json(shaped).getBytes(StandardCharsets.UTF_8));
        List<String> lines = List.copyOf(verdicts);
        attach(
                "verdicts.txt",
                "text/plain",
                ".txt",
                () -> (String.join("\n", lines) + "\n").getBytes(StandardCharsets.UTF_8));
        if (!m.rails().isEmpty()) {
            // Shaped on the writer thread too: a rail's measurement is immutable (records, copied lists
            // and maps), and eight of them would otherwise be eight shapings on the point's thread.
            List<PointRecord.Rail> rails = PointRecord.Rail.of(m);
            for (int i = 0; i < rails.size(); i++) {
                Measurement rail = m.rails().get(i).measurement();
                PointRecord.Rail window = rails.get(i);
                attach(
                        window.name() + ".json",
                        "application/json",
                        ".json",
                        () -> json(railShaped(rail, window)).getBytes(StandardCharsets.UTF_8));
            }
        }
    }

    /** A rail's measurement in measurement.json's shape, with which rail it was and its window among the others. */
    static Map<String, Object> railShaped(Measurement rail, PointRecord.Rail window) {
        Map<String, Object> out = new LinkedHashMap<>();
        out.put("rail", window);
        out.putAll(jmhShaped(rail));
        return out;
    }

    /**
     * Adds an attachment to the running test case now and writes its file on the writer thread, as
     * {@link AllureLifecycle#addAttachment(String, String, String, byte[])} would have on this one.
     */
    private static void attach(String name, String type, String extension, Supplier<byte[]> body) {
        reportFailedWrite();
        AllureLifecycle l = lifecycle();
        String source = l.prepareAttachment(name, type, extension);
        WRITES.execute(() -> {
            try {
                l.writeAttachment(source, new ByteArrayInputStream(body.get()));
            } catch (RuntimeException e) {
                FAILED.compareAndSet(null, e);
            }
        });
    }

    /** Waits until every attachment file handed to the writer thread is written; throws for one that was not. */
    public static void awaitWrites() {
        try {
            WRITES.submit(() -> {}).get();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while Allure's attachment files were written", e);
        } catch (ExecutionException e) {
            throw new IllegalStateException(e.getCause());
        }
        reportFailedWrite();
    }

    private static void reportFailedWrite() {
        RuntimeException e = FAILED.getAndSet(null);
        if (e != null) {
            throw new IllegalStateException(
                    "Allure could not write an attachment of an earlier point: " + e.getMessage(), e);
        }
    }

    /** One more parameter of the running point ("host load", "attempts"); nothing outside a test case. */
    public static void pointParameter(String name, String value) {
        if (currentTestCase().isPresent()) {
            Allure.parameter(name, value);
        }
    }

    /**
     * Writes a container over the sweep's points whose tear-down holds the sweep's CSV and chart.
     *
     * @param pointUuids the Allure test-case uuids of the sweep's points
     * @param csv        the sweep's SweepCsv, made once by the caller, which publishes it too
     * @param chart      its BandwidthChart.svg, likewise
     */
    public static void sweepFinished(
            String name, List<String> pointUuids, List<PointRecord> points, String csv, String chart) {
        awaitWrites();
        if (pointUuids.isEmpty() || points.isEmpty()) {
            return;
        }
        AllureLifecycle l = lifecycle();
        String csvSource = UUID.randomUUID() + "-attachment.csv";
        String svgSource = UUID.randomUUID() + "-attachment.svg";
        l.writeAttachment(csvSource, new ByteArrayInputStream(csv.getBytes(StandardCharsets.UTF_8)));
        l.writeAttachment(svgSource, new ByteArrayInputStream(chart.getBytes(StandardCharsets.UTF_8)));
        long now = System.currentTimeMillis();
        FixtureResult sweep = new FixtureResult()
                .setName("sweep: " + name + " (" + points.size() + " points)")
                .setStatus(Status.PASSED)
                .setStage(Stage.FINISHED)
                .setStart(now)
                .setStop(now);
        sweep.getAttachments()
                .add(new Attachment()
                        .setName("bandwidth chart")
                        .setType("image/svg+xml")
                        .setSource(svgSource));
        if (BandwidthChart.wantsRateChart(points)) {
            // small messages: their rate, the figure a NIC's vendor publishes, beside their bandwidth
            String rateSource = UUID.randomUUID() + "-attachment.svg";
            l.writeAttachment(
                    rateSource,
                    new ByteArrayInputStream(
                            BandwidthChart.rateSvg(name, points).getBytes(StandardCharsets.UTF_8)));
            sweep.getAttachments()
                    .add(new Attachment()
                            .setName("message rate chart")
                            .setType("image/svg+xml")
                            .setSource(rateSource));
        }
        sweep.getAttachments()
                .add(new Attachment().setName("sweep.csv").setType("text/csv").setSource(csvSource));
        String uuid = UUID.randomUUID().toString();
        TestResultContainer c = new TestResultContainer()
                .setUuid(uuid)
                .setName("sweep " + name)
                .setChildren(List.copyOf(pointUuids))
                .setStart(now)
                .setStop(now);
        c.getAfters().add(sweep);
        l.startTestContainer(c);
        l.stopTestContainer(uuid);
        l.writeTestContainer(uuid);
    }

    private static String iterations(TransferSpec spec) {
        return spec.iterations() + " (+" + spec.warmup() + " warmup)";
    }

    /** A parameter as {@code Allure.parameter} makes one, to be added with others in one update. */
    private static Parameter parameter(String name, String value) {
        return new Parameter().setName(name).setValue(value);
    }

    /** The measurement in the shape of a JMH result: primary metric with score, percentiles, raw data. */
    static Map<String, Object> jmhShaped(Measurement m) {
        Map<String, Object> out = new LinkedHashMap<>();
        TransferSpec s = m.spec();
        out.put("benchmark", s.pointId());
        out.put("mode", s.mode().name().toLowerCase(Locale.ROOT));
        Map<String, Object> params = new LinkedHashMap<>();
        params.put("op", s.op().label());
        params.put("size", s.size());
        params.put("batch", s.batch());
        params.put("qps", s.connections());
        params.put("pipeline", s.pipelineDepth());
        params.put("transport", s.transport());
        params.put("memory", s.initiatorMemory() + "->" + s.targetMemory());
        params.put("layout", s.layout().name().toLowerCase(Locale.ROOT));
        params.put("offset", s.offset());
        params.put("iterations", s.iterations());
        params.put("warmup", s.warmup());
        out.put("params", params);
        Map<String, Object> primary = new LinkedHashMap<>();
        boolean atomic = s.op().atomic();
        double score = atomic ? m.opsPerSecond() : m.bandwidthGBps();
        primary.put("score", score);
        primary.put("scoreError", Double.NaN);
        primary.put("scoreUnit", atomic ? "ops/s" : "GB/s");
        primary.put("rawData", List.of(List.of(score)));
        out.put("primaryMetric", primary);
        Map<String, Object> latency = new LinkedHashMap<>();
        latency.put("score", m.latency().averageNanos() / 1e3);
        latency.put("scoreUnit", "us/op");
        if (m.latency().hasPercentiles()) {
            Map<String, Object> pct = new LinkedHashMap<>();
            pct.put("0.0", m.latency().minNanos() / 1e3);
            pct.put("50.0", m.latency().p50Nanos() / 1e3);
            pct.put("99.0", m.latency().p99Nanos() / 1e3);
            pct.put("99.9", m.latency().p999Nanos() / 1e3);
            pct.put("100.0", m.latency().maxNanos() / 1e3);
            latency.put("scorePercentiles", pct);
            latency.put("samples", m.latency().samples());
        }
        out.put("secondaryMetrics", Map.of("latency", latency));
        out.put("bytes", m.bytes());
        out.put("totalNanos", m.totalNanos());
        // The steps' durations to the nanosecond (the step names round them to 0.1 ms, their times to 1 ms):
        // what bench/engine-overhead.sh reads a point's transfer phases from.
        List<Map<String, Object>> phases = new java.util.ArrayList<>();
        for (Phases.Phase p : m.phases()) {
            Map<String, Object> phase = new LinkedHashMap<>();
            phase.put("name", p.name());
            phase.put("start", p.startEpochMillis());
            phase.put("nanos", p.nanos());
            phases.add(phase);
        }
        out.put("phases", phases);
        out.put("validation", m.validation().describe());
        if (!m.rails().isEmpty()) {
            out.put("rails", PointRecord.Rail.of(m)); // as the results file has them
        }
        out.put("environment", new LinkedHashMap<>(m.environment()));
        return out;
    }

    private static String json(Object o) {
        try {
            return JSON.writeValueAsString(o);
        } catch (com.fasterxml.jackson.core.JsonProcessingException e) {
            throw new IllegalStateException(e);
        }
    }

    private static AllureLifecycle lifecycle() {
        return Allure.getLifecycle();
    }
}
