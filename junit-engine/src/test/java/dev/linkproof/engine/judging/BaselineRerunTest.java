package dev.linkproof.engine.judging;

import static dev.linkproof.engine.judging.BusyHostRerunTest.BUSY;
import static dev.linkproof.engine.judging.BusyHostRerunTest.POINT;
import static dev.linkproof.engine.judging.BusyHostRerunTest.QUIET;
import static dev.linkproof.engine.judging.BusyHostRerunTest.SPEC;
import static dev.linkproof.engine.judging.BusyHostRerunTest.VALID;
import static dev.linkproof.engine.judging.BusyHostRerunTest.measured;
import static org.assertj.core.api.Assertions.assertThat;

import dev.linkproof.engine.MapParameters;
import dev.linkproof.engine.config.LinkproofConfiguration;
import dev.linkproof.reports.results.PointRecord;
import dev.linkproof.reports.results.ResultsFile;
import dev.linkproof.transfer.measure.HostContention;
import dev.linkproof.transfer.measure.Measurement;
import dev.linkproof.transfer.validate.Mismatch;
import dev.linkproof.transfer.validate.Validation;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * When a point that fell short of its baseline is rerun, and what its report then says: the judge's
 * side of {@code linkproof.baseline.reruns}, on made-up measurements against a baseline of 2.10 GB/s
 * (default 5 % tolerance) and a profile floor of 0.5 GB/s. (BaselineToleranceTest runs it through the engine.)
 */
class BaselineRerunTest {
    // The point, host loads and measurements are BusyHostRerunTest's (same package).
    private static final Measurement AS_BEFORE = measured(5_000_000L, VALID); // 2.10 GB/s, the baseline's figure
    private static final Measurement HALVED =
            measured(10_000_000L, VALID); // 1.05 GB/s: above the floor, 50 % below the baseline
    private static final Measurement SLOW = measured(100_000_000L, VALID); // 0.10 GB/s: below the floor too

    @TempDir
    Path dir;

    private PointJudge reporter;

    @BeforeEach
    void reporter() throws Exception {
        Path profile = BusyHostRerunTest.floorProfile(dir, "0.5 GB/s");
        Path baseline = dir.resolve("baseline.jsonl");
        try (ResultsFile f = ResultsFile.create(baseline)) {
            f.append(PointRecord.of(
                    "[point:p]",
                    "s",
                    "C",
                    "m",
                    POINT.displayName(),
                    SPEC,
                    AS_BEFORE,
                    "passed",
                    null,
                    List.of(),
                    null,
                    null));
        }
        Map<String, String> params = Map.of(
                "linkproof.results", dir.resolve("r.jsonl").toString(), "linkproof.baseline", baseline.toString());
        reporter = PointJudge.load(
                LinkproofConfiguration.from(new MapParameters(params)),
                RunProfile.load(Map.of("linkproof.profile", profile.toString()), ProfilePlacement.DeviceChoice.REMOTE)
                        .criteria());
    }

    private Judgement judge(Measurement m, Optional<HostContention> host, List<Attempt> earlier) {
        return reporter.judge("[point:p]", POINT, m, new HostLoads(host, Optional.empty()), earlier);
    }

    /** {@code j}'s attempt, rerun as the default allowances (one of each kind) decide. */
    private static Attempt attempt(Measurement m, HostContention host, Judgement j) {
        return new Attempt(
                m,
                new HostLoads(Optional.of(host), Optional.empty()),
                j.failure().orElseThrow(),
                j.rerunFor(1, 1).orElseThrow());
    }

    @Test
    void aRegressionOnAQuietHostIsRerunAndPassesWhenTheRerunIsBackToTheBaseline() {
        Judgement first = judge(HALVED, Optional.of(QUIET), List.of());
        assertThat(first.failure())
                .hasValueSatisfying(f -> assertThat(f)
                        .startsWith(POINT.displayName()
                                + ": performance regression: 1.05 GB/s is 50.0 % below the baseline's 2.10 GB/s")
                        .doesNotContain("busy"));
        assertThat(first.baselineOnly()).isTrue();
        assertThat(first.rerun(0, 1)).isTrue();
        assertThat(first.rerun(5, 0))
                .as("baseline reruns switched off; the host was quiet")
                .isFalse();
        assertThat(first.rerunFor(1, 1)).contains(RerunKind.BASELINE);
        assertThat(attempt(HALVED, QUIET, first).reason()).isEqualTo("fell short of the baseline");
        assertThat(first.baselineChange()).contains("-50.0 % bandwidth against the baseline's 2.10 GB/s");

        Judgement second = judge(AS_BEFORE, Optional.of(QUIET), List.of(attempt(HALVED, QUIET, first)));
        assertThat(second.failure()).isEmpty();
        assertThat(second.attempts()).isEqualTo(2);
        assertThat(second.rerun(0, 1)).isFalse();
        assertThat(second.verdicts())
                .contains(
                        "PASS " + POINT.displayName()
                                + ": within 5 % of the baseline: +0.0 % bandwidth against the baseline's 2.10 GB/s",
                        "RERUN attempt 1 (" + HALVED.summary() + "): "
                                + first.failure().get());
    }

