package dev.linkproof.engine.execution;

import dev.linkproof.engine.ConfigurationException;
import dev.linkproof.engine.Constants;
import dev.linkproof.engine.LinkproofConfiguration;
import dev.linkproof.engine.api.SweepPoint;
import dev.linkproof.reports.allure.AllureBridge;
import dev.linkproof.reports.allure.RunFiles;
import dev.linkproof.reports.baseline.Baseline;
import dev.linkproof.reports.results.PointRecord;
import dev.linkproof.reports.results.ResultsFile;
import dev.linkproof.profiles.ProfileLoader;
import dev.linkproof.profiles.Verdict;
import dev.linkproof.transfer.TransferSpec;
import dev.linkproof.transfer.measure.HostContention;
import dev.linkproof.transfer.measure.Measurement;
import dev.linkproof.transfer.probe.ProbeReport;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import org.junit.platform.engine.TestExecutionResult;
import org.opentest4j.AssertionFailedError;

/**
 * Everything a run reports besides Surefire's view: the JSON-lines results, the Allure labels,
 * parameters, steps and attachments of each point, a chart and CSV per sweep, the run-level
 * Allure files, and the baseline comparison.
 */
public final class RunReporter implements AutoCloseable {
    /** Started by {@link #open}, once the run's configuration, profile and baseline have loaded. */
    private volatile ResultsFile results;
    private volatile Optional<Baseline> baseline = Optional.empty();
    private final LinkproofConfiguration config;
    private volatile double tolerance;
    private final Map<String, List<PointRecord>> sweeps = new ConcurrentHashMap<>();
    private final Map<String, List<String>> sweepUuids = new ConcurrentHashMap<>();
    private final Map<String, List<Measurement>> sweepMeasurements = new ConcurrentHashMap<>();
    private volatile ProfileJudge profile;
    private volatile boolean anyPoint;

    public RunReporter(LinkproofConfiguration config) {
        this.config = config;
        this.tolerance = config.baselineTolerance(java.util.OptionalDouble.empty());
    }

    /**
     * Reads the baseline, then starts the results file (replacing the previous run's), in that
     * order and only once the rest of the run's configuration has loaded: a run that stops on a bad
     * key or profile leaves the previous results in place, and {@code linkproof.baseline} may name the
     * results file this run is about to replace (compare with the last run). A baseline that cannot be
     * read, or a results file that cannot be created, is a {@link ConfigurationException} naming the
     * key and the file.
     */
    public void open() {
        Optional<Baseline> b = Optional.empty();
        if (config.baseline().isPresent()) {
            Path path = config.baseline().get();
            try {
                b = Optional.of(Baseline.load(path));
            } catch (IllegalArgumentException | UncheckedIOException e) {
                throw new ConfigurationException(Constants.BASELINE + "=" + path + ": " + e.getMessage(), e);
            }
        }
        try {
            results = ResultsFile.create(config.results());
        } catch (UncheckedIOException | java.nio.file.InvalidPathException e) {
            throw new ConfigurationException(Constants.RESULTS + "=" + config.results() + ": " + e.getMessage(), e);
        }
        baseline = b;
    }

    /**
     * The profile every point is judged by, loaded once before the first point; its baseline
     * tolerance applies unless the command line sets one.
     */
    public void useProfile(ProfileJudge judge) {
        this.profile = judge;
        this.tolerance = config.baselineTolerance(judge.baselineTolerance());
    }

    /** The allowed regression against the baseline this run uses. */
    public double baselineTolerance() {
        return tolerance;
    }

    public ProfileJudge profile() {
        return profile;
    }

    public void pointStarted(String sweepId, String method, SweepPoint point) {
        anyPoint = true;
        AllureBridge.currentTestCase().ifPresent(uuid -> sweepUuids.computeIfAbsent(sweepId, k -> new ArrayList<>()).add(uuid));
        AllureBridge.pointStarted(placed(point), profile.id(), method);
    }

    /**
     * The point's spec with its GPUs those the profile provides ({@link ProfileJudge#placeGpus}): what a
     * record or report of a point that was not measured (it failed, or was skipped) shows as its
     * memory, as a measured one shows the spec it ran with.
     */
    private TransferSpec placed(SweepPoint point) {
        return profile == null ? point.spec() : profile.placeGpus(point.spec());
    }

