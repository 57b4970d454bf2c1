package dev.linkproof.engine;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.platform.engine.discovery.DiscoverySelectors.selectMethod;

import dev.linkproof.engine.config.Constants;
import dev.linkproof.engine.config.LinkproofConfiguration;
import dev.linkproof.engine.fixtures.ProfileFixture;
import dev.linkproof.engine.judging.RunProfile;
import dev.linkproof.reports.baseline.Baseline;
import dev.linkproof.reports.results.PointRecord;
import dev.linkproof.reports.results.ResultsFile;
import dev.linkproof.transfer.TransferSpec;
import dev.linkproof.transfer.measure.LatencyStats;
import dev.linkproof.transfer.measure.Measurement;
import dev.linkproof.transfer.validate.Validation;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.platform.engine.TestExecutionResult;
import org.junit.platform.testkit.engine.EngineTestKit;
import org.junit.platform.testkit.engine.EventType;

/**
 * The baseline tolerance by precedence: built-in default 0.05 &lt; the profile's
 * {@code baseline.tolerance} &lt; {@code -Dlinkproof.baseline.tolerance}.
 */
class BaselineToleranceTest {
    @TempDir
    Path dir;

    private Path profile(String tolerance) throws Exception {
        return Files.writeString(dir.resolve("tolerant.yaml"), """
            id: tolerant
            vendor: test
            match:
              fallback: true
            baseline:
              tolerance: %s
            criteria: []
            """.formatted(tolerance));
    }

    private static LinkproofConfiguration config(Path profile, String... more) {
        Map<String, String> map = new java.util.HashMap<>(Map.of(Constants.PROFILE, profile.toString()));
        for (int i = 0; i < more.length; i += 2) {
            map.put(more[i], more[i + 1]);
        }
        return LinkproofConfiguration.from(new MapParameters(map));
    }

    /** What the engine does with the loaded profile and the configuration (RunReporter.useProfile). */
    private static double tolerance(LinkproofConfiguration config) {
        return config.baselineTolerance(RunProfile.load(config).criteria().baselineTolerance());
    }

    @Test
    void aSixPercentRegressionFailsUnderTheDefaultAndPassesUnderTheProfilesEightPercent() throws Exception {
        Path results = dir.resolve("base.jsonl");
        TransferSpec spec = TransferSpec.builder().pointId("p").size(1 << 20).build();
        try (ResultsFile f = ResultsFile.create(results)) {
            f.append(PointRecord.of(
                    "[point:p]",
                    "s",
                    "C",
                    "m",
                    "write 1 MiB",
                    spec,
                    measured(spec, 1.0),
                    "passed",
                    null,
                    List.of(),
                    null,
                    null));
        }
        Baseline baseline = Baseline.load(results);
        Measurement sixPercentSlower = measured(spec, 0.94);

        Path plain = Files.writeString(dir.resolve("plain.yaml"), "id: plain\nvendor: test\nmatch: {fallback: true}\n");
        double byDefault = tolerance(config(plain));
        assertThat(byDefault).isEqualTo(0.05);
        assertThat(baseline.regression("[point:p]", sixPercentSlower, byDefault))
                .hasValueSatisfying(m ->
                        assertThat(m).contains("6.0 % below the baseline's").contains("tolerance 5.0 %"));

        double byProfile = tolerance(config(profile("0.08")));
        assertThat(byProfile).isEqualTo(0.08);
        assertThat(baseline.regression("[point:p]", sixPercentSlower, byProfile))
                .isEmpty();

        double byProperty = tolerance(config(profile("0.08"), Constants.BASELINE_TOLERANCE, "0.05"));
        assertThat(byProperty).isEqualTo(0.05);
        assertThat(baseline.regression("[point:p]", sixPercentSlower, byProperty))
                .isPresent();
        assertThat(tolerance(config(profile("8%"), Constants.BASELINE_TOLERANCE, "0.3")))
                .isEqualTo(0.3);
    }

    /** Through the engine: a point against a baseline 1000 times faster names the tolerance it was judged with. */
    @Test
    void theEngineJudgesWithTheProfilesToleranceUnlessThePropertyGivesOne() throws Exception {
        Path better = firstRunScaledBy(1000, "better.jsonl");

        assertThat(failure(run(dir.resolve("r2.jsonl"), profile("0.08"), Constants.BASELINE, better.toString())))
                .contains("performance regression")
                .contains("(tolerance 8.0 %");
        assertThat(failure(run(
                        dir.resolve("r3.jsonl"),
                        profile("0.08"),
                        Constants.BASELINE,
                        better.toString(),
                        Constants.BASELINE_TOLERANCE,
                        "0.3")))
                .contains("(tolerance 30.0 %");
    }

