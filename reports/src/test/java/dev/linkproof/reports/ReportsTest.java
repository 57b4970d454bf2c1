package dev.linkproof.reports;

import static dev.linkproof.reports.SweepRecords.RAIL_VALID;
import static dev.linkproof.reports.SweepRecords.m;
import static dev.linkproof.reports.SweepRecords.record;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.linkproof.reports.baseline.Baseline;
import dev.linkproof.reports.results.PointRecord;
import dev.linkproof.reports.results.ResultsFile;
import dev.linkproof.reports.results.SweepCsv;
import dev.linkproof.transfer.TransferSpec;
import dev.linkproof.transfer.measure.Measurement;
import dev.linkproof.transfer.validate.Validation;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A sweep's results file (written, read back, what it refuses), the baseline taken from it, and its
 * CSV. Its chart is BandwidthChartTest's; the Allure run files are RunFilesTest's.
 */
class ReportsTest {
    @TempDir
    Path dir;

    @Test
    void aFleetRunsVerdictLineIsPassedOverByAReaderOfPointsAndNothingElseMayBeAppended() throws Exception {
        Path f = dir.resolve("fleet.jsonl");
        try (ResultsFile out = ResultsFile.create(f)) {
            out.append(record("a", m(4096, 2.0, 0), "passed"));
            out.appendDocument(Map.of("schema", "linkproof.fleet-verdict/1", "verdicts", List.of()));
            assertThatThrownBy(() -> out.appendDocument(Map.of("schema", "mine/1")))
                    .isInstanceOf(IllegalArgumentException.class)
                    .hasMessageContaining("not 'mine/1'");
        }
        assertThat(Files.readAllLines(f))
                .hasSize(2)
                .last()
                .asString()
                .contains("\"schema\":\"linkproof.fleet-verdict/1\"");
        assertThat(ResultsFile.read(f)).extracting(PointRecord::uniqueId).containsExactly("a");
    }

    @Test
    void resultsFileRoundTripsAndRejectsForeignLinesWithFileAndLine() throws Exception {
        Path f = dir.resolve("r.jsonl");
        try (ResultsFile out = ResultsFile.create(f)) {
            out.append(record("a", m(4096, 2.0, 0), "passed"));
            out.append(record("b", m(8, 0.1, 30_000), "failed"));
        }
        List<PointRecord> back = ResultsFile.read(f);
        assertThat(back).extracting(PointRecord::uniqueId).containsExactly("a", "b");
        assertThat(back.get(0).bandwidthGBps()).isCloseTo(2.0, org.assertj.core.data.Offset.offset(1e-6));
        assertThat(back.get(1).p50Us()).isEqualTo(30.0);
        assertThat(ResultsFile.read(dir)).hasSize(2);

        Files.writeString(f, Files.readString(f) + "{\"schema\":\"other/9\",\"uniqueId\":\"x\"}\n");
        assertThatThrownBy(() -> ResultsFile.read(f))
                .hasMessageContaining("r.jsonl:3: schema 'other/9' is not linkproof.results/1");
        for (String other : List.of(
                "linkproof.results/10", "linkproof.results/12.1", "linkproof.results/2", "linkproof.results/")) {
            Files.writeString(f, "{\"schema\":\"" + other + "\",\"uniqueId\":\"x\"}\n");
            assertThatThrownBy(() -> ResultsFile.read(f))
                    .as(other)
                    .hasMessageContaining("r.jsonl:1: schema '" + other + "' is major version ")
                    .hasMessageContaining("this reader reads linkproof.results/1 and its minor versions");
        }
        assertThatThrownBy(() -> ResultsFile.read(f)).hasMessageContaining("is major version (none)");
        Files.writeString(f, "{\"schema\":\"linkproof.results/10\",\"uniqueId\":\"x\"}\n");
        assertThatThrownBy(() -> ResultsFile.read(f)).hasMessageContaining("is major version 10;");
        for (String same : List.of("linkproof.results/1", "linkproof.results/1.0", "linkproof.results/1.7")) {
            Files.writeString(f, "{\"schema\":\"" + same + "\",\"uniqueId\":\"x\"}\n");
            assertThat(ResultsFile.read(f))
                    .as(same)
                    .extracting(PointRecord::uniqueId)
                    .containsExactly("x");
        }
        Files.writeString(f, "not json\n");
        assertThatThrownBy(() -> ResultsFile.read(f)).hasMessageContaining("r.jsonl:1: not a results line");
        assertThatThrownBy(() -> ResultsFile.read(dir.resolve("missing.jsonl"))).hasMessageContaining("does not exist");
    }