    /**
     * Judges a measured point: validation first, then the profile's criteria ("measured vs
     * criterion"), then the baseline. Returns the verdict lines and the failure the point ends with;
     * nothing is reported until {@link #accept} (an attempt may be rerun, see {@link Judgement#rerun}).
     *
     * @param hosts   how busy other processes kept the ranks' hosts while the point ran
     * @param earlier the attempts of this point that were rerun, oldest first
     */
    public Judgement judge(String uniqueId, SweepPoint point, Measurement m, HostLoads hosts, List<Attempt> earlier) {
        List<String> verdicts = new ArrayList<>();
        Optional<String> failure = Optional.empty();
        boolean baselineOnly = false;
        Double criterion = null;
        String headline = null;
        List<Verdict> judged = profile.evaluate(m);
        List<String> criteria = judged.stream().map(Verdict::criterion).filter(c -> !c.isEmpty()).distinct().toList();
        for (Verdict v : judged) {
            verdicts.add(v.toString());
            if (v.kind() == Verdict.Kind.MIN_BANDWIDTH && !Double.isNaN(v.threshold())) {
                criterion = v.threshold();
            }
            if (headline == null && v.kind() != Verdict.Kind.VALIDATION) {
                int colon = v.text().indexOf(": ");
                headline = colon < 0 ? v.text() : v.text().substring(colon + 2);
            }
        }
        if (!m.isValid()) {
            failure = Optional.of(point.displayName() + ": " + m.validation().describe());
        } else {
            List<Verdict> failed = judged.stream().filter(Verdict::failed).toList();
            if (!failed.isEmpty()) {
                failure = Optional.of("below criterion of profile '" + profile.id() + "': "
                        + String.join("; ", failed.stream().map(Verdict::text).toList()));
            }
            Optional<String> regression = baseline.flatMap(b -> b.regression(uniqueId, m, tolerance));
            if (regression.isPresent()) {
                baselineOnly = failure.isEmpty();
                verdicts.add("FAIL " + point.displayName() + ": " + regression.get());
                failure = Optional.of(failure.map(f -> f + "; ").orElse("") + point.displayName() + ": " + regression.get());
            } else if (baseline.isPresent() && baseline.get().covers(uniqueId)) {
                verdicts.add("PASS " + point.displayName() + ": within " + Math.round(tolerance * 100) + " % of the baseline: "
                        + baseline.get().change(uniqueId, m).orElseThrow());
            } else if (baseline.isPresent()) {
                verdicts.add("N/A  " + point.displayName() + ": not compared: the baseline " + baseline.get().source()
                        + " has no measured, validated record of this point");
            }
        }
        if (!hosts.isEmpty()) {
            verdicts.add("HOST " + hosts.describe());
        }
        for (int i = 0; i < earlier.size(); i++) {
            Attempt a = earlier.get(i);
            // Its failure already says how busy the hosts were ("[ran while a host was busy: …]").
            verdicts.add("RERUN attempt " + (i + 1) + " (" + a.measurement().summary() + "): " + a.failure());
        }
        // Say how busy the hosts were whenever a shortfall may be theirs, rerun or not; "still" only
        // after an attempt that was busy too.
        String still = !hosts.busy() ? "" : !earlier.isEmpty() && earlier.getLast().hosts().busy() ? " (still busy)" : " (busy)";
        if (failure.isPresent() && m.isValid() && !earlier.isEmpty()) {
            failure = Optional.of(failure.get() + " [attempt " + (earlier.size() + 1) + "; " + earlier(earlier)
                    + (hosts.isEmpty() ? "" : "; this one: " + hosts.describe() + still) + "]");
        } else if (failure.isPresent() && m.isValid() && hosts.busy()) {
            failure = Optional.of(failure.get() + " [ran while a host was busy: " + hosts.describe() + "]");
        }
        Optional<String> change = m.isValid() ? baseline.flatMap(b -> b.change(uniqueId, m)) : Optional.empty();
        return new Judgement(verdicts, criteria, failure, m.isValid() && failure.isPresent(), baselineOnly, hosts,
                earlier.stream().map(Attempt::kind).toList(), criterion, headline == null ? "" : headline, change);
    }

    /**
     * The attempts before this one and why each was rerun: "the first ran on a busy host: …", "the 2
     * before it fell short of the baseline: …; …", or each attempt's own reason when they differ.
     */
    private static String earlier(List<Attempt> earlier) {
        boolean oneReason = earlier.stream().map(Attempt::reason).distinct().count() == 1;
        String who = earlier.size() == 1 ? "the first" : "the " + earlier.size() + " before it";
        if (oneReason) {
            return who + " " + earlier.getFirst().reason() + ": "
                    + String.join("; ", earlier.stream().map(Attempt::describe).toList());
        }
        List<String> each = new ArrayList<>();
        for (int i = 0; i < earlier.size(); i++) {
            each.add("attempt " + (i + 1) + " " + earlier.get(i).reason() + ": " + earlier.get(i).describe());
        }
        return who + ": " + String.join("; ", each);
    }

