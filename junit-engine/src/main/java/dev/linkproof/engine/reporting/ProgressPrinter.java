package dev.linkproof.engine.reporting;

import dev.linkproof.engine.api.SweepPoint;
import dev.linkproof.engine.failure.Failures;
import dev.linkproof.engine.judging.HostLoads;
import dev.linkproof.transfer.Units;
import dev.linkproof.transfer.measure.Measurement;
import java.io.PrintStream;
import java.time.Duration;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.platform.engine.TestExecutionResult;

/**
 * One console line per finished point, so a long sweep shows where it is; a line every
 * {@link #HEARTBEAT} while one point runs longer (a soak with {@code linkproof.duration}, a slow
 * path), so a quiet console means a hung run, not a long one; and at the end of the run a summary
 * ({@link RunSummary}): outcomes, failure categories, skip reasons.
 */
public final class ProgressPrinter {
    /** How often a point that is still running says so. */
    static final Duration HEARTBEAT = Duration.ofSeconds(30);

    private final PrintStream out;
    private final boolean enabled;
    private final int total;
    private final Duration heartbeat;
    private final AtomicInteger done = new AtomicInteger();
    private final RunSummary summary = new RunSummary();
    private final AtomicReference<ScheduledFuture<?>> running = new AtomicReference<>();
    private ScheduledExecutorService clock;

    public ProgressPrinter(PrintStream out, boolean enabled, int total) {
        this(out, enabled, total, HEARTBEAT);
    }

    ProgressPrinter(PrintStream out, boolean enabled, int total, Duration heartbeat) {
        this.out = out;
        this.enabled = enabled;
        this.total = total;
        this.heartbeat = heartbeat;
    }

    /** A point starts: from {@link #heartbeat} on, a RUNNING line at that interval until it finishes or is skipped. */
    public void started(SweepPoint point) {
        if (!enabled) {
            return;
        }
        long t0 = System.nanoTime();
        int n = done.get() + 1;
        AtomicReference<ScheduledFuture<?>> self = new AtomicReference<>();
        ScheduledFuture<?> beat = clock().scheduleAtFixedRate(
                        () -> {
                            synchronized (out) {
                                // A beat that fires as its point finishes must not print after the point's own line.
                                if (running.get() == self.get()) {
                                    out.printf(
                                            Locale.ROOT,
                                            "[linkproof %d/%d] RUNNING %s  — %d s so far%n",
                                            n,
                                            total,
                                            point.displayName(),
                                            (System.nanoTime() - t0) / 1_000_000_000L);
                                    out.flush();
                                }
                            }
                        },
                        heartbeat.toMillis(),
                        heartbeat.toMillis(),
                        TimeUnit.MILLISECONDS);
        self.set(beat);
        stopHeartbeat(running.getAndSet(beat));
    }

    private synchronized ScheduledExecutorService clock() {
        if (clock == null) {
            clock = Executors.newSingleThreadScheduledExecutor(
                    Thread.ofPlatform().daemon().name("linkproof-progress").factory());
        }
        return clock;
    }

    private void stopHeartbeat(ScheduledFuture<?> beat) {
        if (beat != null) {
            synchronized (out) { // waits out a beat that is printing
                beat.cancel(false);
            }
        }
    }

    public void finished(SweepPoint point, Measurement m, TestExecutionResult result) {
        finished(point, m, "", result);
    }

    /** {@code verdict}: what the profile said of the point, printed after the figures when not empty. */
    public void finished(SweepPoint point, Measurement m, String verdict, TestExecutionResult result) {
        stopHeartbeat(running.getAndSet(null));
        String outcome = switch (result.getStatus()) {
            case SUCCESSFUL -> "PASS";
            case ABORTED -> "SKIP";
            case FAILED -> "FAIL";
        };
        String figure = (m == null ? "" : "  " + figures(m))
                + (verdict == null || verdict.isEmpty() ? "" : "  [" + verdict + "]");
        String why = result.getStatus() == TestExecutionResult.Status.SUCCESSFUL
                ? ""
                : "  — "
                        + result.getThrowable()
                                .map(t -> firstLine(t.getMessage()))
                                .orElse("");
        if (result.getStatus() != TestExecutionResult.Status.ABORTED) {
            boolean ok = result.getStatus() == TestExecutionResult.Status.SUCCESSFUL;
            if (m != null && !m.rails().isEmpty()) {
                // Each rail on its own device: the aggregate's spec names only the run's default one.
                summary.onRails(m.rails(), ok);
            } else {
                summary.onDevice(dev.linkproof.reports.results.PointRecord.device(point.spec(), m), ok);
            }
        }
        switch (result.getStatus()) {
            case SUCCESSFUL -> summary.passed();
            case ABORTED ->
                summary.skipped(result.getThrowable().map(Throwable::getMessage).orElse(null));
            case FAILED -> summary.failed(Failures.kindOf(result).orElseThrow());
        }
        line(outcome, point, figure + why);
    }

