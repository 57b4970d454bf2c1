package dev.linkproof.profiles;

import static dev.linkproof.profiles.CriteriaEvaluatorTest.judged;
import static dev.linkproof.profiles.CriteriaEvaluatorTest.point;
import static dev.linkproof.profiles.CriteriaEvaluatorTest.profile;
import static org.assertj.core.api.Assertions.assertThat;

import dev.linkproof.profiles.Verdict.Kind;
import dev.linkproof.profiles.Verdict.Outcome;
import dev.linkproof.transfer.MemoryPlacement;
import dev.linkproof.transfer.Mode;
import dev.linkproof.transfer.Op;
import dev.linkproof.transfer.TransferSpec;
import dev.linkproof.transfer.measure.LatencyStats;
import dev.linkproof.transfer.measure.Measurement;
import dev.linkproof.transfer.measure.RailResult;
import dev.linkproof.transfer.validate.Validation;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/**
 * Criteria for points that ran several rails at once: the aggregate, each rail, the balance between
 * them, and criteria scoped by the rail count. Measurements are built as the engine's are, with
 * {@link Measurement#ofRails} over {@link RailResult}s.
 */
class RailsCriteriaTest {
    static final MemoryPlacement HOST = MemoryPlacement.HOST;

    /** A 400 Gb/s node: a per-pair floor, an aggregate floor and a balance rule over the same points. */
    static final HardwareProfile NODE = profile("""
        id: node
        vendor: Lab
        match:
          nic:
            driver: mlx5_core
            link-rate: 400 Gb/s
        criteria:
          - name: per-pair
            op: write
            sizes: 1MiB..
            batch: 1
            min-bandwidth: 0.90 × link
            max-avg-latency: 30 µs
          - name: node-aggregate
            op: write
            sizes: 1MiB..
            batch: 1
            rails: 2..
            min-aggregate-bandwidth: 0.90 × links
          - name: balance
            op: write
            sizes: 1MiB..
            rails: 2..
            min-rail-balance: 0.80 × median
          - name: eight-read
            op: read
            sizes: 1MiB..
            rails: 8
            min-aggregate-bandwidth: 360 GB/s
          - name: one-pair-read
            op: read
            sizes: 1MiB..
            rails: 1
            min-bandwidth: 40 GB/s
          - name: curve
            op: write
            mode: bandwidth
            sizes: 64KiB..
            batch: 1
            max-drop: 5%
        """);

    final CriteriaEvaluator node = new CriteriaEvaluator(NODE, EvaluationContext.none());

    /**
     * One rail's measurement: {@code gbps} over a loop from {@code start} to {@code end} (nanoseconds), average
     * latency {@code avgMicros}.
     */
    static RailResult rail(
            int index, String label, TransferSpec spec, double gbps, double avgMicros, long start, long end) {
        long bytes = Math.round(gbps * (end - start));
        Measurement m = new Measurement(
                spec,
                bytes,
                end - start,
                gbps,
                LatencyStats.averageOnly(avgMicros * 1e3),
                new Validation(spec.batch(), spec.size() * spec.batch(), 0, Optional.empty()),
                Map.of(),
                List.of());
        return new RailResult(index, label, m, start, end);
    }

    static TransferSpec spec(Op op, long size) {
        return TransferSpec.builder()
                .pointId(op.label() + "-" + size + "-rails")
                .op(op)
                .size(size)
                .batch(1)
                .mode(Mode.BANDWIDTH)
                .transport("verbs")
                .build();
    }

    /** Rails labelled mlx5_i that all ran over the same second, at the given bandwidths. */
    static Measurement rails(Op op, long size, double... gbps) {
        TransferSpec s = spec(op, size);
        List<RailResult> rails = new ArrayList<>();
        for (int i = 0; i < gbps.length; i++) {
            rails.add(rail(i, "mlx5_" + i, s, gbps[i], 20, 1_000_000_000L, 2_000_000_000L));
        }
        return Measurement.ofRails(s, rails);
    }

    static List<Verdict> of(List<Verdict> verdicts, Kind kind) {
        return verdicts.stream().filter(v -> v.kind() == kind).toList();
    }

