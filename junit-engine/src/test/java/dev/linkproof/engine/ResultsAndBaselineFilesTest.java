package dev.linkproof.engine;

import static dev.linkproof.engine.ConfigurationErrorTest.engineFailure;
import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.platform.engine.discovery.DiscoverySelectors.selectMethod;

import com.fasterxml.jackson.databind.ObjectMapper;
import dev.linkproof.engine.config.Constants;
import dev.linkproof.engine.fixtures.RunFixture;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.platform.engine.TestExecutionResult;
import org.junit.platform.testkit.engine.EngineExecutionResults;
import org.junit.platform.testkit.engine.EngineTestKit;

/**
 * The results file and the baseline at the edges of a run: the previous results survive a run that
 * stops on its configuration, a baseline may be the results file the run replaces, and a baseline or
 * results path that does not work is a configuration error naming the key and the file.
 */
class ResultsAndBaselineFilesTest {
    private static final ObjectMapper JSON = new ObjectMapper();

    @TempDir
    Path dir;

    private static EngineExecutionResults run(Path results, String... config) {
        var kit = EngineTestKit.engine(Constants.ENGINE_ID)
                .configurationParameter(Constants.PROGRESS, "false")
                .configurationParameter(Constants.RESULTS, results.toString())
                .selectors(selectMethod(RunFixture.class, "passesWithoutParameters", ""));
        for (int i = 0; i < config.length; i += 2) {
            kit = kit.configurationParameter(config[i], config[i + 1]);
        }
        return kit.execute();
    }

    @Test
    void aRunThatStopsOnItsConfigurationLeavesThePreviousResultsInPlace() throws Exception {
        Path results = dir.resolve("r.jsonl");
        Files.writeString(results, "the previous run\n");
        assertThat(engineFailure(run(
                        results, Constants.PROFILE, dir.resolve("missing.yaml").toString())))
                .contains("configuration error");
        assertThat(results).hasContent("the previous run");
        assertThat(engineFailure(run(results, Constants.ITERATIONS_SCALE, "0"))).contains("configuration error");
        assertThat(results).hasContent("the previous run");
        assertThat(engineFailure(run(
                        results,
                        Constants.BASELINE,
                        dir.resolve("missing.jsonl").toString())))
                .contains("configuration error");
        assertThat(results).hasContent("the previous run");
    }

    /** It was read after the run had emptied it: no point was compared, and each said "within 5 % of the baseline". */
    @Test
    void theBaselineMayBeTheResultsFileThisRunReplaces() throws Exception {
        Path results = dir.resolve("r.jsonl");
        run(results).testEvents().assertStatistics(s -> s.succeeded(1));
        ResultsLines.rewrite(
                results,
                results,
                n -> n.put("bandwidthGBps", n.get("bandwidthGBps").asDouble() * 1000));

        var events = run(results, Constants.BASELINE, results.toString()).testEvents();
        events.assertStatistics(s -> s.failed(1));
        String message = events.failed()
                .list()
                .getFirst()
                .getRequiredPayload(TestExecutionResult.class)
                .getThrowable()
                .orElseThrow()
                .getMessage();
        assertThat(message).contains("performance regression").contains("below the baseline's");
        assertThat(Files.readAllLines(results))
                .as("this run's results replaced the baseline's")
                .hasSize(1)
                .allSatisfy(l -> assertThat(l).contains("performance regression"));
    }

    /** A point the baseline lacks was not compared, and says so; it said "within 5 % of the baseline". */
    @Test
    void aPointTheBaselineLacksSaysItWasNotCompared() throws Exception {
        Path first = dir.resolve("first.jsonl");
        run(first).testEvents().assertStatistics(s -> s.succeeded(1));
        Path baseline = ResultsLines.rewrite(
                first,
                dir.resolve("other-point.jsonl"),
                n -> n.put("uniqueId", n.get("uniqueId").asText().replace("size=1024", "size=2048")));
        Path second = dir.resolve("second.jsonl");
        run(second, Constants.BASELINE, baseline.toString()).testEvents().assertStatistics(s -> s.succeeded(1));
        String verdicts = JSON.readTree(Files.readAllLines(second).getFirst())
                .get("verdicts")
                .toString();
        assertThat(verdicts)
                .doesNotContain("of the baseline")
                .contains("N/A  ")
                .contains(": not compared: the baseline " + baseline
                        + " has no measured, validated record of this point");
    }

    @Test
    void aBaselineThatCannotBeReadIsAConfigurationErrorNamingTheKeyAndFile() throws Exception {
        Path missing = dir.resolve("missing.jsonl");
        assertThat(engineFailure(run(dir.resolve("r.jsonl"), Constants.BASELINE, missing.toString())))
                .isEqualTo("configuration error: linkproof.baseline=" + missing + ": results file " + missing
                        + " does not exist (neither a file nor a folder)");
        Path text = Files.writeString(dir.resolve("notes.jsonl"), "hello world\n");
        assertThat(engineFailure(run(dir.resolve("r.jsonl"), Constants.BASELINE, text.toString())))
                .startsWith(
                        "configuration error: linkproof.baseline=" + text + ": " + text + ":1: not a results line: ");
    }

    /**
     * The Allure results folder under a plain file: every point ran and then failed with "Could not
     * create Allure results directory" (the listener logged a stack trace per point as well). Now it
     * stops the run before any point, naming the key, and the previous results file stays.
     */
    @Test
    void anAllureFolderThatCannotBeCreatedIsAConfigurationErrorBeforeAnyPoint() throws Exception {
        Path inTheWay = Files.writeString(dir.resolve("plain"), "a file, not a folder");
        Path allure = inTheWay.resolve("allure-results");
        Path results = Files.writeString(dir.resolve("r.jsonl"), "the previous run\n");
        String before = System.getProperty("allure.results.directory");
        System.setProperty("allure.results.directory", allure.toString());
        try {
            EngineExecutionResults r = run(results);
            assertThat(engineFailure(r))
                    .isEqualTo("configuration error: allure.results.directory=" + allure
                            + ": cannot create the Allure results folder " + allure + ": a file is in the way ("
                            + inTheWay + ")");
            r.testEvents().assertStatistics(s -> s.started(0));
            assertThat(results).hasContent("the previous run");
            System.setProperty("allure.results.directory", inTheWay.toString());
            assertThat(engineFailure(run(results)))
                    .isEqualTo("configuration error: allure.results.directory=" + inTheWay
                            + ": cannot create the Allure results folder " + inTheWay + ": it is a file");
        } finally {
            if (before == null) {
                System.clearProperty("allure.results.directory");
            } else {
                System.setProperty("allure.results.directory", before);
            }
        }
    }

    @Test
    void aResultsFileThatCannotBeCreatedIsAConfigurationErrorNamingTheKeyAndWhy() throws Exception {
        Path inTheWay = Files.writeString(dir.resolve("plain"), "a file, not a folder");
        Path results = inTheWay.resolve("r.jsonl");
        assertThat(engineFailure(run(results)))
                .isEqualTo("configuration error: linkproof.results=" + results + ": cannot create results file "
                        + results + ": a file is in the way");
    }
}