    @Test
    void aRegressionThatRepeatsFailsSayingTheFirstAttemptFellShortToo() {
        Judgement first = judge(HALVED, Optional.of(QUIET), List.of());
        Judgement second = judge(HALVED, Optional.of(QUIET), List.of(attempt(HALVED, QUIET, first)));
        assertThat(second.rerun(0, 1)).as("the one rerun allowed was made").isFalse();
        assertThat(second.rerun(0, 2)).isTrue();
        assertThat(second.failure().orElseThrow())
                .startsWith(POINT.displayName() + ": performance regression: 1.05 GB/s is 50.0 % below")
                .endsWith("[attempt 2; the first fell short of the baseline: " + HALVED.summary()
                        + ", other processes used 0.10 of 2 CPUs (ours 1.60) over 600 ms; this one: other"
                        + " processes used 0.10 of 2 CPUs (ours 1.60) over 600 ms]");
    }

    @Test
    void aPointBelowTheProfilesFloorOnAQuietHostFailsAtOnceBaselineOrNot() {
        Judgement j = judge(SLOW, Optional.of(QUIET), List.of());
        assertThat(j.failure().orElseThrow())
                .contains("below criterion of profile 'floor'")
                .contains("performance regression");
        assertThat(j.baselineOnly()).isFalse();
        assertThat(j.rerun(5, 5)).isFalse();
        assertThat(judge(SLOW, Optional.of(BUSY), List.of()).rerun(1, 5))
                .as("busy: the busy-host rerun applies")
                .isTrue();
        assertThat(attempt(SLOW, BUSY, judge(SLOW, Optional.of(BUSY), List.of()))
                        .reason())
                .isEqualTo("ran on a busy host");
        Judgement busyRegression = judge(HALVED, Optional.of(BUSY), List.of());
        assertThat(busyRegression.rerunFor(1, 1))
                .as("busy: the busy-host rerun first")
                .contains(RerunKind.BUSY_HOST);
        assertThat(busyRegression.rerunFor(0, 1)).contains(RerunKind.BASELINE);
        assertThat(new Attempt(HALVED, new HostLoads(Optional.of(BUSY), Optional.empty()), "f", RerunKind.BASELINE)
                        .reason())
                .isEqualTo("fell short of the baseline on a busy host");
    }

    @Test
    void corruptDataIsNeverRerunForItsBaseline() {
        Measurement corrupt =
                measured(10_000_000L, new Validation(1, 1 << 20, 1, Optional.of(new Mismatch(0, 7, 0x12, 0x34))));
        Judgement j = judge(corrupt, Optional.of(QUIET), List.of());
        assertThat(j.failure().orElseThrow()).contains("data corruption");
        assertThat(j.rerun(5, 5)).isFalse();
    }

    @Test
    void attemptsRerunForDifferentReasonsAreNamedEachWithItsOwn() {
        Judgement first = judge(SLOW, Optional.of(BUSY), List.of());
        assertThat(first.rerun(1, 1)).isTrue();
        Judgement second = judge(HALVED, Optional.of(QUIET), List.of(attempt(SLOW, BUSY, first)));
        assertThat(second.rerunFor(1, 1))
                .as("each kind counts its own reruns: a baseline rerun may follow a busy-host one")
                .contains(RerunKind.BASELINE);
        assertThat(second.rerun(1, 0)).isFalse();
        Judgement third =
                judge(HALVED, Optional.of(QUIET), List.of(attempt(SLOW, BUSY, first), attempt(HALVED, QUIET, second)));
        assertThat(third.rerun(1, 1)).as("one of each made").isFalse();
        assertThat(third.attempts()).isEqualTo(3);
        assertThat(third.failure().orElseThrow())
                .endsWith("[attempt 3; the 2 before it: attempt 1 ran on a busy host: "
                        + SLOW.summary()
                        + ", other processes used 1.40 of 2 CPUs (ours 1.10) over 800 ms; attempt 2 fell short of the "
                        + "baseline: " + HALVED.summary()
                        + ", other processes used 0.10 of 2 CPUs (ours 1.60) over 600 ms; this one: "
                        + "other processes used 0.10 of 2 CPUs (ours 1.60) over 600 ms]");
    }

    /** "still busy" (and with it the report's "Short on a busy host" category) only after a busy attempt. */
    @Test
    void aRerunOnABusyHostAfterAQuietOneIsBusyNotStillBusy() {
        Judgement first = judge(HALVED, Optional.of(QUIET), List.of());
        Judgement second = judge(HALVED, Optional.of(BUSY), List.of(attempt(HALVED, QUIET, first)));
        assertThat(second.failure().orElseThrow())
                .endsWith("this one: other processes used 1.40 of 2 CPUs (ours 1.10) " + "over 800 ms (busy)]")
                .doesNotContain("still busy");
    }

    @Test
    void anAttemptWithoutAHostFigureIsDescribedByItsFiguresAlone() {
        Judgement first = judge(HALVED, Optional.empty(), List.of());
        assertThat(first.rerun(0, 1)).isTrue();
        Judgement second = judge(
                HALVED,
                Optional.empty(),
                List.of(new Attempt(HALVED, HostLoads.NONE, first.failure().orElseThrow(), RerunKind.BASELINE)));
        assertThat(second.failure().orElseThrow())
                .endsWith("[attempt 2; the first fell short of the baseline: " + HALVED.summary() + "]");
    }
}
