package dev.linkproof.conformance.e2e;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.linkproof.engine.failure.PointError;
import dev.linkproof.engine.failure.PointFailure;
import dev.linkproof.engine.reporting.RunReporter;
import dev.linkproof.reports.allure.RunFiles;
import dev.linkproof.transfer.FailureKind;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.junit.platform.engine.TestExecutionResult;

/**
 * The categories the report shows, as Allure's own generator files results under them: a result of
 * every failure kind, with the trace the engine's failure of that kind prints, goes through Allure's
 * command line with the run's categories.json, and the generated report must file it under its
 * kind's category and no other. {@link RunFiles#categoriesFor} (the quick check {@link Kinds} uses for
 * every failure the end-to-end tests provoke) must say the same: this test is what keeps that
 * imitation of Allure's matching honest.
 */
@Tag("e2e")
@Timeout(300)
class AllureCategoriesTest {
    private static final ObjectMapper JSON = new ObjectMapper();

    @TempDir
    Path dir;

    @Test
    void allureFilesEveryKindUnderItsOwnCategoryAlone() throws Exception {
        String home = System.getProperty("linkproof.allure.home");
        assertThat(home).as("linkproof.allure.home (set by the pom)").isNotBlank();
        assertThat(Path.of(home, "bin", "allure"))
                .as("Allure's command line, unpacked by the build")
                .isRegularFile();
        Path results = Files.createDirectories(dir.resolve("allure-results"));
        RunFiles.writeAll(results, Map.of("profile", "test"), Map.of());

        Map<String, FailureKind> byName = new LinkedHashMap<>();
        Map<String, List<String>> imitation = new LinkedHashMap<>();
        for (FailureKind kind : FailureKind.values()) {
            String name = "kind " + kind.name();
            byName.put(name, kind);
            String status;
            String trace = null;
            if (kind == FailureKind.UNAVAILABLE) {
                status = "skipped";
            } else {
                Throwable t = switch (kind) {
                    case TEST_ASSERTION -> new AssertionError("expected: <1> but was: <2>");
                    case ERROR -> new IllegalStateException("a bug");
                    default ->
                        kind.status() == FailureKind.Status.FAILED
                                ? new PointFailure(kind, "what the " + kind + " found")
                                : new PointError(kind, "what the " + kind + " found", null);
                };
                StringWriter w = new StringWriter();
                t.printStackTrace(new PrintWriter(w));
                trace = w.toString();
                status = RunReporter.status(TestExecutionResult.failed(t));
                assertThat(status)
                        .as("the status of %s", kind)
                        .isEqualTo(kind.status().label());
            }
            imitation.put(name, RunFiles.categoriesFor(status, trace));
            write(results, name, status, trace);
        }

        Path report = dir.resolve("report");
        Process p = new ProcessBuilder(
                        "bash",
                        Path.of(home, "bin", "allure").toString(),
                        "generate",
                        "--clean",
                        results.toString(),
                        "-o",
                        report.toString())
                .redirectErrorStream(true)
                .redirectOutput(dir.resolve("allure.log").toFile())
                .start();
        assertThat(p.waitFor(240, TimeUnit.SECONDS)).as("allure generate ended").isTrue();
        assertThat(p.exitValue())
                .as(Files.readString(dir.resolve("allure.log")))
                .isZero();

        Map<String, List<String>> filed = new LinkedHashMap<>();
        byName.keySet().forEach(n -> filed.put(n, new ArrayList<>()));
        for (JsonNode category :
                JSON.readTree(report.resolve("data/categories.json").toFile()).path("children")) {
            // A category groups its results by message: the results are the leaves of its tree.
            List<JsonNode> leaves = new ArrayList<>();
            leaves(category, leaves);
            for (JsonNode test : leaves) {
                filed.computeIfAbsent(test.path("name").asText(), k -> new ArrayList<>())
                        .add(category.path("name").asText());
            }
        }
        for (var e : byName.entrySet()) {
            assertThat(filed.get(e.getKey()))
                    .as("the categories Allure filed %s under", e.getKey())
                    .containsExactly(e.getValue().category());
            assertThat(imitation.get(e.getKey()))
                    .as("RunFiles.categoriesFor of %s, against Allure's own", e.getKey())
                    .isEqualTo(filed.get(e.getKey()));
        }
    }

    private static void leaves(JsonNode node, List<JsonNode> out) {
        for (JsonNode child : node.path("children")) {
            if (child.has("children")) {
                leaves(child, out);
            } else {
                out.add(child);
            }
        }
    }

    private static void write(Path results, String name, String status, String trace) throws Exception {
        String uuid = UUID.randomUUID().toString();
        ObjectNode r = JSON.createObjectNode();
        r.put("uuid", uuid)
                .put("historyId", name)
                .put("name", name)
                .put("fullName", "AllureCategoriesTest." + name)
                .put("status", status)
                .put("stage", "finished")
                .put("start", 1L)
                .put("stop", 2L);
        ObjectNode details = r.putObject("statusDetails");
        details.put("message", status.equals("skipped") ? "no RDMA device" : "what went wrong");
        if (trace != null) {
            details.put("trace", trace);
        }
        r.putArray("labels");
        Files.writeString(results.resolve(uuid + "-result.json"), JSON.writeValueAsString(r));
    }
}