    @Test
    void baselineFailsBandwidthAndLatencyRegressionsBeyondTheToleranceOnly() throws Exception {
        Path f = dir.resolve("base.jsonl");
        try (ResultsFile out = ResultsFile.create(f)) {
            out.append(record("bw", m(4096, 10.0, 0), "passed"));
            out.append(record("lat", m(8, 0.1, 20_000), "passed"));
        }
        Baseline b = Baseline.load(f);
        assertThat(b.regression("bw", m(4096, 9.6, 0), 0.05)).isEmpty();
        assertThat(b.regression("bw", m(4096, 9.4, 0), 0.05))
                .hasValueSatisfying(msg -> assertThat(msg)
                        .startsWith("performance regression: 9.40 GB/s is 6.0 % below the baseline's 10.0 GB/s"
                                + " (tolerance 5.0 %"));
        assertThat(b.regression("lat", m(8, 0.1, 20_900), 0.05)).isEmpty();
        assertThat(b.regression("lat", m(8, 0.1, 25_000), 0.05))
                .hasValueSatisfying(
                        msg -> assertThat(msg).contains("p50 latency 25.0 µs is 25.0 % above the baseline's 20.0 µs"));
        assertThat(b.regression("unknown", m(4096, 0.001, 0), 0.05))
                .as("a point the baseline lacks")
                .isEmpty();
        assertThat(b.change("bw", m(4096, 9.6, 0))).contains("-4.0 % bandwidth against the baseline's 10.0 GB/s");
        assertThat(b.change("bw", m(4096, 11.0, 0))).contains("+10.0 % bandwidth against the baseline's 10.0 GB/s");
        assertThat(b.change("lat", m(8, 0.1, 20_900))).contains("+4.5 % p50 latency against the baseline's 20.0 µs");
        assertThat(b.change("unknown", m(4096, 1.0, 0))).isEmpty();
    }

    @Test
    void baselineReferencesOnlyValidatedPointsAndTakesTheMedianOfAFoldersRuns() throws Exception {
        Validation corrupt =
                new Validation(1, 4096, 1, Optional.of(new dev.linkproof.transfer.validate.Mismatch(0, 7, 1, 2)));
        Validation badCompletion = new Validation(
                1, 4096, 0, Optional.empty(), new dev.linkproof.transfer.validate.CompletionCheck(48, 1, null));
        Validation completionsOk = new Validation(
                1, 4096, 0, Optional.empty(), new dev.linkproof.transfer.validate.CompletionCheck(48, 0, null));
        Path folder = Files.createDirectories(dir.resolve("runs"));
        try (ResultsFile out = ResultsFile.create(folder.resolve("a.jsonl"))) {
            out.append(record("later", m(4096, 10.0, 0), "passed"));
            out.append(record("kept", m(4096, 10.0, 0), "passed"));
            out.append(record("kept2", m(4096, 10.0, 0), "passed"));
        }
        try (ResultsFile out = ResultsFile.create(folder.resolve("b.jsonl"))) {
            out.append(record("later", m(4096, 8.0, 0), "passed"));
            // Corrupt records are no reference: a.jsonl's is the only one (a median of one).
            out.append(record("kept", m(4096, 1.0, corrupt), "failed"));
            out.append(record("kept2", m(4096, 1.0, badCompletion), "failed"));
            out.append(record("corrupt", m(4096, 1.0, corrupt), "failed"));
            out.append(record("badCompletion", m(4096, 1.0, badCompletion), "failed"));
            // Validated but below its criterion: what the hardware did, so a reference.
            out.append(record("slow", m(4096, 2.0, 0), "failed"));
            out.append(record("withCompletions", m(4096, 3.0, completionsOk), "passed"));
        }
        Baseline b = Baseline.load(folder);
        assertThat(b.size()).isEqualTo(5);
        assertThat(b.regression("later", m(4096, 8.5, 0), 0.05))
                .as("the median of 10 and 8 GB/s: 9")
                .hasValueSatisfying(
                        msg -> assertThat(msg).contains("below the baseline's median (of 2 runs) 9.00 GB/s"));
        assertThat(b.regression("later", m(4096, 8.6, 0), 0.05))
                .as("within 5 % of 9")
                .isEmpty();
        assertThat(b.regression("kept", m(4096, 9.0, 0), 0.05))
                .as("a.jsonl's 10 GB/s, not the corrupt 1")
                .hasValueSatisfying(msg -> assertThat(msg).contains("below the baseline's 10.0 GB/s"));
        assertThat(b.regression("kept2", m(4096, 9.0, 0), 0.05))
                .as("a.jsonl's 10 GB/s, not the wrong-completion 1")
                .hasValueSatisfying(msg -> assertThat(msg).contains("below the baseline's 10.0 GB/s"));
        assertThat(b.regression("corrupt", m(4096, 0.5, 0), 0.05))
                .as("no reference")
                .isEmpty();
        assertThat(b.regression("badCompletion", m(4096, 0.5, 0), 0.05))
                .as("no reference")
                .isEmpty();
        assertThat(b.regression("slow", m(4096, 1.8, 0), 0.05))
                .hasValueSatisfying(msg -> assertThat(msg).contains("below the baseline's 2.00 GB/s"));
        assertThat(b.regression("withCompletions", m(4096, 2.0, 0), 0.05)).isPresent();
    }

