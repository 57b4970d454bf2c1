package dev.linkproof.engine.reporting;

import static org.assertj.core.api.Assertions.assertThat;

import dev.linkproof.engine.api.SweepPoint;
import dev.linkproof.engine.judging.HostLoads;
import dev.linkproof.transfer.TransferSpec;
import dev.linkproof.transfer.measure.LatencyStats;
import dev.linkproof.transfer.measure.Measurement;
import dev.linkproof.transfer.measure.RailResult;
import dev.linkproof.transfer.measure.Timing;
import dev.linkproof.transfer.validate.Validation;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.platform.engine.TestExecutionResult;

class ProgressPrinterTest {
    private final ByteArrayOutputStream bytes = new ByteArrayOutputStream();
    private final PrintStream out = new PrintStream(bytes, true, StandardCharsets.UTF_8);
    private final SweepPoint point =
            new SweepPoint(TransferSpec.builder().size(4096).build(), "write 4 KiB ×1 · 1 conn · tcp", "seg");

    private String printed() {
        return bytes.toString(StandardCharsets.UTF_8);
    }

    @Test
    void oneLinePerPointWithCountOutcomeAndFigure() {
        ProgressPrinter p = new ProgressPrinter(out, true, 3);
        Measurement m = Measurement.of(
                point.spec(),
                new Timing(1_000_000, 100, LatencyStats.averageOnly(10_000)),
                new Validation(1, 4096, 0, Optional.empty()),
                Map.of());
        p.finished(point, m, TestExecutionResult.successful());
        p.finished(point, null, TestExecutionResult.failed(new AssertionError("first line\nsecond line")));
        p.skipped(point, "no such transport");
        assertThat(printed().lines())
                .containsExactly(
                        "[linkproof 1/3] PASS write 4 KiB ×1 · 1 conn · tcp  " + m.summary(),
                        "[linkproof 2/3] FAIL write 4 KiB ×1 · 1 conn · tcp  — first line",
                        "[linkproof 3/3] SKIP write 4 KiB ×1 · 1 conn · tcp  — no such transport");
    }

    /** A point that runs past the heartbeat says so until it finishes; then the lines stop. */
    @Test
    void aLongPointSaysItIsStillRunningUntilItFinishes() throws Exception {
        ProgressPrinter p = new ProgressPrinter(out, true, 1, java.time.Duration.ofMillis(100));
        p.started(point);
        long end = System.nanoTime() + 5_000_000_000L;
        while (printed().lines().filter(l -> l.contains("RUNNING")).count() < 2 && System.nanoTime() < end) {
            Thread.sleep(20);
        }
        p.finished(point, null, TestExecutionResult.failed(new AssertionError("stuck")));
        int after = printed().lines().toList().size();
        Thread.sleep(300);
        List<String> lines = printed().lines().toList();
        assertThat(lines).hasSize(after).as("no RUNNING line after the point finished");
        assertThat(lines.subList(0, lines.size() - 1))
                .hasSizeGreaterThanOrEqualTo(2)
                .allSatisfy(l -> assertThat(l)
                        .matches("\\[linkproof 1/1\\] RUNNING write 4 KiB ×1 · 1 conn · tcp  — \\d+ s so far"));
        assertThat(lines.getLast()).startsWith("[linkproof 1/1] FAIL");
        p.summary(List.of());
    }

    @Test
    void aRerunIsAnnouncedWithoutCountingThePointTwice() {
        ProgressPrinter p = new ProgressPrinter(out, true, 2);
        Measurement m = Measurement.of(
                point.spec(),
                new Timing(1_000_000, 100, LatencyStats.averageOnly(10_000)),
                new Validation(1, 4096, 0, Optional.empty()),
                Map.of());
        var busy = new dev.linkproof.transfer.measure.HostContention(1.25, 0.5, 2, 700_000_000L);
        var calm = new dev.linkproof.transfer.measure.HostContention(0.2, 0.0, 2, 250_000_000L);
        HostLoads hosts = new HostLoads(Optional.of(busy), Optional.empty());
        p.rerun(
                point,
                m,
                hosts,
                java.time.Duration.ofMillis(750),
                new HostLoads(Optional.of(calm), Optional.empty()),
                false);
        p.rerun(
                point,
                m,
                hosts,
                java.time.Duration.ofMillis(3020),
                new HostLoads(Optional.empty(), Optional.of(busy)),
                true);
        p.rerun(point, m, hosts, java.time.Duration.ofMillis(20), HostLoads.NONE, false);
        p.finished(point, m, TestExecutionResult.successful());
        String rerun = "[linkproof 1/2] RERUN write 4 KiB ×1 · 1 conn · tcp  " + m.summary()
                + "  — fell short while a host was busy: other processes used 1.25 of 2 CPUs (ours 0.50) over 700 ms; ";
        assertThat(printed().lines())
                .containsExactly(
                        rerun + "rerun after 0.8 s (now: other processes used 0.20 of 2 CPUs (ours 0.00) over 250 ms)",
                        rerun
                                + "rerun after 3.0 s (still busy: target: other processes used 1.25 of 2 CPUs (ours"
                                + " 0.50) over 700 ms)",
                        rerun + "rerun after 0.0 s",
                        "[linkproof 1/2] PASS write 4 KiB ×1 · 1 conn · tcp  " + m.summary());
    }

