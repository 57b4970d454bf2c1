package dev.linkproof.engine.judging;

import static org.assertj.core.api.Assertions.assertThat;

import dev.linkproof.engine.MapParameters;
import dev.linkproof.engine.api.SweepPoint;
import dev.linkproof.engine.config.LinkproofConfiguration;
import dev.linkproof.transfer.FailureKind;
import dev.linkproof.transfer.TransferSpec;
import dev.linkproof.transfer.measure.HostContention;
import dev.linkproof.transfer.measure.LatencyStats;
import dev.linkproof.transfer.measure.Measurement;
import dev.linkproof.transfer.measure.Timing;
import dev.linkproof.transfer.validate.Mismatch;
import dev.linkproof.transfer.validate.Validation;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * When a point is rerun on a busy host, and what its report then says: the judge's side of
 * {@code linkproof.busyHost.reruns}, on made-up measurements against a profile with one 1 GB/s floor.
 * (BusyHostEngineTest runs it end to end with real busy loops.)
 */
class BusyHostRerunTest {
    static final TransferSpec SPEC =
            TransferSpec.builder().pointId("p").size(1 << 20).iterations(10).build();
    static final SweepPoint POINT = new SweepPoint(SPEC, "write 1 MiB ×1 · 1 conn · tcp", "seg");
    static final Validation VALID = new Validation(1, 1 << 20, 0, Optional.empty());
    static final HostContention BUSY = new HostContention(1.4, 1.1, 2, 800_000_000L);
    static final HostContention QUIET = new HostContention(0.1, 1.6, 2, 600_000_000L);

    @TempDir
    Path dir;

    private PointJudge reporter;

    @BeforeEach
    void reporter() throws Exception {
        Path profile = floorProfile(dir, "1 GB/s");
        Map<String, String> params =
                Map.of("linkproof.results", dir.resolve("r.jsonl").toString());
        reporter = PointJudge.load(
                LinkproofConfiguration.from(new MapParameters(params)),
                RunProfile.load(Map.of("linkproof.profile", profile.toString()), ProfilePlacement.DeviceChoice.REMOTE)
                        .criteria());
    }

    /** A fallback profile with one criterion, {@code floor} for writes of 1 MiB and more, in {@code dir}. */
    static Path floorProfile(Path dir, String floor) throws java.io.IOException {
        return Files.writeString(dir.resolve("floor.yaml"), """
            id: floor
            vendor: test
            description: one bandwidth floor
            match:
              fallback: true
            criteria:
              - name: floor
                op: [write]
                sizes: 1MiB..
                min-bandwidth: %s
            """.formatted(floor));
    }

    /** 10 MiB in {@code nanos}. */
    static Measurement measured(long nanos, Validation v) {
        return Measurement.of(SPEC, new Timing(nanos, 10, LatencyStats.averageOnly(nanos / 10.0)), v, Map.of());
    }

    private static final Measurement SLOW = measured(100_000_000L, VALID); // 0.10 GB/s
    private static final Measurement FAST = measured(5_000_000L, VALID); // 2.10 GB/s

    private Judgement judge(Measurement m, Optional<HostContention> host, List<Attempt> earlier) {
        return reporter.judge("[point:p]", POINT, m, new HostLoads(host, Optional.empty()), earlier);
    }

    private static Attempt attempt(Measurement m, HostContention host, String failure) {
        return new Attempt(m, new HostLoads(Optional.of(host), Optional.empty()), failure, RerunKind.BUSY_HOST);
    }

    @Test
    void aPointBelowItsFloorOnABusyHostIsRerunAndPassesWhenTheRerunMeetsIt() {
        Judgement first = judge(SLOW, Optional.of(BUSY), List.of());
        assertThat(first.failure()).isPresent();
        assertThat(first.rerun(1, 0)).isTrue();
        assertThat(first.rerun(0, 0)).as("reruns switched off").isFalse();

        Judgement second = judge(
                FAST,
                Optional.of(QUIET),
                List.of(attempt(SLOW, BUSY, first.failure().orElseThrow())));
        assertThat(second.failure()).isEmpty();
        assertThat(second.attempts()).isEqualTo(2);
        assertThat(second.rerun(1, 0)).isFalse();
        assertThat(first.failure().get())
                .endsWith(" [ran while a host was busy: other processes used 1.40 of 2 CPUs "
                        + "(ours 1.10) over 800 ms]");
        assertThat(second.verdicts())
                .contains(
                        "HOST other processes used 0.10 of 2 CPUs (ours 1.60) over 600 ms",
                        "RERUN attempt 1 (" + SLOW.summary() + "): "
                                + first.failure().get());
    }

    @Test
    void aRerunThatFallsShortAgainFailsNamingEveryAttemptsHostLoad() {
        Judgement first = judge(SLOW, Optional.of(BUSY), List.of());
        Judgement second = judge(
                SLOW,
                Optional.of(BUSY),
                List.of(attempt(SLOW, BUSY, first.failure().orElseThrow())));
        assertThat(second.rerun(1, 0)).as("one rerun was allowed and made").isFalse();
        assertThat(second.rerun(2, 0)).isTrue();
        assertThat(second.failure().orElseThrow())
                .startsWith(
                        "below criterion of profile 'floor': write 1 MiB ×1: 0.10 GB/s < criterion 1.00 GB/s (floor)")
                .endsWith("[attempt 2; the first ran on a busy host: " + SLOW.summary()
                        + ", other processes used 1.40 of 2 CPUs (ours 1.10) over 800 ms; this one: other processes"
                        + " used 1.40 of 2 CPUs (ours 1.10) over 800 ms (still busy)]");
    }