    /** One lucky run among three does not set the bar; nor does an unlucky one lower it. */
    @Test
    void aFoldersReferenceIsTheMedianOfItsRunsBandwidthAndLatencyEachOnItsOwn() throws Exception {
        Path folder = Files.createDirectories(dir.resolve("three"));
        double[] gbps = {4.0, 12.0, 4.4};
        long[] p50Nanos = {20_000, 19_000, 60_000};
        for (int i = 0; i < 3; i++) {
            try (ResultsFile out = ResultsFile.create(folder.resolve("run" + i + ".jsonl"))) {
                out.append(record("bw", m(4096, gbps[i], 0), "passed"));
                out.append(record("lat", m(8, 0.1, p50Nanos[i]), "passed"));
            }
        }
        Baseline b = Baseline.load(folder);
        assertThat(b.regression("bw", m(4096, 4.2, 0), 0.05))
                .as("within 5 % of the median 4.4, far below the best 12")
                .isEmpty();
        assertThat(b.regression("bw", m(4096, 4.1, 0), 0.05))
                .hasValueSatisfying(msg -> assertThat(msg)
                        .startsWith("performance regression: 4.10 GB/s is 6.8 % below the baseline's median (of 3"
                                + " runs) 4.40 GB/s"));
        assertThat(b.regression("lat", m(8, 0.1, 20_900), 0.05))
                .as("within 5 % of the median 20 µs, not of the 60 µs run")
                .isEmpty();
        assertThat(b.regression("lat", m(8, 0.1, 21_100), 0.05))
                .hasValueSatisfying(msg -> assertThat(msg)
                        .contains("p50 latency 21.1 µs is 5.5 % above the baseline's median (of 3 runs) 20.0 µs"));
    }

    @Test
    void csvHasPerftestStyleColumnsAndOneRowPerPoint() {
        String csv =
                SweepCsv.of(List.of(record("1", m(4096, 1.5, 0), "passed"), record("2", m(8, 0.1, 12_500), "failed")));
        List<String> rows = csv.lines().toList();
        assertThat(rows.getFirst()).isEqualTo(SweepCsv.HEADER);
        assertThat(rows.get(1))
                .startsWith("4096,1,1,1,write,tcp,,host->host,contiguous,0,10,1.5000,")
                .endsWith(",passed");
        assertThat(rows.get(2))
                .startsWith("8,1,1,1,write,tcp,,host->host,contiguous,0,10,")
                .contains(",12.500,12.500,12.500,12.500,")
                .endsWith(",failed");
        PointRecord strided = PointRecord.of(
                "3",
                "s",
                "C",
                "m",
                "write 4097 B",
                TransferSpec.builder()
                        .pointId("p3")
                        .size(4097)
                        .batch(4)
                        .layout(dev.linkproof.transfer.Layout.STRIDED)
                        .offset(7)
                        .build(),
                m(4096, 1.5, 0),
                "passed",
                null,
                List.of(),
                null,
                null);
        assertThat(strided.layout()).isEqualTo("strided");
        assertThat(strided.offset()).isEqualTo(7L);
        assertThat(SweepCsv.of(List.of(strided)).lines().toList().get(1))
                .startsWith("4097,4,1,1,write,tcp,,host->host,strided,7,");
        // A verbs point that named its device (linkproof.nics=each, or the profile's NIC) says which.
        PointRecord onNic = PointRecord.of(
                "4",
                "s",
                "C",
                "m",
                "write 4 KiB · mlx5_3",
                TransferSpec.builder()
                        .pointId("p4")
                        .transport("verbs")
                        .settings(java.util.Map.of("verbs.device", "mlx5_3"))
                        .build(),
                m(4096, 1.5, 0),
                "passed",
                null,
                List.of(),
                null,
                null);
        assertThat(onNic.device()).isEqualTo("mlx5_3");
        assertThat(strided.device()).isNull();
        assertThat(SweepCsv.of(List.of(onNic)).lines().toList().get(1))
                .startsWith("65536,1,1,1,write,verbs,mlx5_3,host->host,");
    }