    /**
     * An attempt that fell short on a busy host and is run again, after {@code waited} for the busy
     * hosts to leave room ({@code now}: the last look at each host waited for; {@code stillBusy}: a
     * host had no room when the wait gave up). It does not count as a finished point.
     */
    public void rerun(
            SweepPoint point, Measurement m, HostLoads hosts, Duration waited, HostLoads now, boolean stillBusy) {
        summary.rerun();
        if (enabled) {
            out.printf(
                    Locale.ROOT,
                    "[linkproof %d/%d] RERUN %s  %s  — fell short while a host was busy: %s; rerun after %.1f s%s%n",
                    done.get() + 1,
                    total,
                    point.displayName(),
                    figures(m),
                    hosts.describe(),
                    waited.toMillis() / 1e3,
                    now.isEmpty() ? "" : (stillBusy ? " (still busy: " : " (now: ") + now.describe() + ")");
            out.flush();
        }
    }

    /**
     * An attempt that fell short of its baseline on a quiet host and is run again at once, to see
     * whether the regression repeats. {@code failure}: the judge's message ("&lt;point&gt;: performance
     * regression: …"). It does not count as a finished point.
     */
    public void rerunToConfirm(SweepPoint point, Measurement m, String failure) {
        summary.rerun();
        if (enabled) {
            String prefix = point.displayName() + ": ";
            String why = failure.startsWith(prefix) ? failure.substring(prefix.length()) : failure;
            out.printf(
                    Locale.ROOT,
                    "[linkproof %d/%d] RERUN %s  %s  — %s; rerun to confirm%n",
                    done.get() + 1,
                    total,
                    point.displayName(),
                    figures(m),
                    firstLine(why));
            out.flush();
        }
    }

    public void skipped(SweepPoint point, String reason) {
        stopHeartbeat(running.getAndSet(null));
        summary.skipped(reason);
        line("SKIP", point, "  — " + reason);
    }

    /** A sweep that failed as a whole (a curve rule), after its points: a line now, and one in the summary. */
    public void sweepFailed(String sweep, String message) {
        summary.sweepFailed();
        if (enabled) {
            out.println("[linkproof] FAIL sweep " + sweep + "  — " + firstLine(message));
            out.flush();
        }
    }

    /** The run's summary, at its end: "[linkproof] 369 point(s) in 52 s: 202 passed, …", then a line per category and reason. */
    public void summary(List<String> warnings) {
        stopHeartbeat(running.getAndSet(null));
        synchronized (this) {
            if (clock != null) {
                clock.shutdownNow();
                clock = null;
            }
        }
        if (enabled) {
            for (String l : summary.lines()) {
                out.println("[linkproof] " + l);
            }
            for (String w : warnings) {
                out.println("[linkproof] WARNING " + w);
            }
            out.flush();
        }
    }

    /** A fleet run's line: each line of {@code text} as {@code [linkproof fleet] …}; nothing when progress is off. */
    public void fleet(String text) {
        if (!enabled) {
            return;
        }
        StringBuilder s = new StringBuilder();
        text.lines()
                .forEach(l -> s.append(l.startsWith("  ") ? l : "[linkproof fleet] " + l)
                        .append(System.lineSeparator()));
        synchronized (out) {
            out.print(s);
            out.flush();
        }
    }

    private void line(String outcome, SweepPoint point, String rest) {
        int n = done.incrementAndGet();
        if (enabled) {
            // Joined, not printf'd: a Formatter per point, interpreted for most of a short run, was 3 % of
            // the points' thread when cold (bench/engine-overhead.sh, JFR). Numbers in ASCII digits, as
            // Locale.ROOT prints them.
            out.print("[linkproof " + n + "/" + total + "] " + outcome + " " + point.displayName() + rest
                    + System.lineSeparator());
            out.flush();
        }
    }

    /**
     * A point's figures as its lines give them: {@link Measurement#summary()} ("3.21 GB/s · 784 kops/s ·
     * 20.4 µs"), or for a point that ran several rails at once the aggregate (bandwidth and message
     * rate) and the slowest rail with its own figures ("2 rails: 23.1 GB/s · 1.41 Mops/s aggregate,
     * slowest rail 1 (rxe9) 11.2 GB/s · 684 kops/s · 257 µs"): the
     * aggregate alone would hide a rail that lags, and a line per rail would bury the run's progress.
     * Every rail's figures are in the results file and in Allure.
     */
    static String figures(Measurement m) {
        if (m.rails().isEmpty()) {
            return m.summary();
        }
        var slowest = m.slowestRail().orElseThrow();
        return m.rails().size() + " rails: " + Units.formatGBps(m.bandwidthGBps()) + " · "
                + Units.formatOps(m.opsPerSecond())
                + " aggregate, slowest " + slowest.name()
                + " " + slowest.measurement().summary();
    }

    /**
     * A failure message as one line: its first line that is not blank, and where that line only
     * announces what follows (AssertJ's "Expecting actual:" with the values on the lines after),
     * the next lines joined to it, the whole capped at 240 characters.
     */
    public static String headline(String s) {
        if (s == null) {
            return "";
        }
        java.util.List<String> lines =
                s.lines().map(String::strip).filter(l -> !l.isEmpty()).toList();
        if (lines.isEmpty()) {
            return "";
        }
        StringBuilder b = new StringBuilder(lines.get(0));
        for (int i = 1; i < lines.size() && i < 6 && lines.get(0).endsWith(":"); i++) {
            b.append(' ').append(lines.get(i));
        }
        return b.length() <= 240 ? b.toString() : b.substring(0, 239) + "…";
    }

    private static String firstLine(String s) {
        return headline(s);
    }
}