    /**
     * Through the engine: a regression is rerun once by default and fails when it repeats, naming both
     * attempts in the failure and in the results file; {@code linkproof.baseline.reruns=0} judges the first.
     */
    @Test
    void aRegressionIsRerunOnceAndFailsWhenItRepeats() throws Exception {
        Path better = firstRunScaledBy(1000, "better.jsonl");

        Path rerun = dir.resolve("rerun.jsonl");
        // No busy-host rerun: the baseline's alone makes attempt 2, whatever else runs on this host.
        assertThat(failure(run(
                        rerun,
                        profile("0.08"),
                        Constants.BASELINE,
                        better.toString(),
                        Constants.BUSY_HOST_RERUNS,
                        "0")))
                .contains("performance regression")
                .containsPattern("\\[attempt 2; the first fell short of the baseline( on a busy host)?: ");
        PointRecord record = ResultsFile.read(rerun).getFirst();
        assertThat(record.attempts()).isEqualTo(2);
        assertThat(record.verdicts())
                .anyMatch(v -> v.startsWith("RERUN attempt 1 (") && v.contains("performance regression"));

        Path once = dir.resolve("once.jsonl");
        assertThat(failure(run(
                        once,
                        profile("0.08"),
                        Constants.BASELINE,
                        better.toString(),
                        Constants.BASELINE_RERUNS,
                        "0",
                        Constants.BUSY_HOST_RERUNS,
                        "0")))
                .contains("performance regression")
                .doesNotContain("attempt");
        assertThat(ResultsFile.read(once).getFirst().attempts()).isEqualTo(1);
    }

    /** A point that holds says by how much, so a drift shows in the report before it fails. */
    @Test
    void aPointWithinTheToleranceSaysHowItComparesWithTheBaseline() throws Exception {
        Path slower = firstRunScaledBy(1.0 / 1000, "slower.jsonl");
        Path second = dir.resolve("second.jsonl");
        run(second, profile("0.08"), Constants.BASELINE, slower.toString())
                .testEvents()
                .assertStatistics(s -> s.succeeded(1));
        assertThat(ResultsFile.read(second).getFirst().verdicts())
                .anySatisfy(v -> assertThat(v)
                        .startsWith("PASS ")
                        .containsPattern("within 8 % of the baseline: \\+[0-9]+\\.[0-9] % bandwidth against the"
                                + " baseline's [0-9.]+ [GMk]?B/s$"));
    }

    /** A passing run's results, its bandwidth multiplied by {@code factor}, as the file {@code name}: a baseline to judge by. */
    private Path firstRunScaledBy(double factor, String name) throws Exception {
        Path first = dir.resolve("first.jsonl");
        run(first, profile("0.08")).testEvents().assertStatistics(s -> s.succeeded(1));
        return ResultsLines.rewrite(
                first,
                dir.resolve(name),
                n -> n.put("bandwidthGBps", n.get("bandwidthGBps").asDouble() * factor));
    }

    private static Measurement measured(TransferSpec spec, double gbps) {
        long bytes = spec.size() * 100;
        return new Measurement(
                spec,
                bytes,
                Math.round(bytes / gbps),
                gbps,
                LatencyStats.averageOnly(spec.size() / gbps),
                new Validation(1, spec.size(), 0, Optional.empty()),
                Map.of(),
                List.of());
    }

    private static org.junit.platform.testkit.engine.EngineExecutionResults run(
            Path results, Path profile, String... config) {
        var kit = EngineTestKit.engine(Constants.ENGINE_ID)
                .configurationParameter(Constants.PROGRESS, "false")
                .configurationParameter(Constants.RESULTS, results.toString())
                .configurationParameter(Constants.PROFILE, profile.toString())
                .selectors(
                        selectMethod(ProfileFixture.class, "settings", "dev.linkproof.transfer.measure.Measurement"));
        for (int i = 0; i < config.length; i += 2) {
            kit = kit.configurationParameter(config[i], config[i + 1]);
        }
        return kit.execute();
    }

    private static String failure(org.junit.platform.testkit.engine.EngineExecutionResults r) {
        r.testEvents().assertStatistics(s -> s.failed(1));
        return r.testEvents()
                .filter(e -> e.getType() == EventType.FINISHED)
                .findFirst()
                .orElseThrow()
                .getRequiredPayload(TestExecutionResult.class)
                .getThrowable()
                .map(Throwable::getMessage)
                .orElse("");
    }
}
