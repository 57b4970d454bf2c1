package dev.linkproof.engine;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.platform.engine.discovery.DiscoverySelectors.selectClass;

import com.sun.net.httpserver.HttpServer;
import dev.linkproof.engine.config.Constants;
import dev.linkproof.engine.fixtures.FleetFixture;
import dev.linkproof.engine.fixtures.PrometheusFixture;
import dev.linkproof.fleet.blame.VerdictKind;
import dev.linkproof.reports.fleet.FleetPrometheus;
import dev.linkproof.reports.prometheus.PointMetrics;
import dev.linkproof.reports.prometheus.RunMetrics;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.net.InetSocketAddress;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.junit.platform.engine.TestExecutionResult;
import org.junit.platform.testkit.engine.EngineExecutionResults;
import org.junit.platform.testkit.engine.EngineTestKit;

/**
 * The run's Prometheus metrics as Prometheus' own tools take them: a fleet run's and a run of one
 * pair's exposition pass {@code promtool check metrics} (and a misnamed metric does not), a fleet
 * run pushes through {@code linkproof.prometheus.pushgateway} to a real Pushgateway that serves its
 * series back with the group's labels, and a gateway that refuses the push is a warning, not a
 * failed run.
 */
@Timeout(180)
class PrometheusExportTest {
    static final String TOKEN = "prometheus-export-test-token-0123";

    @TempDir
    Path dir;

    private final LoopbackFleet fleet = new LoopbackFleet(TOKEN);

    @AfterEach
    void stop() {
        fleet.close();
    }

    private static List<String> failed(EngineExecutionResults r) {
        return r.testEvents().failed().stream()
                .map(e -> e.getTestDescriptor().getDisplayName() + ": "
                        + e.getRequiredPayload(TestExecutionResult.class)
                                .getThrowable()
                                .map(Throwable::getMessage)
                                .orElse(""))
                .toList();
    }

    /** The samples of {@code family} in an exposition (lines that start with its name and a brace or a space). */
    private static List<String> samples(String text, String family) {
        return text.lines()
                .filter(l -> l.startsWith(family + "{") || l.startsWith(family + " "))
                .toList();
    }

    @Test
    void aFleetRunsMetricsPassPromtoolAndRoundTripThroughARealPushgateway() throws Exception {
        try (PrometheusTools.Pushgateway gateway = PrometheusTools.Pushgateway.start(dir)) {
            int port = LoopbackFleet.freePort();
            fleet.start(port, "n1", "n2", "n3", "n4");
            Path textfile = dir.resolve("textfile");
            Map<String, String> config = fleet.config(port, "n1,n2,n3,n4", dir, "10s");
            config.put(Constants.PROMETHEUS_TEXTFILE, textfile.toString());
            config.put(Constants.PROMETHEUS_PUSHGATEWAY, gateway.url().toString());
            config.put(Constants.PROMETHEUS_JOB, "linkproof-fleet");
            config.put(Constants.PROMETHEUS_GROUPING, "cluster=ci,instance=coordinator");
            EngineExecutionResults r = EngineTestKit.engine(Constants.ENGINE_ID)
                    .selectors(selectClass(FleetFixture.class))
                    .configurationParameters(config)
                    .execute();
            assertThat(failed(r)).isEmpty();

            // fleet.prom beside the verdicts, and linkproof.prom in the textfile directory: both pass promtool.
            String fleetProm = Files.readString(dir.resolve("fleet.prom"));
            String text = Files.readString(textfile.resolve("linkproof.prom"));
            for (String exposition : List.of(fleetProm, text)) {
                PrometheusTools.Check check = PrometheusTools.promtool(exposition);
                assertThat(check.passed())
                        .as("promtool check metrics: %s%n%s", check.output(), exposition)
                        .isTrue();
                assertThat(check.output()).isBlank();
            }
            try (var files = Files.list(textfile)) {
                assertThat(files).extracting(f -> f.getFileName().toString()).containsExactly("linkproof.prom");
            }
            // Twelve directed pairs of one point; every node has a series for every verdict kind, all 0 on a clean
            // fleet.
            assertThat(samples(text, FleetPrometheus.BANDWIDTH))
                    .hasSize(12)
                    .allSatisfy(l -> assertThat(l)
                            .contains(
                                    "op=\"write\"",
                                    "size_bytes=\"65536\"",
                                    "transport=\"tcp\"",
                                    "memory=\"host->host\"",
                                    "rails=\"1\"",
                                    "test=\"FleetFixture.write\"",
                                    "point=\"write 64 KiB ×2 · 1 conn · tcp\"")
                            .doesNotContain("[engine:"));
            assertThat(samples(text, FleetPrometheus.OPERATIONS)).hasSize(12);
            assertThat(samples(text, FleetPrometheus.LATENCY))
                    .hasSize(12)
                    .allSatisfy(l -> assertThat(l).contains("statistic=\"average\""));
            assertThat(samples(text, FleetPrometheus.NODE_VERDICT))
                    .hasSize(4 * VerdictKind.values().length)
                    .allSatisfy(l -> assertThat(l).endsWith(" 0.0"));
            assertThat(samples(text, FleetPrometheus.LAST_RUN)).hasSize(1);
            assertThat(samples(text, RunMetrics.POINTS))
                    .contains(
                            RunMetrics.POINTS + "{status=\"passed\"} 12.0",
                            RunMetrics.POINTS + "{status=\"failed\"} 0.0");
            assertThat(samples(text, PointMetrics.BANDWIDTH))
                    .as("a fleet's points are its pairs'")
                    .isEmpty();

            // The Pushgateway has them, under the group's labels.
            HttpResponse<String> metrics = gateway.get("/metrics");
            assertThat(metrics.statusCode()).isEqualTo(200);
            List<String> pushed = samples(metrics.body(), FleetPrometheus.BANDWIDTH);
            assertThat(pushed)
                    .hasSize(12)
                    .allSatisfy(l -> assertThat(l)
                            .contains(
                                    "job=\"linkproof-fleet\"",
                                    "instance=\"coordinator\"",
                                    "cluster=\"ci\"",
                                    "op=\"write\"",
                                    "size_bytes=\"65536\""));
            assertThat(pushed).anySatisfy(l -> assertThat(l).contains("src=\"n1\"", "dst=\"n2\""));
            assertThat(samples(metrics.body(), FleetPrometheus.NODE_VERDICT))
                    .hasSize(4 * VerdictKind.values().length)
                    .anySatisfy(l -> assertThat(l)
                            .contains("node=\"n3\"", "kind=\"bad-node\"")
                            .endsWith(" 0"));
            assertThat(samples(metrics.body(), FleetPrometheus.LAST_RUN))
                    .singleElement()
                    .asString()
                    .contains("job=\"linkproof-fleet\"");
            // The API names the group as pushed.
            HttpResponse<String> api = gateway.get("/api/v1/metrics");
            assertThat(api.statusCode()).isEqualTo(200);
            var groups = new com.fasterxml.jackson.databind.ObjectMapper()
                    .readTree(api.body())
                    .get("data");
            assertThat(groups).hasSize(1);
            assertThat(groups.get(0).get("labels").toString())
                    .contains("\"job\":\"linkproof-fleet\"", "\"instance\":\"coordinator\"", "\"cluster\":\"ci\"");
            assertThat(groups.get(0).get(FleetPrometheus.BANDWIDTH).get("metrics"))
                    .hasSize(12);
        }
    }