    @Test
    void aRerunToConfirmARegressionNamesItOnce() {
        ProgressPrinter p = new ProgressPrinter(out, true, 1);
        Measurement m = Measurement.of(
                point.spec(),
                new Timing(1_000_000, 100, LatencyStats.averageOnly(10_000)),
                new Validation(1, 4096, 0, Optional.empty()),
                Map.of());
        p.rerunToConfirm(
                point,
                m,
                point.displayName() + ": performance regression: 0.41 GB/s is 60.0 % below the baseline's"
                        + " 1.02 GB/s (tolerance 5.0 %, baseline b.jsonl)");
        p.finished(point, m, TestExecutionResult.successful());
        assertThat(printed().lines())
                .containsExactly(
                        "[linkproof 1/1] RERUN write 4 KiB ×1 · 1 conn · tcp  " + m.summary()
                                + "  — performance regression: 0.41 GB/s is 60.0 % below the baseline's 1.02 GB/s"
                                + " (tolerance 5.0 %, baseline b.jsonl); rerun to confirm",
                        "[linkproof 1/1] PASS write 4 KiB ×1 · 1 conn · tcp  " + m.summary());
    }

    @Test
    void theRunEndsWithASummaryOfWhatEveryPointLineSaid() {
        ProgressPrinter p = new ProgressPrinter(out, true, 3);
        p.finished(point, null, TestExecutionResult.successful());
        p.finished(
                point,
                null,
                TestExecutionResult.failed(new dev.linkproof.engine.failure.PointFailure(
                        dev.linkproof.transfer.FailureKind.DATA_CORRUPTION, "write 4 KiB: data corruption: slot 1")));
        p.skipped(point, "no such transport");
        bytes.reset();
        p.summary(java.util.List.of("profile 'loopback' is the fallback, although …"));
        assertThat(printed().lines())
                .first()
                .asString()
                .startsWith("[linkproof] 3 point(s) in ")
                .endsWith(" s: 1 passed, 1 failed, 1 skipped");
        assertThat(printed().lines())
                .containsSequence(
                        "[linkproof] failed:     1 × Data corruption",
                        "[linkproof] skipped:    1 × no such transport",
                        "[linkproof] WARNING profile 'loopback' is the fallback, although …");

        ProgressPrinter quiet = new ProgressPrinter(out, false, 1);
        quiet.finished(point, null, TestExecutionResult.successful());
        bytes.reset();
        quiet.summary(java.util.List.of("w"));
        assertThat(printed()).isEmpty();
    }

    @Test
    void abortedPointsShowAsSkipped() {
        ProgressPrinter p = new ProgressPrinter(out, true, 1);
        p.finished(
                point,
                null,
                TestExecutionResult.aborted(new org.opentest4j.TestAbortedException("hugepages unavailable")));
        assertThat(printed())
                .isEqualTo("[linkproof 1/1] SKIP write 4 KiB ×1 · 1 conn · tcp  — hugepages unavailable"
                        + System.lineSeparator());
    }

    @Test
    void disabledPrintsNothing() {
        ProgressPrinter p = new ProgressPrinter(out, false, 1);
        p.finished(point, null, TestExecutionResult.successful());
        p.skipped(point, "x");
        assertThat(printed()).isEmpty();
    }