    /**
     * A point of rails records each rail (figures, bytes, validation, and its timed loop's window as
     * offsets from the earliest rail's start, so the overlap shows), beside the aggregate as the
     * point's own figures; it reads back, and a baseline takes the aggregate as the reference.
     */
    @Test
    void aPointOfRailsRecordsEachRailWithItsWindowAndReadsBack() throws Exception {
        Path f = dir.resolve("rails.jsonl");
        Measurement two = TwoRails.measurement("rails");
        try (ResultsFile out = ResultsFile.create(f)) {
            out.append(record("rails", two, "passed"));
            out.append(record("one", m(4096, 2.0, 0), "passed"));
            out.append(record("corrupt", TwoRails.measurement("corrupt", TwoRails.CORRUPT), "failed"));
        }
        List<String> lines = Files.readAllLines(f);
        assertThat(lines.get(0))
                .contains("\"rails\":[{\"index\":0,\"label\":\"rxe0\",\"bandwidthGBps\":10.0,\"avgLatencyUs\":50.0,"
                        + "\"bytes\":1000000000,\"startMs\":0.0,\"durationMs\":100.0,\"validation\":\"" + RAIL_VALID
                        + "\","
                        + "\"memory\":\"host->host\",\"device\":\"rxe0\"},"
                        + "{\"index\":1,\"label\":\"rxe9\",\"bandwidthGBps\":5.0,\"avgLatencyUs\":100.0,"
                        + "\"bytes\":500000000,\"startMs\":2.0,\"durationMs\":100.0,\"validation\":\"" + RAIL_VALID
                        + "\","
                        + "\"memory\":\"host->host\",\"device\":\"rxe9\"}]");
        assertThat(lines.get(1)).as("one pair: no rails").doesNotContain("\"rails\"");
        assertThat(lines.get(2))
                .contains("\"validation\":\"rail 1 (rxe9): data corruption: 1 of 2 slot(s) differ;")
                .contains("\"label\":\"rxe9\",\"bandwidthGBps\":5.0,\"avgLatencyUs\":100.0,\"bytes\":500000000,"
                        + "\"startMs\":2.0,\"durationMs\":100.0,\"validation\":\"data"
                        + " corruption: 1 of 1 slot(s) differ; first at slot 0, byte offset 7");

        List<PointRecord> back = ResultsFile.read(f);
        PointRecord rails = back.get(0);
        // The point's own figures are the aggregate: 1.5 GB over the 102 ms from the first start to the last end.
        assertThat(rails.bandwidthGBps()).isCloseTo(1.5e9 / 102e6, org.assertj.core.data.Offset.offset(1e-9));
        assertThat(rails.avgLatencyUs()).isEqualTo(100.0);
        assertThat(rails.rails())
                .containsExactly(
                        new PointRecord.Rail(
                                0, "rxe0", 10.0, 50.0, 1_000_000_000L, 0.0, 100.0, RAIL_VALID, "host->host", "rxe0"),
                        new PointRecord.Rail(
                                1, "rxe9", 5.0, 100.0, 500_000_000L, 2.0, 100.0, RAIL_VALID, "host->host", "rxe9"));
        assertThat(back.get(1).rails()).isEmpty();

        Baseline b = Baseline.load(f);
        assertThat(b.covers("rails")).isTrue();
        assertThat(b.covers("corrupt"))
                .as("a rail's corrupt data makes the point no reference")
                .isFalse();
        assertThat(b.change("rails", two)).contains("+0.0 % bandwidth against the baseline's 14.7 GB/s");
    }

    /** Each rail's columns follow the point's own, as many as the sweep's point with the most rails had. */
    @Test
    void csvHasColumnsPerRailAfterThePointsOwn() {
        String csv = SweepCsv.of(List.of(
                record("rails", TwoRails.measurement("rails"), "passed"), record("one", m(4096, 1.5, 0), "passed")));
        List<String> rows = csv.lines().toList();
        assertThat(rows.getFirst())
                .isEqualTo(SweepCsv.HEADER + ",Rail0,Rail0BW(GB/s),Rail0Lat(us),Rail0Start(ms),Rail0Dur(ms)"
                        + ",Rail1,Rail1BW(GB/s),Rail1Lat(us),Rail1Start(ms),Rail1Dur(ms)");
        assertThat(rows.get(1))
                .startsWith("4096,1,1,1,write,verbs,,host->host,contiguous,0,10,14.7059,100.000,")
                .endsWith(",passed,rxe0,10.0000,50.000,0.000,100.000,rxe9,5.0000,100.000,2.000,100.000");
        assertThat(rows.get(2)).endsWith(",passed,,,,,,,,,,");
        assertThat(rows.get(1).split(",", -1)).hasSameSizeAs(rows.getFirst().split(",", -1));
    }
}