    @Test
    void oneSlowRailFailsTheBalanceNamingIt() {
        TransferSpec s = spec(Op.WRITE, 1 << 20);
        long t0 = 1_000_000_000L;
        Measurement m = Measurement.ofRails(
                s,
                List.of(
                        rail(0, "10.77.0.1->10.77.0.2", s, 1.08, 20, t0, t0 + 1_000_000_000L),
                        rail(1, "10.77.1.1->10.77.1.2", s, 0.05, 20, t0, t0 + 1_000_000_000L),
                        rail(2, "10.77.2.1->10.77.2.2", s, 1.10, 20, t0, t0 + 1_000_000_000L)));

        List<Verdict> v = node.evaluate(m);

        assertThat(of(v, Kind.MIN_RAIL_BALANCE)).singleElement().satisfies(b -> {
            assertThat(b.outcome()).isEqualTo(Outcome.FAIL);
            assertThat(b.criterion()).isEqualTo("balance");
            assertThat(b.text())
                    .isEqualTo("write 1 MiB ×1 · 3 rails: rail 1 (10.77.1.1->10.77.1.2) 0.0500 GB/s is below "
                            + "0.80 × the median rail (1.08 GB/s) (balance)");
            assertThat(b.measured()).isEqualTo(0.05);
            assertThat(b.threshold()).isCloseTo(0.8 * 1.08, org.assertj.core.data.Offset.offset(1e-12));
            assertThat(b.rail()).isEmpty();
        });
        assertThat(CriteriaEvaluator.passed(v)).isFalse();
    }

    @Test
    void equalRailsPassTheBalanceAndARailWithinTheFractionDoesToo() {
        List<Verdict> equal = node.evaluate(rails(Op.WRITE, 1 << 20, 47, 47, 47, 47, 47, 47, 47, 47));
        assertThat(of(equal, Kind.MIN_RAIL_BALANCE))
                .singleElement()
                .extracting(Verdict::outcome, Verdict::text)
                .containsExactly(
                        Outcome.PASS,
                        "write 1 MiB ×1 · 8 rails: slowest rail 0 (mlx5_0) 47.0 GB/s ≥ 0.80 × the "
                                + "median rail (47.0 GB/s) (balance)");
        assertThat(CriteriaEvaluator.passed(equal)).isTrue();

        // 38 GB/s is 0.81 of the median 47: in, although below every other rail.
        assertThat(of(node.evaluate(rails(Op.WRITE, 1 << 20, 47, 47, 38, 47, 48, 47, 46, 47)), Kind.MIN_RAIL_BALANCE))
                .singleElement()
                .extracting(Verdict::outcome)
                .isEqualTo(Outcome.PASS);
    }

    @Test
    void everyLaggingRailIsNamedSlowestFirst() {
        Verdict b = of(node.evaluate(rails(Op.WRITE, 1 << 20, 47, 30, 47, 47, 20, 47, 47, 47)), Kind.MIN_RAIL_BALANCE)
                .getFirst();
        assertThat(b.outcome()).isEqualTo(Outcome.FAIL);
        assertThat(b.text())
                .isEqualTo("write 1 MiB ×1 · 8 rails: rail 4 (mlx5_4) 20.0 GB/s and rail 1 (mlx5_1) 30.0 GB/s "
                        + "are below 0.80 × the median rail (47.0 GB/s) (balance)");
    }

    /** Of an even number of rails the median is the upper middle one, a rail's own figure: of two, the faster. */
    @Test
    void ofTwoRailsTheSlowerIsHeldToTheFaster() {
        // 0.78 × 1.00: out. Against the mean of the two middles (0.89) it would pass (0.80 × 0.89 = 0.71).
        Verdict b = of(node.evaluate(rails(Op.WRITE, 1 << 20, 1.00, 0.78)), Kind.MIN_RAIL_BALANCE)
                .getFirst();
        assertThat(b.outcome()).isEqualTo(Outcome.FAIL);
        assertThat(b.threshold()).isEqualTo(0.80);
        assertThat(of(node.evaluate(rails(Op.WRITE, 1 << 20, 1.00, 0.81)), Kind.MIN_RAIL_BALANCE)
                        .getFirst()
                        .outcome())
                .isEqualTo(Outcome.PASS);
    }