    /** A run of {@link PrometheusFixture}: two passing points, a latency point, a failing one and a skipped one. */
    private EngineExecutionResults singlePairRun(String... keyValues) {
        EngineTestKit.Builder kit = EngineTestKit.engine(Constants.ENGINE_ID)
                .selectors(selectClass(PrometheusFixture.class))
                .configurationParameter(
                        Constants.RESULTS, dir.resolve("results.jsonl").toString())
                .configurationParameter(
                        Constants.AGENT_LOG, dir.resolve("agent.log").toString());
        for (int i = 0; i < keyValues.length; i += 2) {
            kit = kit.configurationParameter(keyValues[i], keyValues[i + 1]);
        }
        return kit.execute();
    }

    @Test
    void aSinglePairRunsMetricsPassPromtoolAndAMisnamedMetricDoesNot() throws Exception {
        Path textfile = dir.resolve("textfile");
        EngineExecutionResults r =
                singlePairRun(Constants.PROGRESS, "false", Constants.PROMETHEUS_TEXTFILE, textfile.toString());
        r.testEvents().assertStatistics(s -> s.succeeded(3).failed(1).skipped(1));
        String text = Files.readString(textfile.resolve("linkproof.prom"));
        PrometheusTools.Check check = PrometheusTools.promtool(text);
        assertThat(check.passed())
                .as("promtool check metrics: %s%n%s", check.output(), text)
                .isTrue();

        // The two write points share op, size, transport, memory and rails; their names keep their series apart.
        assertThat(samples(text, PointMetrics.BANDWIDTH))
                .filteredOn(l -> l.contains("test=\"PrometheusFixture.write\""))
                .extracting(l -> l.replaceAll(".*point=\"([^\"]*)\".*", "$1"))
                .containsExactlyInAnyOrder("write 4 KiB ×1 · 1 conn · tcp", "write 4 KiB ×2 · 1 conn · tcp");
        assertThat(samples(text, PointMetrics.BANDWIDTH))
                .allSatisfy(l -> assertThat(l)
                        .contains("size_bytes=", "op=", "transport=\"tcp\"", "memory=\"host->host\"", "rails=\"1\""));
        // The latency point has its percentiles; a bandwidth point its average alone; the skipped point no figure.
        assertThat(samples(text, PointMetrics.LATENCY))
                .filteredOn(l -> l.contains("test=\"PrometheusFixture.latency\""))
                .extracting(l -> l.replaceAll(".*statistic=\"([^\"]*)\".*", "$1"))
                .containsExactlyInAnyOrder("average", "p50", "p99", "p99.9", "max");
        assertThat(samples(text, PointMetrics.LATENCY))
                .filteredOn(l -> l.contains("point=\"write 4 KiB ×1 · 1 conn · tcp\""))
                .singleElement()
                .asString()
                .contains("statistic=\"average\"");
        assertThat(text).doesNotContain("warp-drive");
        assertThat(samples(text, PointMetrics.OPERATIONS)).hasSize(4);
        assertThat(samples(text, RunMetrics.POINTS))
                .containsExactlyInAnyOrder(
                        RunMetrics.POINTS + "{status=\"passed\"} 3.0",
                        RunMetrics.POINTS + "{status=\"failed\"} 1.0",
                        RunMetrics.POINTS + "{status=\"broken\"} 0.0",
                        RunMetrics.POINTS + "{status=\"skipped\"} 1.0");
        assertThat(samples(text, RunMetrics.LAST_RUN))
                .singleElement()
                .asString()
                .satisfies(l -> assertThat(Double.parseDouble(l.substring(l.indexOf(' ') + 1)))
                        .isCloseTo(System.currentTimeMillis() / 1e3, org.assertj.core.data.Offset.offset(300.0)));
        assertThat(text).doesNotContain(FleetPrometheus.BANDWIDTH);

        // An injected fault: the unit abbreviated as the old names had it. promtool catches it, so the check above can
        // fail.
        PrometheusTools.Check misnamed =
                PrometheusTools.promtool(text.replace(PointMetrics.LATENCY, "linkproof_point_latency_us"));
        assertThat(misnamed.passed()).isFalse();
        assertThat(misnamed.output()).contains("linkproof_point_latency_us", "abbreviated units");
    }