    /** Reports a point's last attempt: its figures, verdicts and, in Allure, host load and attempts. */
    public void accept(String sweepId, Measurement m, Judgement judgement) {
        sweepMeasurements.computeIfAbsent(sweepId, k -> new ArrayList<>()).add(m);
        AllureBridge.pointMeasured(m, judgement.verdicts(), judgement.criteria());
        judgement.hosts().initiator().ifPresent(h -> AllureBridge.pointParameter("host load", load(h)));
        judgement.hosts().target().ifPresent(h -> AllureBridge.pointParameter("target host load", load(h)));
        if (judgement.attempts() > 1) {
            AllureBridge.pointParameter("attempts", Integer.toString(judgement.attempts()));
        }
        judgement.baselineChange().ifPresent(c -> AllureBridge.pointParameter("vs baseline", c));
    }

    private static String load(HostContention h) {
        return String.format(java.util.Locale.ROOT, "other %.2f, ours %.2f of %d CPUs", h.otherCpus(), h.ownCpus(), h.cpus());
    }

    /** Why an attempt was rerun. Each has its own allowance: {@code linkproof.busyHost.reruns}, {@code linkproof.baseline.reruns}. */
    public enum RerunKind {
        /** It fell short (of a criterion or its baseline) while other processes kept a host busy. */
        BUSY_HOST,
        /** Its only failure was its baseline, and no busy-host rerun was left or due. */
        BASELINE
    }

    /** An attempt of a point that was rerun, and why ({@code kind}). */
    public record Attempt(Measurement measurement, HostLoads hosts, String failure, RerunKind kind) {
        /** "ran on a busy host", "fell short of the baseline", or "fell short of the baseline on a busy host". */
        public String reason() {
            return kind == RerunKind.BUSY_HOST ? "ran on a busy host"
                    : "fell short of the baseline" + (hosts.busy() ? " on a busy host" : "");
        }

        /** Its figures, and the hosts' load where measured. */
        public String describe() {
            return measurement.summary() + (hosts.isEmpty() ? "" : ", " + hosts.describe());
        }
    }

    /** The profile's curve rules over a finished sweep; the failures, if any. */
    public List<String> judgeSweep(String sweepId) {
        List<Measurement> ms = sweepMeasurements.getOrDefault(sweepId, List.of());
        if (ms.size() < 2) {
            return List.of();
        }
        return profile.evaluateSweep(ms).stream().filter(Verdict::failed).map(Verdict::text).toList();
    }

    /**
     * What the judge said of a point. {@code criteria}: the names of the profile's criteria that judged
     * it; {@code performanceOnly}: it failed on criteria or baseline with its data valid;
     * {@code baselineOnly}: it met the profile's criteria and failed on the baseline alone;
     * {@code reruns}: why each earlier attempt was rerun, oldest first; {@code headline}: the first criterion's verdict,
     * for the console line ("3.9 GB/s ≥ criterion 0.37 GB/s (tcp-bulk: ...)"); {@code baselineChange}:
     * how the point compares with its baseline reference, where there is one and its data validated.
     */
    public record Judgement(List<String> verdicts, List<String> criteria, Optional<String> failure, boolean performanceOnly,
                            boolean baselineOnly, HostLoads hosts, List<RerunKind> reruns, Double criterionGBps, String headline,
                            Optional<String> baselineChange) {
        public Judgement {
            reruns = List.copyOf(reruns);
        }

        /** 1, or more when the point was rerun. */
        public int attempts() {
            return reruns.size() + 1;
        }

        /**
         * Whether to run the point again, and why; its data must be valid. A busy-host rerun when it fell
         * short while other processes kept a host busy, while fewer than {@code busyHostReruns} were made;
         * else a baseline rerun when the baseline alone failed it, busy host or not, while fewer than
         * {@code baselineReruns} were made (a regression repeats, a blip does not). Each kind counts its
         * own reruns. Below a criterion on a quiet host, and data corruption anywhere, fail at once: a
         * criterion is a floor far under what the hardware does, not a neighbour's figure.
         */
        public Optional<RerunKind> rerunFor(int busyHostReruns, int baselineReruns) {
            if (!performanceOnly) {
                return Optional.empty();
            }
            if (hosts.busy() && made(RerunKind.BUSY_HOST) < busyHostReruns) {
                return Optional.of(RerunKind.BUSY_HOST);
            }
            if (baselineOnly && made(RerunKind.BASELINE) < baselineReruns) {
                return Optional.of(RerunKind.BASELINE);
            }
            return Optional.empty();
        }

        public boolean rerun(int busyHostReruns, int baselineReruns) {
            return rerunFor(busyHostReruns, baselineReruns).isPresent();
        }

        private long made(RerunKind kind) {
            return reruns.stream().filter(k -> k == kind).count();
        }

        public void enforce() {
            if (failure.isPresent()) {
                throw new AssertionFailedError(failure.get());
            }
        }
    }