    @Test
    void aSlowPointOnAQuietHostOrWithoutAHostFigureFailsAtOnce() {
        assertThat(judge(SLOW, Optional.of(QUIET), List.of()).failure().orElseThrow())
                .doesNotContain("busy");
        assertThat(judge(SLOW, Optional.of(QUIET), List.of()).rerun(5, 0)).isFalse();
        assertThat(judge(SLOW, Optional.empty(), List.of()).rerun(5, 0)).isFalse();
        assertThat(judge(SLOW, Optional.empty(), List.of()).verdicts()).noneMatch(v -> v.startsWith("HOST"));
        assertThat(judge(FAST, Optional.of(BUSY), List.of()).rerun(5, 0))
                .as("nothing to rerun")
                .isFalse();
    }

    @Test
    void aBusyRemoteTargetIsReasonEnoughAndBothHostsAreNamed() {
        Judgement j = reporter.judge(
                "[point:p]", POINT, SLOW, new HostLoads(Optional.of(QUIET), Optional.of(BUSY)), List.of());
        assertThat(j.rerun(1, 0)).isTrue();
        assertThat(j.failure().orElseThrow())
                .endsWith("[ran while a host was busy: initiator: other processes used 0.10 of 2 CPUs (ours 1.60) over"
                        + " 600 ms; target: other processes used 1.40 of 2 CPUs (ours 1.10) over 800 ms]");
        assertThat(j.verdicts())
                .contains("HOST initiator: other processes used 0.10 of 2 CPUs (ours 1.60) over 600 ms; "
                        + "target: other processes used 1.40 of 2 CPUs (ours 1.10) over 800 ms");
        assertThat(reporter.judge(
                                "[point:p]",
                                POINT,
                                SLOW,
                                new HostLoads(Optional.of(QUIET), Optional.of(QUIET)),
                                List.of())
                        .rerun(1, 0))
                .isFalse();
    }

    @Test
    void aLocalPairIgnoresTheAgentsViewOfThisHost() {
        // The agent counts this JVM among the "others" of the one host they share.
        Measurement seenByAgent = SLOW.withTargetHost(Optional.of(BUSY));
        assertThat(HostLoads.of(Optional.of(QUIET), seenByAgent, false))
                .isEqualTo(new HostLoads(Optional.of(QUIET), Optional.empty()));
        assertThat(HostLoads.of(Optional.of(QUIET), seenByAgent, true).busy()).isTrue();
        assertThat(HostLoads.of(Optional.empty(), SLOW, true)).isEqualTo(HostLoads.NONE);
        assertThat(HostLoads.NONE.describe()).isEqualTo("not measured");
    }

    @Test
    void corruptDataIsNeverRerunHoweverBusyTheHost() {
        Measurement corrupt =
                measured(5_000_000L, new Validation(1, 1 << 20, 1, Optional.of(new Mismatch(0, 7, 0x12, 0x34))));
        Judgement j = judge(corrupt, Optional.of(BUSY), List.of());
        assertThat(j.failure().orElseThrow()).contains("data corruption");
        assertThat(j.performanceOnly()).isFalse();
        assertThat(j.rerun(5, 0)).isFalse();
        Measurement slowAndCorrupt =
                measured(100_000_000L, new Validation(1, 1 << 20, 1, Optional.of(new Mismatch(0, 7, 0x12, 0x34))));
        assertThat(judge(slowAndCorrupt, Optional.of(BUSY), List.of()).rerun(5, 0))
                .isFalse();
    }

    /**
     * The judge decides the kind, and so the report's category: short on a busy host when the attempt
     * that failed ran on one, below criterion when it ran on quiet hosts (even after a busy first
     * attempt), and data corruption whatever the hosts.
     */
    @Test
    void theFailuresKindSaysWhetherTheHostsWereBusyAndCorruptionComesFirst() {
        Judgement busy = judge(SLOW, Optional.of(BUSY), List.of());
        assertThat(busy.failureKind()).contains(FailureKind.SHORT_ON_BUSY_HOST);
        assertThat(judge(SLOW, Optional.of(QUIET), List.of()).failureKind()).contains(FailureKind.BELOW_CRITERION);
        Attempt busyFirst = attempt(SLOW, BUSY, busy.failure().orElseThrow());
        assertThat(judge(SLOW, Optional.of(BUSY), List.of(busyFirst)).failureKind())
                .as("still busy")
                .contains(FailureKind.SHORT_ON_BUSY_HOST);
        assertThat(judge(SLOW, Optional.of(QUIET), List.of(busyFirst)).failureKind())
                .as("quiet by the rerun: the transport's")
                .contains(FailureKind.BELOW_CRITERION);
        Measurement corrupt =
                measured(100_000_000L, new Validation(1, 1 << 20, 1, Optional.of(new Mismatch(0, 7, 0x12, 0x34))));
        assertThat(judge(corrupt, Optional.of(BUSY), List.of()).failureKind()).contains(FailureKind.DATA_CORRUPTION);
        assertThat(judge(FAST, Optional.of(BUSY), List.of()).failureKind()).isEmpty();
    }
}