    @Test
    void theAggregateIsHeldToAFractionOfTheRailsLinksSummed() {
        // 8 rails at 46 GB/s together: 368 GB/s ≥ 0.90 × 8 × 400 Gb/s = 360 GB/s.
        Verdict pass = of(
                        node.evaluate(rails(Op.WRITE, 1 << 20, 46, 46, 46, 46, 46, 46, 46, 46)),
                        Kind.MIN_AGGREGATE_BANDWIDTH)
                .getFirst();
        assertThat(pass.text())
                .isEqualTo("write 1 MiB ×1 · 8 rails: aggregate 368.0 GB/s ≥ criterion 360.0 GB/s "
                        + "(node-aggregate: 0.90 × 8 × 400 Gb/s links)");
        assertThat(pass.outcome()).isEqualTo(Outcome.PASS);
        assertThat(pass.rail()).isEmpty();

        // 8 rails at 46 GB/s each, one after another: every rail meets its floor, the aggregate
        // (all bytes over the first start to the last end) is 46 GB/s, and fails.
        TransferSpec s = spec(Op.WRITE, 1 << 20);
        List<RailResult> serial = new ArrayList<>();
        for (int i = 0; i < 8; i++) {
            serial.add(rail(i, "mlx5_" + i, s, 46, 20, i * 1_000_000_000L, (i + 1) * 1_000_000_000L));
        }
        List<Verdict> v = node.evaluate(Measurement.ofRails(s, serial));
        assertThat(of(v, Kind.MIN_AGGREGATE_BANDWIDTH))
                .singleElement()
                .extracting(Verdict::outcome, Verdict::text)
                .containsExactly(
                        Outcome.FAIL,
                        "write 1 MiB ×1 · 8 rails: aggregate 46.0 GB/s < criterion 360.0 GB/s "
                                + "(node-aggregate: 0.90 × 8 × 400 Gb/s links)");
        assertThat(of(v, Kind.MIN_BANDWIDTH)).hasSize(8).allMatch(x -> x.outcome() == Outcome.PASS);

        // The same fraction of two rails' links is a quarter of it.
        assertThat(of(node.evaluate(rails(Op.WRITE, 1 << 20, 46, 46)), Kind.MIN_AGGREGATE_BANDWIDTH)
                        .getFirst()
                        .threshold())
                .isEqualTo(90.0);
    }

    @Test
    void anAbsoluteAggregateFloor() {
        double[] fast = new double[8];
        Arrays.fill(fast, 46);
        assertThat(of(node.evaluate(rails(Op.READ, 1 << 20, fast)), Kind.MIN_AGGREGATE_BANDWIDTH))
                .singleElement()
                .extracting(Verdict::outcome, Verdict::criterion, Verdict::threshold)
                .containsExactly(Outcome.PASS, "eight-read", 360.0);
        double[] slow = new double[8];
        Arrays.fill(slow, 44);
        assertThat(of(node.evaluate(rails(Op.READ, 1 << 20, slow)), Kind.MIN_AGGREGATE_BANDWIDTH))
                .singleElement()
                .extracting(Verdict::outcome, Verdict::text)
                .containsExactly(
                        Outcome.FAIL,
                        "read 1 MiB ×1 · 8 rails: aggregate 352.0 GB/s < criterion 360.0 GB/s (eight-read)");
    }

    /**
     * A per-pair floor judges each rail, not the aggregate: 7 rails at 47 GB/s and one at 30 make
     * 359 GB/s together, far above 45, and the slow rail still fails by name.
     */
    @Test
    void aPerPairFloorJudgesEachRail() {
        List<Verdict> v = node.evaluate(rails(Op.WRITE, 1 << 20, 47, 47, 47, 47, 47, 30, 47, 47));
        List<Verdict> floors = of(v, Kind.MIN_BANDWIDTH);
        assertThat(floors).hasSize(8).extracting(Verdict::criterion).containsOnly("per-pair");
        assertThat(floors)
                .extracting(x -> x.rail().orElseThrow())
                .containsExactly(
                        "rail 0 (mlx5_0)",
                        "rail 1 (mlx5_1)",
                        "rail 2 (mlx5_2)",
                        "rail 3 (mlx5_3)",
                        "rail 4 (mlx5_4)",
                        "rail 5 (mlx5_5)",
                        "rail 6 (mlx5_6)",
                        "rail 7 (mlx5_7)");
        assertThat(CriteriaEvaluator.failures(floors))
                .singleElement()
                .extracting(Verdict::text, Verdict::measured)
                .containsExactly(
                        "write 1 MiB ×1 · 8 rails: rail 5 (mlx5_5) 30.0 GB/s < criterion 45.0 GB/s "
                                + "(per-pair: 0.90 × 400 Gb/s link)",
                        30.0);
        assertThat(floors).noneMatch(x -> x.measured() > 100);
        assertThat(CriteriaEvaluator.passed(v)).isFalse();

        // Latency ceilings too: each rail's own average.
        TransferSpec s = spec(Op.WRITE, 1 << 20);
        Measurement slowLoop = Measurement.ofRails(
                s,
                List.of(
                        rail(0, "mlx5_0", s, 46, 22, 0, 1_000_000_000L),
                        rail(1, "mlx5_1", s, 46, 31, 0, 1_000_000_000L)));
        assertThat(CriteriaEvaluator.failures(of(node.evaluate(slowLoop), Kind.MAX_AVG_LATENCY)))
                .singleElement()
                .extracting(Verdict::text, x -> x.rail().orElseThrow())
                .containsExactly(
                        "write 1 MiB ×1 · 2 rails: rail 1 (mlx5_1) avg latency 31.0 µs > criterion 30.0 µs (per-pair)",
                        "rail 1 (mlx5_1)");
    }

