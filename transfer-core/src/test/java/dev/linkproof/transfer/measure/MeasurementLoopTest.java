package dev.linkproof.transfer.measure;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.linkproof.transfer.Mode;
import dev.linkproof.transfer.PeerFailureException;
import dev.linkproof.transfer.TransferException;
import dev.linkproof.transfer.TransferSpec;
import dev.linkproof.transfer.spi.DataPath;
import dev.linkproof.transfer.validate.Validation;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.locks.LockSupport;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class MeasurementLoopTest {

    /** Counts what the loop does; batches complete when awaited, oldest first. */
    static class FakePath implements DataPath {
        int posts;
        int awaits;
        int inFlight;
        int maxInFlight;
        boolean closed;
        /** Posts with index below this sleep {@link #slowPostMillis} (the warmup, when set to the warmup count). */
        int slowPosts;

        long slowPostMillis;
        /** Every await spins this long. */
        long awaitNanos;
        /** Fail the n-th await (1-based); 0 = never. */
        int failAwait;
        /** The n-th await (1-based) spins {@link #slowAwaitNanos}; 0 = none. */
        int slowAwait;

        long slowAwaitNanos;

        @Override
        public void post() {
            if (posts < slowPosts) {
                LockSupport.parkNanos(slowPostMillis * 1_000_000);
            }
            posts++;
            inFlight++;
            maxInFlight = Math.max(maxInFlight, inFlight);
        }

        @Override
        public void awaitOldest() throws TransferException {
            if (inFlight == 0) {
                throw new IllegalStateException("await with nothing in flight");
            }
            awaits++;
            if (awaits == failAwait) {
                throw new PeerFailureException("peer gone at await " + awaits);
            }
            long spin = awaits == slowAwait ? slowAwaitNanos : awaitNanos;
            if (spin > 0) {
                long until = System.nanoTime() + spin;
                while (System.nanoTime() < until) {
                    Thread.onSpinWait();
                }
            }
            inFlight--;
        }

        @Override
        public void close() {
            closed = true;
        }
    }

    private static TransferSpec spec(Mode mode, int iterations, int warmup, int depth, int batch) {
        return TransferSpec.builder()
                .mode(mode)
                .size(1000)
                .batch(batch)
                .iterations(iterations)
                .warmup(warmup)
                .pipelineDepth(depth)
                .build();
    }

    @ParameterizedTest(name = "iterations {0}, warmup {1}, depth {2}")
    @CsvSource({"20, 5, 1", "20, 5, 4", "3, 0, 8", "100, 10, 7", "1, 1, 1", "16, 2, 16"})
    void postsAndAwaitsEveryBatchNeverMoreThanDepthInFlight(int iterations, int warmup, int depth) throws Exception {
        FakePath path = new FakePath();
        Timing t = MeasurementLoop.run(path, spec(Mode.BANDWIDTH, iterations, warmup, depth, 1));
        assertThat(path.posts).isEqualTo(iterations + warmup);
        assertThat(path.awaits).isEqualTo(iterations + warmup);
        assertThat(path.inFlight).as("everything completed").isZero();
        assertThat(path.maxInFlight).isLessThanOrEqualTo(depth);
        assertThat(path.maxInFlight)
                .as("the pipeline is actually filled")
                .isEqualTo(Math.min(depth, Math.max(iterations, warmup)));
        assertThat(t.iterations()).isEqualTo(iterations);
        assertThat(t.latency().hasPercentiles()).isFalse();
        assertThat(path.closed).as("the loop does not own the path").isFalse();
    }

    @Test
    void stopAndWaitByDefault() throws Exception {
        FakePath path = new FakePath();
        MeasurementLoop.run(
                path, TransferSpec.builder().iterations(10).warmup(3).build());
        assertThat(path.maxInFlight).isEqualTo(1);
    }

    @Test
    void warmupIsNotTimed() throws Exception {
        FakePath path = new FakePath();
        path.slowPosts = 4;
        path.slowPostMillis = 50;
        Timing t = MeasurementLoop.run(path, spec(Mode.BANDWIDTH, 10, 4, 1, 1));
        assertThat(path.posts).isEqualTo(14);
        assertThat(t.totalNanos())
                .as("200 ms of warmup must not be on the clock")
                .isLessThan(50_000_000L);
    }

    @Test
    void warmupIsNotTimedInLatencyMode() throws Exception {
        FakePath path = new FakePath();
        path.slowPosts = 3;
        path.slowPostMillis = 50;
        Timing t = MeasurementLoop.run(path, spec(Mode.LATENCY, 10, 3, 1, 1));
        assertThat(path.posts).isEqualTo(13);
        assertThat(t.totalNanos()).isLessThan(50_000_000L);
        assertThat(t.latency().samples()).isEqualTo(10);
        assertThat(t.latency().max()).isLessThan(java.time.Duration.ofMillis(50));
    }

    @Test
    void timedLoopCoversTheTimedIterations() throws Exception {
        FakePath path = new FakePath();
        path.awaitNanos = 2_000_000;
        Timing t = MeasurementLoop.run(path, spec(Mode.BANDWIDTH, 10, 0, 1, 4));
        assertThat(t.totalNanos()).isGreaterThanOrEqualTo(20_000_000L);
        assertThat(t.latency().averageNanos())
                .as("total / (iterations × batch)")
                .isEqualTo(t.totalNanos() / 40.0, org.assertj.core.data.Offset.offset(1e-6));
    }

    @Test
    void latencyModeSamplesEveryIterationAndGivesPercentiles() throws Exception {
        FakePath path = new FakePath();
        path.awaitNanos = 200_000;
        Timing t = MeasurementLoop.run(path, spec(Mode.LATENCY, 50, 5, 1, 2));
        LatencyStats l = t.latency();
        assertThat(path.posts).isEqualTo(55);
        assertThat(path.maxInFlight).isEqualTo(1);
        assertThat(l.hasPercentiles()).isTrue();
        assertThat(l.samples()).isEqualTo(50);
        assertThat(l.minNanos()).isLessThanOrEqualTo(l.p50Nanos());
        assertThat(l.p50Nanos()).isLessThanOrEqualTo(l.p99Nanos());
        assertThat(l.p99Nanos()).isLessThanOrEqualTo(l.p999Nanos());
        assertThat(l.p999Nanos()).isLessThanOrEqualTo(l.maxNanos());
        assertThat(l.p50()).isGreaterThanOrEqualTo(java.time.Duration.ofNanos(199_000));
        assertThat(l.minNanos()).isGreaterThanOrEqualTo(199_000);
        // one sample per iteration (a whole batch); the average is per transfer
        assertThat(l.averageNanos()).isEqualTo(t.totalNanos() / 100.0, org.assertj.core.data.Offset.offset(1e-6));
    }

    @Test
    void aSlowIterationIsOneSampleAndTheSamplesTileTheLoop() throws Exception {
        FakePath path = new FakePath();
        path.slowAwait = 51; // the 41st timed iteration, after 10 of warmup
        path.slowAwaitNanos = 20_000_000;
        Timing t = MeasurementLoop.run(path, spec(Mode.LATENCY, 100, 10, 1, 1));
        LatencyStats l = t.latency();
        assertThat(l.samples()).isEqualTo(100);
        assertThat(l.maxNanos()).as("the slow iteration's own sample").isGreaterThanOrEqualTo(20_000_000);
        assertThat(l.p99Nanos()).as("and only one sample holds it").isLessThan(20_000_000);
        assertThat(t.totalNanos())
                .as("one clock read per iteration: the loop's time is its samples', counted once")
                .isBetween(20_000_000L, 40_000_000L);
    }

    @Test
    void bandwidthModeHasNoPercentiles() throws Exception {
        Timing t = MeasurementLoop.run(new FakePath(), spec(Mode.BANDWIDTH, 5, 1, 1, 1));
        assertThatThrownBy(() -> t.latency().p99())
                .isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("LATENCY");
        // Five iterations of one transfer: the average is the whole loop's time over the five.
        assertThat(t.latency().averageNanos())
                .isEqualTo(t.totalNanos() / 5.0, org.assertj.core.data.Offset.offset(1e-6));
    }

    @Test
    void onceRunsExactlyOneBatch() throws Exception {
        FakePath path = new FakePath();
        MeasurementLoop.once(path);
        assertThat(path.posts).isEqualTo(1);
        assertThat(path.awaits).isEqualTo(1);
        assertThat(path.inFlight).isZero();
    }

    @Test
    void aFailingAwaitStopsTheLoop() {
        FakePath path = new FakePath();
        path.failAwait = 7;
        assertThatThrownBy(() -> MeasurementLoop.run(path, spec(Mode.BANDWIDTH, 20, 2, 2, 1)))
                .isInstanceOf(PeerFailureException.class)
                .hasMessageContaining("await 7");
        assertThat(path.posts).isLessThan(22);
    }

    @Test
    void measurementDerivesBytesAndDecimalBandwidth() {
        TransferSpec s =
                TransferSpec.builder().size(1000).batch(2).iterations(10).build();
        Timing t = new Timing(1_000_000, 10, LatencyStats.averageOnly(50_000));
        Measurement m = Measurement.of(s, t, new Validation(2, 2000, 0, Optional.empty()), Map.of("k", "v"));
        assertThat(m.bytes()).isEqualTo(20_000);
        assertThat(m.bandwidthGBps()).isEqualTo(0.02, org.assertj.core.data.Offset.offset(1e-12));
        assertThat(m.isValid()).isTrue();
        // 10 iterations × batch 2 = 20 transfers in 1 ms: 20 000 operations (messages) per second
        assertThat(m.opsPerSecond()).isEqualTo(20_000, org.assertj.core.data.Offset.offset(1e-6));
        assertThat(m.summary()).isEqualTo("0.0200 GB/s · 20.0 kops/s · 50.0 µs");
        assertThat(m.environment()).containsEntry("k", "v");
        // connections share a batch: four of them carry the same 20 transfers, not 80
        TransferSpec four = TransferSpec.builder()
                .size(1000)
                .batch(2)
                .connections(4)
                .iterations(10)
                .build();
        assertThat(Measurement.of(four, t, new Validation(2, 2000, 0, Optional.empty()), Map.of())
                        .opsPerSecond())
                .isEqualTo(20_000, org.assertj.core.data.Offset.offset(1e-6));

        Measurement zero = Measurement.of(
                s,
                new Timing(0, 10, LatencyStats.averageOnly(0)),
                new Validation(2, 2000, 1, Optional.empty()),
                Map.of());
        assertThat(zero.bandwidthGBps()).isZero();
        assertThat(zero.isValid()).isFalse();
    }

    @Test
    void latencySummaryQuotesPercentiles() {
        TransferSpec s = TransferSpec.builder().mode(Mode.LATENCY).iterations(3).build();
        LatencyStats l = new LatencyStats(12_000, 3, 10_000, 12_100, 30_200, 30_200, 45_000);
        Measurement m =
                Measurement.of(s, new Timing(36_000, 3, l), new Validation(1, 1, 0, Optional.empty()), Map.of());
        assertThat(m.summary()).isEqualTo("p50 12.1 µs · p99 30.2 µs · max 45.0 µs");
    }
}
