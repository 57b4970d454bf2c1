package dev.linkproof.transfer.session;

import static org.assertj.core.api.Assertions.assertThat;

import dev.linkproof.transfer.TransferSpec;
import dev.linkproof.transfer.measure.LatencyStats;
import dev.linkproof.transfer.measure.Measurement;
import dev.linkproof.transfer.measure.Timing;
import dev.linkproof.transfer.validate.Mismatch;
import dev.linkproof.transfer.validate.Validation;
import java.lang.reflect.Proxy;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/** TimedRun against a session that takes a fixed time per iteration: the runs it asks for, and which it returns. */
class TimedRunTest {
    private final List<TransferSpec> runs = new ArrayList<>();

    /** A session whose every run takes {@code nanosPerIteration} per iteration, its data valid unless {@code corrupt}. */
    private TransferSession session(long nanosPerIteration, boolean corrupt) {
        return (TransferSession) Proxy.newProxyInstance(
                getClass().getClassLoader(), new Class<?>[] {TransferSession.class}, (proxy, method, args) -> {
                    if (!method.getName().equals("run")) {
                        throw new UnsupportedOperationException(method.getName());
                    }
                    TransferSpec spec = (TransferSpec) args[0];
                    runs.add(spec);
                    long total = nanosPerIteration * spec.iterations();
                    Validation v = corrupt
                            ? new Validation(1, spec.size(), 1, Optional.of(new Mismatch(0, 7, 1, 2)))
                            : new Validation(1, spec.size(), 0, Optional.empty());
                    return Measurement.of(
                            spec,
                            new Timing(total, spec.iterations(), LatencyStats.averageOnly(nanosPerIteration)),
                            v,
                            Map.of());
                });
    }

    private static final TransferSpec SPEC =
            TransferSpec.builder().iterations(100).warmup(10).build();

    /** 100 × 10 µs = 1 ms, under a twentieth of 2 s: a tenth of it (200 ms) for the pace, then 2 s. */
    @Test
    void aShortPointRunsAgainWithItsIterationsSizedToFillTheDuration() throws Exception {
        Measurement m = TimedRun.run(session(10_000, false), SPEC, Duration.ofSeconds(2));
        assertThat(runs).extracting(TransferSpec::iterations).containsExactly(100, 20_000, 200_000);
        assertThat(m.spec().iterations()).isEqualTo(200_000);
        assertThat(m.totalNanos()).isEqualTo(2_000_000_000L);
        assertThat(runs.get(1).warmup()).isEqualTo(10);
        assertThat(runs.get(1).pointId()).isEqualTo(SPEC.pointId());
    }

    /** 100 × 2 ms = 200 ms, over a twentieth of 2 s: its pace will do, then 2 s. */
    @Test
    void aPointOfAFewPercentOfTheDurationGivesThePaceItself() throws Exception {
        TimedRun.run(session(2_000_000, false), SPEC, Duration.ofSeconds(2));
        assertThat(runs).extracting(TransferSpec::iterations).containsExactly(100, 1000);
    }

    /**
     * The probes ran cold: 2 ms per iteration while they ran, then 0.5 ms. The sized run (1,000
     * iterations) takes 500 ms of the 2 s asked, so it runs once more sized from that pace: 4,000.
     */
    @Test
    void aSizedRunFarQuickerThanItsProbesRunsOnceMoreAtItsOwnPace() throws Exception {
        int[] calls = {0};
        TransferSession warming = (TransferSession) Proxy.newProxyInstance(
                getClass().getClassLoader(), new Class<?>[] {TransferSession.class}, (proxy, method, args) -> {
                    TransferSpec spec = (TransferSpec) args[0];
                    runs.add(spec);
                    long perIteration = calls[0]++ == 0 ? 2_000_000 : 500_000;
                    return Measurement.of(
                            spec,
                            new Timing(
                                    perIteration * spec.iterations(),
                                    spec.iterations(),
                                    LatencyStats.averageOnly(perIteration)),
                            new Validation(1, spec.size(), 0, Optional.empty()),
                            Map.of());
                });
        Measurement m = TimedRun.run(warming, SPEC, Duration.ofSeconds(2));
        assertThat(runs).extracting(TransferSpec::iterations).containsExactly(100, 1000, 4000);
        assertThat(m.totalNanos()).isEqualTo(2_000_000_000L);
    }

    @Test
    void aPointThatAlreadyTookTheDurationRunsOnce() throws Exception {
        Measurement m = TimedRun.run(session(30_000_000, false), SPEC, Duration.ofSeconds(2)); // 100 × 30 ms = 3 s
        assertThat(runs).hasSize(1);
        assertThat(m.spec().iterations()).isEqualTo(100);
    }

    @Test
    void corruptDataIsTheVerdictAtOnce() throws Exception {
        Measurement m = TimedRun.run(session(10_000, true), SPEC, Duration.ofSeconds(2));
        assertThat(runs).hasSize(1);
        assertThat(m.isValid()).isFalse();
    }

    @Test
    void theSizedCountStaysWithinTheSpecsLimitAndNeverBelowItsOwn() {
        assertThat(TimedRun.sized(SPEC, 1, Duration.ofHours(1)).iterations()).isEqualTo(TimedRun.MAX_ITERATIONS);
        assertThat(TimedRun.sized(SPEC, 100_000_000, Duration.ofSeconds(1)).iterations())
                .isEqualTo(100);
    }
}