    @Test
    void aOnePairPointIsJudgedAsBefore() {
        List<Verdict> v = judged(node.evaluate(point(Op.WRITE, 1 << 20, 1, 30, 20, HOST)));
        assertThat(v)
                .extracting(Verdict::kind, Verdict::outcome, Verdict::text, Verdict::rail)
                .containsExactly(
                        org.assertj.core.groups.Tuple.tuple(
                                Kind.MIN_BANDWIDTH,
                                Outcome.FAIL,
                                "write 1 MiB ×1: 30.0 GB/s < criterion 45.0 GB/s (per-pair: 0.90 × 400 Gb/s link)",
                                Optional.empty()),
                        org.assertj.core.groups.Tuple.tuple(
                                Kind.MAX_AVG_LATENCY,
                                Outcome.PASS,
                                "write 1 MiB ×1: avg latency 20.0 µs ≤ criterion 30.0 µs (per-pair)",
                                Optional.empty()));
    }

    @Test
    void criteriaAreScopedByTheRailCount() {
        TransferSpec read = spec(Op.READ, 1 << 20);
        assertThat(node.criteriaFor(read)).extracting(Criterion::name).containsExactly("one-pair-read");
        assertThat(node.criteriaFor(read, 2)).isEmpty();
        assertThat(node.criteriaFor(read, 8)).extracting(Criterion::name).containsExactly("eight-read");
        TransferSpec write = spec(Op.WRITE, 1 << 20);
        assertThat(node.criteriaFor(write)).extracting(Criterion::name).containsExactly("per-pair", "curve");
        assertThat(node.criteriaFor(write, 3))
                .extracting(Criterion::name)
                .containsExactly("per-pair", "node-aggregate", "balance", "curve");

        // Two read rails: neither rails: 8 nor rails: 1 covers them.
        assertThat(judged(node.evaluate(rails(Op.READ, 1 << 20, 10, 10))))
                .singleElement()
                .extracting(Verdict::kind)
                .isEqualTo(Kind.NO_CRITERION);
        // rails: 1 judges a one-pair point, never a rail.
        assertThat(judged(node.evaluate(point(Op.READ, 1 << 20, 1, 41, 20, HOST))))
                .singleElement()
                .extracting(Verdict::criterion, Verdict::outcome)
                .containsExactly("one-pair-read", Outcome.PASS);
        assertThat(NODE.criterion("eight-read").orElseThrow().describeSelector())
                .isEqualTo("read · any · sizes 1 MiB.. · batch any · rails 8");
    }

    /** Criteria that set the same threshold may cover the same shape if their rail counts differ. */
    @Test
    void railCountsSeparateCriteriaThatWouldOverlap() {
        HardwareProfile p = profile("""
            id: split
            vendor: Lab
            match: {fallback: true}
            criteria:
              - name: alone
                sizes: 1MiB..
                rails: 1
                min-bandwidth: 40 GB/s
              - name: busy
                sizes: 1MiB..
                rails: 2..
                min-bandwidth: 38 GB/s
            """);
        CriteriaEvaluator e = new CriteriaEvaluator(p, EvaluationContext.none());
        assertThat(of(e.evaluate(rails(Op.WRITE, 1 << 20, 39, 39)), Kind.MIN_BANDWIDTH))
                .extracting(Verdict::criterion, Verdict::outcome)
                .containsOnly(org.assertj.core.groups.Tuple.tuple("busy", Outcome.PASS));
        assertThat(judged(e.evaluate(point(Op.WRITE, 1 << 20, 1, 39, 20, HOST))))
                .singleElement()
                .extracting(Verdict::criterion, Verdict::outcome)
                .containsExactly("alone", Outcome.FAIL);
    }

    /** A curve rule over a rails sweep follows each rail; points of other rail counts are not compared. */
    @Test
    void curveRulesFollowEachRail() {
        Measurement small = rails(Op.WRITE, 512 << 10, 40, 40);
        Measurement large = rails(Op.WRITE, 1 << 20, 41, 32);
        Measurement onePair = point(Op.WRITE, 2 << 20, 1, 20, 100, HOST);
        List<Verdict> v = node.evaluateSweep(List.of(small, large, onePair));
        assertThat(v)
                .extracting(Verdict::rail, Verdict::outcome)
                .containsExactly(
                        org.assertj.core.groups.Tuple.tuple(Optional.of("rail 0 (mlx5_0)"), Outcome.PASS),
                        org.assertj.core.groups.Tuple.tuple(Optional.of("rail 1 (mlx5_1)"), Outcome.FAIL));
        assertThat(v.get(1).text())
                .isEqualTo("write 512 KiB → 1 MiB ×1 · 2 rails: rail 1 (mlx5_1) 40.0 GB/s → 32.0 GB/s, "
                        + "drop 20.0% > criterion max drop 5% (curve)");
    }
}