    public void pointFinished(String uniqueId, String sweepId, Class<?> testClass, String method, SweepPoint point,
                              Measurement m, Judgement judgement, TestExecutionResult result) {
        String status = status(result);
        String message = result.getThrowable().map(Throwable::getMessage).orElse(null);
        PointRecord r = PointRecord.of(uniqueId, sweepId, testClass.getName(), method, point.displayName(), placed(point), m,
                status, message, judgement == null ? List.of() : judgement.verdicts(),
                judgement == null ? null : judgement.criteria(),
                judgement == null ? null : judgement.criterionGBps(), linkGBps());
        record(judgement == null ? r : r.withHostLoads(judgement.hosts().initiator().map(HostContention::otherCpus).orElse(null),
                judgement.hosts().initiator().map(HostContention::cpus).orElse(null),
                judgement.hosts().target().map(HostContention::otherCpus).orElse(null),
                judgement.hosts().target().map(HostContention::cpus).orElse(null), judgement.attempts()));
    }

    /**
     * A point's status as the results file, Allure and the run summary name it: passed, skipped, failed
     * (an {@link AssertionError}: a verdict or the method's own check) or broken (anything else).
     */
    static String status(TestExecutionResult result) {
        return switch (result.getStatus()) {
            case SUCCESSFUL -> "passed";
            case ABORTED -> "skipped";
            case FAILED -> result.getThrowable().filter(t -> t instanceof AssertionError).isPresent() ? "failed" : "broken";
        };
    }

    public void pointSkipped(String uniqueId, String sweepId, Class<?> testClass, String method, SweepPoint point, String reason) {
        record(PointRecord.of(uniqueId, sweepId, testClass.getName(), method, point.displayName(), placed(point), null,
                "skipped", reason, List.of(), null, linkGBps()));
    }

    private Double linkGBps() {
        return profile == null ? null : profile.linkGBps().orElse(null);
    }

    private void record(PointRecord r) {
        if (results == null) {
            throw new IllegalStateException("the results file is not open (RunReporter.open)");
        }
        results.append(r);
        sweeps.computeIfAbsent(r.sweep(), k -> new ArrayList<>()).add(r);
    }

    public void sweepFinished(String sweepId, String name) {
        List<PointRecord> points = sweeps.getOrDefault(sweepId, List.of());
        List<String> uuids = sweepUuids.getOrDefault(sweepId, List.of());
        AllureBridge.sweepFinished(name, uuids, points);
    }

    /** Writes the run-level files; a run that ran no point writes none. */
    @Override
    public void close() {
        if (results != null) {
            results.close();
        }
        if (!anyPoint) {
            return;
        }
        RunFiles.writeAll(RunFiles.resultsDirectory(), environment(), System.getenv());
    }

    /**
     * Allure's {@code environment.properties}: the profile, and the host as the probe the profile was
     * matched against saw it, so a fake tree under {@code linkproof.probe.root} is what the report
     * describes too (without a profile, a probe of that root).
     */
    Map<String, String> environment() {
        Map<String, String> env = new LinkedHashMap<>();
        ProfileJudge judge = profile;
        env.put("profile", judge == null ? "none" : judge.describe());
        try {
            ProbeReport host = judge != null ? judge.probe() : new ProfileLoader(config.profileProperties()).probe().get();
            env.putAll(host.environment());
            // Say so when there is no NIC or GPU, rather than leave the reader to guess.
            if (env.keySet().stream().noneMatch(k -> k.startsWith("rdma."))) {
                env.put("rdma", "none (no RDMA device: model, firmware, driver and link rate n/a)");
            }
            if (env.keySet().stream().noneMatch(k -> k.startsWith("gpu."))) {
                env.put("gpu", "none");
            }
        } catch (RuntimeException e) {
            env.put("probe", "failed: " + e.getMessage());
        }
        env.put("jdk", System.getProperty("java.vm.vendor") + " " + Runtime.version());
        return env;
    }

}
