package dev.linkproof.reports;

import static dev.linkproof.reports.SweepRecords.RAIL_VALID;
import static dev.linkproof.reports.SweepRecords.m;
import static dev.linkproof.reports.SweepRecords.record;
import static org.assertj.core.api.Assertions.assertThat;

import dev.linkproof.reports.chart.BandwidthChart;
import dev.linkproof.reports.results.PointRecord;
import dev.linkproof.transfer.TransferSpec;
import dev.linkproof.transfer.measure.Measurement;
import java.util.List;
import org.junit.jupiter.api.Test;

/** A sweep's bandwidth chart: its axis, its lines, each rail's, and a legend the picture grows to hold. */
class BandwidthChartTest {
    @Test
    void chartHasALog2AxisTheCriterionAndLinkLinesAndMarksFailedPoints() {
        List<PointRecord> points = List.of(
                record("1", m(4096, 1.0, 0), "passed"),
                record("2", m(65536, 3.0, 0), "passed"),
                record("3", m(1 << 20, 0.5, 0), "failed"));
        String svg = BandwidthChart.svg("W & R <sweep>", points);
        assertThat(svg)
                .startsWith("<svg xmlns=\"http://www.w3.org/2000/svg\"")
                .endsWith("</svg>\n")
                .contains("W &amp; R &lt;sweep&gt;")
                .contains(">4KiB<")
                .contains(">64KiB<")
                .contains(">1MiB<")
                .contains("message size (log₂)")
                .contains("class=\"criterion\"")
                .contains("class=\"link-rate\"")
                .contains("<g class=\"failed\">")
                .contains("failed point");
        assertThat(svg.split("<circle class=\"point\"", -1)).hasSize(3);
    }

    /** The aggregate is the point's line, named so; each rail a dashed line of its own; a rail that failed validation a red cross. */
    @Test
    void chartDrawsTheAggregateAndEachRail() {
        TransferSpec big = TransferSpec.builder()
                .pointId("big")
                .transport("verbs")
                .size(65536)
                .iterations(10)
                .warmup(1)
                .build();
        List<PointRecord> points = List.of(
                record("small", TwoRails.measurement("small"), "passed"),
                PointRecord.of(
                        "big",
                        "sweep",
                        "C",
                        "m",
                        "write 65536",
                        big,
                        TwoRails.measurement("big", TwoRails.CORRUPT),
                        "failed",
                        null,
                        List.of(),
                        1.0,
                        5.0));
        String svg = BandwidthChart.svg("rails", points);
        assertThat(svg)
                .contains(">write ×1 · 1 QP · aggregate<")
                .contains(">rail 0 (rxe0)<")
                .contains(">rail 1 (rxe9)<");
        // 760 px do not hold "write ×1 · 1 QP · aggregate" (27 characters of 7 px from x = 602): the picture widens.
        assertThat(svg).contains("width=\"799\" height=\"420\" viewBox=\"0 0 799 420\"");
        assertThat(svg.split("<polyline class=\"series\"", -1)).hasSize(2);
        // y: 320 px for 0-20 GB/s below a top of 40; x: 500 px for 4 KiB (log₂ 12) to 64 KiB (16) from 70.
        assertThat(svg)
                .contains("<polyline class=\"rail\" points=\"70.0,200.0 570.0,200.0\"")
                .contains("<polyline class=\"rail\" points=\"70.0,280.0 570.0,280.0\"");
        assertThat(svg.split("<polyline class=\"rail\"", -1)).hasSize(3);
        assertThat(svg.split("<circle class=\"rail-point\"", -1))
                .as("rail 0 twice, rail 1 at 4 KiB")
                .hasSize(4);
        assertThat(svg.split("<g class=\"failed-rail\">", -1))
                .as("rail 1 at 64 KiB")
                .hasSize(2);
        assertThat(svg)
                .contains("<title>write 4096: rail 1 (rxe9) 5.0 GB/s, 2.0–102.0 ms (" + RAIL_VALID + ")</title>");

        String onePair = BandwidthChart.svg("one", List.of(record("1", m(4096, 1.0, 0), "passed")));
        assertThat(onePair).doesNotContain("aggregate").doesNotContain("class=\"rail");
    }

    /** Three lines of eight rails make 27 legend entries: the picture grows to hold them, the plot keeps its size. */
    @Test
    void chartGrowsToHoldTheLegendOfManyRails() {
        List<dev.linkproof.transfer.measure.RailResult> eight = new java.util.ArrayList<>();
        for (int i = 0; i < 8; i++) {
            eight.add(TwoRails.rail(
                    "eight",
                    i,
                    "mlx5_" + i,
                    1_000_000_000L,
                    50_000,
                    TwoRails.VALID,
                    TwoRails.T0,
                    TwoRails.T0 + 100_000_000L));
        }
        Measurement m = Measurement.ofRails(TwoRails.spec("eight", null), eight);
        List<PointRecord> points = new java.util.ArrayList<>();
        for (int batch : new int[] {1, 2, 4}) {
            for (long size : new long[] {4096, 65536}) {
                TransferSpec s = TransferSpec.builder()
                        .pointId("p" + size + "x" + batch)
                        .size(size)
                        .batch(batch)
                        .build();
                points.add(PointRecord.of(
                        s.pointId(), "sweep", "C", "m", s.pointId(), s, m, "passed", null, List.of(), 1.0, 5.0));
            }
        }
        String svg = BandwidthChart.svg("eight", points);
        // link rate, criterion, 3 aggregates and 24 rails: 29 entries of 18 px from 50 px down
        assertThat(svg)
                .contains("height=\"" + (40 + 10 + 18 * 29) + "\"")
                .contains(">write ×4 · 1 QP · aggregate<")
                .contains(">rail 7 (mlx5_7)<");
        assertThat(svg.split("<polyline class=\"rail\"", -1)).hasSize(25);
        assertThat(BandwidthChart.svg("one", List.of(record("1", m(4096, 1.0, 0), "passed"))))
                .contains("width=\"760\" height=\"420\"");
    }
}