    /**
     * Rail 0 (rxe0) moves 1 GB in 100 ms from t0, rail 1 (rxe9) 0.5 GB in 100 ms from t0 + 2 ms, so
     * 1.5 GB over 102 ms together; {@code rail1}: rail 1's validation.
     */
    private static Measurement twoRails(Validation rail1) {
        long t0 = 7_000_000_000L;
        return Measurement.ofRails(
                TransferSpec.builder().size(4096).transport("verbs").build(),
                List.of(
                        rail(
                                0,
                                "rxe0",
                                1_000_000_000L,
                                50_000,
                                new Validation(1, 4096, 0, Optional.empty()),
                                t0,
                                t0 + 100_000_000L),
                        rail(1, "rxe9", 500_000_000L, 100_000, rail1, t0 + 2_000_000L, t0 + 102_000_000L)));
    }

    private static RailResult rail(
            int index, String device, long bytes, double latencyNanos, Validation v, long start, long end) {
        TransferSpec spec = TransferSpec.builder()
                .size(4096)
                .transport("verbs")
                .settings(Map.of("verbs.device", device))
                .build();
        return new RailResult(
                index,
                device,
                new Measurement(
                        spec,
                        bytes,
                        end - start,
                        bytes / (double) (end - start),
                        LatencyStats.averageOnly(latencyNanos),
                        v,
                        Map.of(),
                        List.of()),
                start,
                end);
    }

    /** A point of rails prints the aggregate and the slowest rail with its own figures, on every line that gives figures. */
    @Test
    void aPointOfRailsPrintsTheAggregateAndTheSlowestRail() {
        SweepPoint rails = new SweepPoint(
                TransferSpec.builder().size(4096).transport("verbs").build(),
                "write 4 KiB ×1 · 1 QP · verbs · 2 rails",
                "seg");
        ProgressPrinter p = new ProgressPrinter(out, true, 2);
        Measurement ok = twoRails(new Validation(1, 4096, 0, Optional.empty()));
        p.rerunToConfirm(rails, ok, rails.displayName() + ": performance regression: 14.7 GB/s is 10.0 % below …");
        p.finished(rails, ok, "14.7 GB/s ≥ criterion 10.0 GB/s", TestExecutionResult.successful());
        p.finished(
                rails,
                twoRails(new Validation(
                        1, 4096, 1, Optional.of(new dev.linkproof.transfer.validate.Mismatch(0, 7, 1, 2)))),
                TestExecutionResult.failed(
                        new AssertionError("write 4 KiB: rail 1 (rxe9): data corruption: 1 of 2 slot(s) differ")));
        // 1.5 GB of 4 KiB transfers over 102 ms: 3.59 M a second; rail 1's 0.5 GB over 100 ms: 1.22 M
        String figures =
                "2 rails: 14.7 GB/s · 3.59 Mops/s aggregate, slowest rail 1 (rxe9) 5.00 GB/s · 1.22 Mops/s · 100 µs";
        assertThat(printed().lines())
                .containsExactly(
                        "[linkproof 1/2] RERUN write 4 KiB ×1 · 1 QP · verbs · 2 rails  " + figures
                                + "  — performance regression: 14.7 GB/s is 10.0 % below …; rerun to confirm",
                        "[linkproof 1/2] PASS write 4 KiB ×1 · 1 QP · verbs · 2 rails  " + figures
                                + "  [14.7 GB/s ≥ criterion 10.0 GB/s]",
                        "[linkproof 2/2] FAIL write 4 KiB ×1 · 1 QP · verbs · 2 rails  " + figures
                                + "  — write 4 KiB: rail 1 (rxe9): data corruption: 1 of 2 slot(s) differ");
    }

    /** An AssertJ message starts with a blank line and announces its values: the line shows them, not "— ". */
    @org.junit.jupiter.api.Test
    void aFailureHeadlineSkipsBlankLinesAndKeepsTheValues() {
        assertThat(ProgressPrinter.headline("\nExpecting actual:\n  0.92\nto be greater than:\n  1000000.0\n"))
                .isEqualTo("Expecting actual: 0.92 to be greater than: 1000000.0");
        assertThat(ProgressPrinter.headline("data mismatch at slot 3, offset 17\nexpected 0x5a"))
                .isEqualTo("data mismatch at slot 3, offset 17");
        assertThat(ProgressPrinter.headline(null)).isEmpty();
        assertThat(ProgressPrinter.headline("x".repeat(300))).hasSize(240).endsWith("…");
    }
}
