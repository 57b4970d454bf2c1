package dev.linkproof.conformance.e2e;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.sun.net.httpserver.HttpServer;
import com.sun.net.httpserver.SimpleFileServer;
import dev.linkproof.conformance.e2e.fixtures.ReportSweeps;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;

/**
 * The report end to end: a run of {@link ReportSweeps} in its own JVM (the Allure listener writes
 * where that JVM says), the Allure results it leaves, the HTML report Allure's command-line tool
 * makes of them checked in headless Chromium, trend data after a second run, and a third run
 * against an artificially better baseline that fails its points as regressions.
 */
@Tag("e2e")
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class ReportTest {
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final Path WORK = Path.of("target", "report-test").toAbsolutePath();
    private static final int POINTS = 6 + 1;

    @Test
    @Order(1)
    void aRunLeavesOneResultPerPointWithLabelsParametersAttachmentsAndTheRunFiles() throws Exception {
        Path results = run("run1", null);
        List<JsonNode> tests = jsonFiles(results, "-result.json");
        assertThat(tests).hasSize(POINTS);
        for (JsonNode t : tests) {
            assertThat(labels(t))
                    .contains(
                            "epic=validation-only",
                            "feature=write",
                            "story=host → host",
                            "suite=" + ReportSweeps.class.getCanonicalName(),
                            "tag=write");
            assertThat(names(t.get("parameters")))
                    .contains(
                            "size",
                            "batch",
                            "QPs",
                            "pipeline depth",
                            "transport",
                            "memory",
                            "bandwidth",
                            "ops/s",
                            "avg latency");
            // Points under 100 ms get no host figure (HostCpuMeter.MIN_WINDOW_NANOS); those that do show it whole.
            for (JsonNode p : t.get("parameters")) {
                if (p.get("name").asText().equals("host load")) {
                    assertThat(p.get("value").asText()).matches("other \\d+\\.\\d\\d, ours \\d+\\.\\d\\d of \\d+ CPUs");
                }
            }
            assertThat(names(t.get("attachments"))).containsExactlyInAnyOrder("measurement.json", "verdicts.txt");
            assertThat(names(t.get("steps")))
                    .anyMatch(s -> s.startsWith("timed loop"))
                    .anyMatch(s -> s.startsWith("verify"));
        }
        JsonNode failed = tests.stream()
                .filter(t -> t.get("status").asText().equals("failed"))
                .findFirst()
                .orElseThrow();
        assertThat(failed.get("statusDetails").get("message").asText()).contains("slot 2, byte offset 2048");

        List<JsonNode> sweeps = jsonFiles(results, "-container.json").stream()
                .filter(c -> c.has("afters") && c.get("afters").size() > 0)
                .toList();
        assertThat(sweeps).hasSize(2);
        for (JsonNode c : sweeps) {
            JsonNode atts = c.get("afters").get(0).get("attachments");
            assertThat(names(atts)).containsExactly("bandwidth chart", "sweep.csv");
            String svg =
                    Files.readString(results.resolve(atts.get(0).get("source").asText()));
            assertThat(svg).startsWith("<svg").contains("<polyline class=\"series\"");
            String csv =
                    Files.readString(results.resolve(atts.get(1).get("source").asText()));
            assertThat(csv.lines().findFirst().orElseThrow())
                    .startsWith(
                            "MsgSize(B),Batch,QPs,Depth,Op,Transport,Device,Memory,Layout,Offset(B),Iters,AvgBW(GB/s),AvgLat(us),p50(us)");
        }
        JsonNode corrupted = sweeps.stream()
                .filter(c -> c.get("children").size() == 1)
                .findFirst()
                .orElseThrow();
        assertThat(Files.readString(results.resolve(corrupted
                        .get("afters")
                        .get(0)
                        .get("attachments")
                        .get(0)
                        .get("source")
                        .asText())))
                .contains("class=\"failed\"");

        assertThat(Files.readString(results.resolve("environment.properties")))
                .contains("profile=", "stack.kernel=", "jdk=");
        assertThat(JSON.readTree(results.resolve("categories.json").toFile()).findValuesAsText("name"))
                .contains(
                        "Data corruption",
                        "Performance regression",
                        "Below criterion",
                        "Peer failure",
                        "Hardware or transport unavailable",
                        "Configuration error");
        assertThat(JSON.readTree(results.resolve("executor.json").toFile())
                        .get("name")
                        .asText())
                .isNotBlank();
        assertThat(Files.readAllLines(WORK.resolve("run1.jsonl")))
                .hasSize(POINTS)
                .allSatisfy(l -> assertThat(l).startsWith("{\"schema\":\"linkproof.results/1\""));
    }

    @Test
    @Order(2)
    void theHtmlReportRendersSuitesTheFailedPointsMessageAndTheSweepChartInChromium() throws Exception {
        Path chromium = chromium();
        Path report = generate(WORK.resolve("run1-results"), WORK.resolve("report1"));
        HttpServer server = SimpleFileServer.createFileServer(
                new InetSocketAddress("127.0.0.1", 0), report, SimpleFileServer.OutputLevel.NONE);
        server.start();
        try {
            String base = "http://127.0.0.1:" + server.getAddress().getPort() + "/index.html";
            String suites = dom(chromium, base + "#suites");
            assertThat(suites)
                    .contains(ReportSweeps.class.getCanonicalName())
                    .contains("write 4 KiB ×1 · 1 conn · tcp");

            String failedUid = null;
            try (Stream<Path> s = Files.list(report.resolve("data").resolve("test-cases"))) {
                for (Path p : s.toList()) {
                    JsonNode t = JSON.readTree(p.toFile());
                    if (t.get("status").asText().equals("failed")) {
                        failedUid = t.get("uid").asText();
                    }
                }
            }
            assertThat(failedUid).isNotNull();
            // Allure's own generator files the corrupted point by the kind its trace names: under "Data
            // corruption" and no other category (the message names no category's words).
            List<String> filedUnder = new java.util.ArrayList<>();
            for (JsonNode category : JSON.readTree(
                            report.resolve("data").resolve("categories.json").toFile())
                    .path("children")) {
                if (category.toString().contains(failedUid)) {
                    filedUnder.add(category.get("name").asText());
                }
            }
            assertThat(filedUnder).containsExactly("Data corruption");
            String failed = dom(chromium, base + "#suites/any/" + failedUid);
            assertThat(failed)
                    .contains("data corruption")
                    .contains("slot 2, byte offset 2048")
                    .contains("Tear down");

            Path svg;
            try (Stream<Path> s = Files.list(report.resolve("data").resolve("attachments"))) {
                svg = s.filter(p -> p.toString().endsWith(".svg")).findFirst().orElseThrow();
            }
            String chart = dom(
                    chromium,
                    "http://127.0.0.1:" + server.getAddress().getPort() + "/data/attachments/" + svg.getFileName());
            assertThat(chart).contains("<polyline").contains("bandwidth (GB/s");
            Path png = WORK.resolve("chart.png");
            exec(List.of(
                    chromium.toString(),
                    "--headless",
                    "--no-sandbox",
                    "--disable-gpu",
                    "--disable-quic",
                    "--no-first-run",
                    "--disable-background-networking",
                    "--disable-component-update",
                    "--disable-sync",
                    "--user-data-dir=" + WORK.resolve("chromium-profile"),
                    "--window-size=780,440",
                    "--screenshot=" + png,
                    "http://127.0.0.1:" + server.getAddress().getPort() + "/data/attachments/" + svg.getFileName()));
            assertThat(Files.size(png)).as("rendered chart").isGreaterThan(5_000);
        } finally {
            server.stop(0);
        }
    }

    @Test
    @Order(3)
    void aSecondRunShowsTrendData() throws Exception {
        Path results = run("run2", null);
        Path report1 = WORK.resolve("report1");
        assumeTrue(Files.isDirectory(report1.resolve("history")), "needs the first report");
        copyTree(report1.resolve("history"), results.resolve("history"));
        Path report2 = generate(results, WORK.resolve("report2"));
        JsonNode trend = JSON.readTree(
                report2.resolve("widgets").resolve("history-trend.json").toFile());
        assertThat(trend.size()).as("runs in the trend").isEqualTo(2);
    }

    @Test
    @Order(4)
    void aBetterBaselineFailsThePointsAsRegressionsWithBothFigures() throws Exception {
        List<String> better = new ArrayList<>();
        for (String line : Files.readAllLines(WORK.resolve("run1.jsonl"))) {
            ObjectNode o = (ObjectNode) JSON.readTree(line);
            if (o.hasNonNull("bandwidthGBps")) {
                o.put("bandwidthGBps", 1000.0); // no loopback reaches 1000 GB/s: every point must regress
            }
            better.add(JSON.writeValueAsString(o));
        }
        Path baseline = WORK.resolve("better-baseline.jsonl");
        Files.write(baseline, better);
        run("run3", baseline);
        List<JsonNode> lines = new ArrayList<>();
        for (String l : Files.readAllLines(WORK.resolve("run3.jsonl"))) {
            lines.add(JSON.readTree(l));
        }
        List<JsonNode> writes = lines.stream()
                .filter(n -> n.get("method").asText().equals("writes"))
                .toList();
        assertThat(writes).hasSize(6).allSatisfy(n -> {
            assertThat(n.get("status").asText()).isEqualTo("failed");
            assertThat(n.get("message").asText())
                    .contains("performance regression")
                    .contains("below the baseline's")
                    .containsPattern("[0-9.]+ [GM]B/s is [0-9.]+ % below the baseline's [0-9.]+ [GM]B/s");
        });
        List<JsonNode> allure = jsonFiles(WORK.resolve("run3-results"), "-result.json");
        assertThat(allure)
                .filteredOn(t -> t.get("statusDetails") != null
                        && t.get("statusDetails").get("message").asText().contains("performance regression"))
                .hasSize(6);
    }

    /** Runs the fixture in its own JVM with its own Allure results folder and results file. */
    private static Path run(String name, Path baseline) throws Exception {
        Path results = WORK.resolve(name + "-results");
        deleteTree(results);
        Files.createDirectories(results);
        List<String> cmd = new ArrayList<>(List.of(
                Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "--enable-native-access=ALL-UNNAMED",
                "-Xmx256m",
                "-Dallure.results.directory=" + results,
                "-Dlinkproof.profile=" + E2e.VALIDATION_ONLY,
                "-Dlinkproof.results=" + WORK.resolve(name + ".jsonl"),
                "-Dlinkproof.agent.log=" + WORK.resolve(name + "-agent.log")));
        if (baseline != null) {
            cmd.add("-Dlinkproof.baseline=" + baseline);
        }
        cmd.addAll(List.of(
                "-cp",
                System.getProperty("java.class.path"),
                RemoteSweepMain.class.getName(),
                ReportSweeps.class.getName()));
        String out = exec(cmd);
        assertThat(out).contains("remote-sweep: ");
        return results;
    }

    private static Path generate(Path results, Path report) throws Exception {
        String home = System.getProperty("linkproof.allure.home");
        needed(
                home != null && Files.isDirectory(Path.of(home)),
                "Allure's command-line tool is not unpacked (" + home + ")");
        exec(List.of(
                "bash",
                Path.of(home, "bin", "allure").toString(),
                "generate",
                "--clean",
                results.toString(),
                "-o",
                report.toString()));
        assertThat(report.resolve("index.html")).exists();
        return report;
    }

    private static Path chromium() {
        Path p = Path.of("/usr/bin/chromium");
        needed(Files.isExecutable(p), "needs Debian's chromium (scripts/setup.sh --test installs it)");
        return p;
    }

    /**
     * A developer's machine without the tool skips; CI (which ran scripts/setup.sh --test) must have it,
     * so there a missing tool fails instead of hiding the browser check behind a skip.
     */
    private static void needed(boolean present, String why) {
        String ci = System.getenv("CI");
        if (ci != null && !ci.isBlank()) {
            assertThat(present).as("CI is set: " + why).isTrue();
        }
        assumeTrue(present, why);
    }

    /** The page's DOM after its scripts ran. */
    private static String dom(Path chromium, String url) throws Exception {
        return exec(List.of(
                chromium.toString(),
                "--headless",
                "--no-sandbox",
                "--disable-gpu",
                "--disable-quic",
                "--no-first-run",
                "--disable-background-networking",
                "--disable-component-update",
                "--disable-sync",
                "--user-data-dir=" + WORK.resolve("chromium-profile"),
                "--virtual-time-budget=15000",
                "--dump-dom",
                url));
    }

    private static String exec(List<String> cmd) throws Exception {
        Files.createDirectories(WORK);
        Path log = Files.createTempFile(WORK, "exec-", ".log");
        Process p = new ProcessBuilder(cmd)
                .redirectErrorStream(true)
                .redirectOutput(log.toFile())
                .start();
        boolean done = p.waitFor(150, TimeUnit.SECONDS);
        if (!done) {
            p.destroyForcibly().waitFor(5, TimeUnit.SECONDS);
        }
        String out = Files.readString(log, StandardCharsets.UTF_8);
        assertThat(done)
                .as("finished within 150 s: " + String.join(" ", cmd) + "\n" + out)
                .isTrue();
        return out;
    }

    private static List<JsonNode> jsonFiles(Path dir, String suffix) throws IOException {
        List<JsonNode> out = new ArrayList<>();
        try (Stream<Path> s = Files.list(dir)) {
            for (Path p :
                    s.filter(x -> x.getFileName().toString().endsWith(suffix)).toList()) {
                out.add(JSON.readTree(p.toFile()));
            }
        }
        return out;
    }

    private static List<String> labels(JsonNode t) {
        List<String> out = new ArrayList<>();
        t.get("labels")
                .forEach(l ->
                        out.add(l.get("name").asText() + "=" + l.get("value").asText()));
        return out;
    }

    private static List<String> names(JsonNode array) {
        List<String> out = new ArrayList<>();
        if (array != null) {
            array.forEach(n -> out.add(n.get("name").asText()));
        }
        return out;
    }

    private static void copyTree(Path from, Path to) throws IOException {
        try (Stream<Path> s = Files.walk(from)) {
            for (Path p : s.toList()) {
                Path q = to.resolve(from.relativize(p).toString());
                if (Files.isDirectory(p)) {
                    Files.createDirectories(q);
                } else {
                    Files.copy(p, q, java.nio.file.StandardCopyOption.REPLACE_EXISTING);
                }
            }
        }
    }

    private static void deleteTree(Path dir) throws IOException {
        if (!Files.exists(dir)) {
            return;
        }
        try (Stream<Path> s = Files.walk(dir)) {
            for (Path p : s.sorted(Comparator.reverseOrder()).toList()) {
                Files.delete(p);
            }
        }
    }
}
