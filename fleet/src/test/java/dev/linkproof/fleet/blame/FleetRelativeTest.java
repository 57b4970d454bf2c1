package dev.linkproof.fleet.blame;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.tuple;

import dev.linkproof.fleet.plan.Pair;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/**
 * The fleet reference a pair is judged against ({@link FleetRelative}): which pairs are outliers of
 * a point, by the point's own measure, and when a point has too few nodes or pairs to be judged.
 * Who is blamed for the outliers is BlameTest's.
 */
class FleetRelativeTest {
    private static final BlameSettings SETTINGS = BlameSettings.DEFAULTS;

    @Test
    void aNoisyFleetIsNotBlamedForItsNoiseWhileAHalfRateNodeInItIs() {
        // ±25 %: the fraction rule alone (0.93 × the median) would call a third of the pairs outliers.
        SyntheticFleet noisy = new SyntheticFleet(8, 15).jitter(0.25);
        Observations first = noisy.firstRound();
        FleetRelative ratioOnly = FleetRelative.of(first.outcomes(), new Thresholds(0.93, 2.1, 0, 4, 6), 8);
        assertThat(first.outcomes().stream()
                        .filter(o -> ratioOnly.outlier(o).isPresent())
                        .count())
                .isGreaterThan(8);
        FleetRelative robust = FleetRelative.of(first.outcomes(), Thresholds.DEFAULTS, 8);
        assertThat(first.outcomes().stream()
                        .filter(o -> robust.outlier(o).isPresent())
                        .count())
                .isZero();
        assertThat(noisy.conclude(SETTINGS).blamesNobody()).isTrue();
        Blame slow = new SyntheticFleet(8, 15)
                .jitter(0.25)
                .slowSender("lpn5")
                .slowFactor(0.2)
                .conclude(SETTINGS);
        assertThat(slow.verdicts())
                .extracting(Verdict::kind, Verdict::nodes)
                .containsExactly(tuple(VerdictKind.BAD_NODE, List.of("lpn5")));
    }

    @Test
    void aBandwidthPointIsJudgedOnBandwidthAndALatencyPointOnLatency() {
        Point bw = new Point("bw", "write 1 MiB", Measure.BANDWIDTH);
        Point lat = new Point("lat", "read 8 B latency", Measure.LATENCY);
        List<PairOutcome> outcomes = new ArrayList<>();
        String[] n = {"a", "b", "c", "d"};
        int k = 0;
        for (String x : n) {
            for (String y : n) {
                if (!x.equals(y)) {
                    // One pair at three times the others' latency, its bandwidth as good as theirs.
                    double us = k++ == 0 ? 15.0 : 5.0 + 0.01 * k;
                    outcomes.add(new PairOutcome(new Pair(x, y), bw, OutcomeKind.PASSED, 10.0 + 0.01 * k, us));
                    outcomes.add(new PairOutcome(new Pair(x, y), lat, OutcomeKind.PASSED, Double.NaN, us));
                }
            }
        }
        FleetRelative f = FleetRelative.of(outcomes, Thresholds.DEFAULTS, 4);
        assertThat(outcomes.stream()
                        .filter(o -> o.point().equals(bw))
                        .filter(o -> f.outlier(o).isPresent()))
                .isEmpty();
        assertThat(outcomes.stream()
                        .filter(o -> o.point().equals(lat))
                        .map(f::outlier)
                        .flatMap(Optional::stream))
                .singleElement()
                .satisfies(o -> {
                    assertThat(o.measure()).isEqualTo(Measure.LATENCY);
                    assertThat(o.outcome().pair()).isEqualTo(new Pair("a", "b"));
                    assertThat(o.describe()).startsWith("15.0 µs above 10.5 (fleet lowest 5.0) and above ");
                });
    }

    @Test
    void belowTheMinimumPopulationAPointIsNotJudgedAgainstTheFleetAndSaysWhy() {
        Observations three = new SyntheticFleet(3, 16).slowNode("lpn2").firstRound();
        FleetRelative f = FleetRelative.of(three.outcomes(), Thresholds.DEFAULTS, 3);
        assertThat(f.points()).singleElement().satisfies(s -> {
            assertThat(s.judged()).isFalse();
            assertThat(s.notJudged()).contains("3 registered nodes, fewer than the 4 a fleet reference needs");
        });
        assertThat(three.outcomes()).allSatisfy(o -> assertThat(f.outlier(o)).isEmpty());
        assertThat(new SyntheticFleet(3, 16).slowNode("lpn2").conclude(SETTINGS).blamesNobody())
                .isTrue();
        // Four nodes, but a pair file of three pairs at the point: too few pairs.
        Point p = new Point("w", "write 1 MiB");
        List<PairOutcome> few = List.of(
                new PairOutcome(new Pair("a", "b"), p, OutcomeKind.PASSED, 10, Double.NaN),
                new PairOutcome(new Pair("c", "d"), p, OutcomeKind.PASSED, 10, Double.NaN),
                new PairOutcome(new Pair("b", "c"), p, OutcomeKind.PASSED, 2, Double.NaN));
        assertThat(FleetRelative.of(few, Thresholds.DEFAULTS, 4)
                        .points()
                        .getFirst()
                        .notJudged())
                .contains("3 pairs measured, fewer than the 6 a fleet reference needs");
    }

    @Test
    void aBandwidthOutlierIsBelowTheFractionOfTheMedianAndItsSpread() {
        Point p = new Point("bw", "write 1 MiB");
        List<PairOutcome> outcomes = new ArrayList<>();
        double[] figures = {10, 10.1, 9.9, 10, 10.05, 9.95, 9.29, 9.31};
        String[] n = {"a", "b", "c", "d"};
        int k = 0;
        for (String x : n) {
            for (String y : n) {
                if (!x.equals(y) && k < figures.length) {
                    outcomes.add(new PairOutcome(new Pair(x, y), p, OutcomeKind.PASSED, figures[k++], Double.NaN));
                }
            }
        }
        outcomes.add(PairOutcome.unmeasured(new Pair("d", "c"), p, OutcomeKind.UNREACHABLE));
        FleetRelative f = FleetRelative.of(outcomes, Thresholds.DEFAULTS, 4);
        assertThat(f.point(p)).hasValueSatisfying(s -> {
            assertThat(s.pairs()).isEqualTo(9);
            assertThat(s.measuredBandwidth()).isEqualTo(8);
            assertThat(s.medianGBps()).isEqualTo(9.975, org.assertj.core.data.Offset.offset(1e-9));
            assertThat(s.minGBps()).isEqualTo(9.29);
            assertThat(s.maxGBps()).isEqualTo(10.1);
        });
        // 0.93 × 9.975 = 9.277: 9.29 is inside the fraction, so no outlier whatever the spread.
        assertThat(outcomes).allSatisfy(o -> assertThat(f.outlier(o)).isEmpty());
        // At 5.0 it is outside both: below 0.93 × the median and far below the spread.
        outcomes.set(6, new PairOutcome(outcomes.get(6).pair(), p, OutcomeKind.PASSED, 5.0, Double.NaN));
        FleetRelative g = FleetRelative.of(outcomes, Thresholds.DEFAULTS, 4);
        assertThat(g.outlier(outcomes.get(6)))
                .hasValueSatisfying(o -> assertThat(o.measure()).isEqualTo(Measure.BANDWIDTH));
        assertThat(g.outlier(outcomes.get(0))).isEmpty();
    }
}