    @Test
    void aPushgatewayThatAnswers500IsAWarningNamingItNotAFailedRun() throws Exception {
        List<String> requests = new CopyOnWriteArrayList<>();
        HttpServer server = HttpServer.create(new InetSocketAddress(java.net.InetAddress.getLoopbackAddress(), 0), 0);
        server.createContext("/", exchange -> {
            requests.add(exchange.getRequestMethod() + " " + exchange.getRequestURI() + " "
                    + exchange.getRequestHeaders().getFirst("Content-Type") + " "
                    + new String(exchange.getRequestBody().readAllBytes(), StandardCharsets.UTF_8)
                            .contains(PointMetrics.BANDWIDTH));
            byte[] body = "pushing metrics failed: the disk is full\nsecond line".getBytes(StandardCharsets.UTF_8);
            exchange.sendResponseHeaders(500, body.length);
            exchange.getResponseBody().write(body);
            exchange.close();
        });
        server.start();
        PrintStream original = System.out;
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        String url = "http://127.0.0.1:" + server.getAddress().getPort();
        EngineExecutionResults r;
        try {
            System.setOut(new PrintStream(out, true, StandardCharsets.UTF_8));
            r = singlePairRun(Constants.PROMETHEUS_PUSHGATEWAY, url, Constants.PROMETHEUS_GROUPING, "instance=runner1");
        } finally {
            System.setOut(original);
            server.stop(0);
        }
        // The points stand as they were judged; the push's failure is the run summary's warning.
        r.testEvents().assertStatistics(s -> s.succeeded(3).failed(1).skipped(1));
        r.containerEvents().assertStatistics(s -> s.failed(0));
        assertThat(requests)
                .containsExactly(
                        "PUT /metrics/job/linkproof/instance/runner1 text/plain; version=0.0.4; charset=utf-8 true");
        assertThat(out.toString(StandardCharsets.UTF_8))
                .contains("[linkproof] WARNING the run's metrics were not pushed to the "
                        + "Pushgateway at " + url
                        + "/metrics/job/linkproof/instance/runner1 (linkproof.prometheus.pushgateway): HTTP 500 "
                        + "(pushing metrics failed: the disk is full)");
    }

    @Test
    void aMalformedPushgatewayUrlStopsTheRunAtDiscovery() {
        EngineExecutionResults r = EngineTestKit.engine(Constants.ENGINE_ID)
                .selectors(selectClass(PrometheusFixture.class))
                .configurationParameter(Constants.PROGRESS, "false")
                .configurationParameter(
                        Constants.RESULTS, dir.resolve("results.jsonl").toString())
                .configurationParameter(Constants.PROMETHEUS_PUSHGATEWAY, "pushgateway:9091")
                .configurationParameter(Constants.PROMETHEUS_GROUPING, "instance")
                .execute();
        assertThat(ConfigurationErrorTest.engineFailure(r))
                .contains(Constants.PROMETHEUS_PUSHGATEWAY + "=pushgateway:9091 is not an " + "http:// or https:// URL")
                .contains(Constants.PROMETHEUS_GROUPING + "=instance: 'instance' is not name=value");
        assertThat(r.testEvents().started().count()).isZero();
    }
}
