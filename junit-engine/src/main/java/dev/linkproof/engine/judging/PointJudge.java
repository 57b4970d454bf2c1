package dev.linkproof.engine.judging;

import dev.linkproof.engine.api.SweepPoint;
import dev.linkproof.engine.config.ConfigurationException;
import dev.linkproof.engine.config.Constants;
import dev.linkproof.engine.config.LinkproofConfiguration;
import dev.linkproof.profiles.Verdict;
import dev.linkproof.reports.baseline.Baseline;
import dev.linkproof.transfer.FailureKind;
import dev.linkproof.transfer.measure.Measurement;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Decides every verdict of a run: a point's validation, the profile's criteria ("measured vs
 * criterion"), its baseline, whether to rerun it, and the profile's curve rules over a finished
 * sweep. It owns the profile's criteria and the baseline; reporting only writes down what it decided.
 */
public final class PointJudge {
    private final ProfileCriteria criteria;
    private final Optional<Baseline> baseline;
    private final double tolerance;
    private final Map<String, List<Measurement>> sweeps = new ConcurrentHashMap<>();

    public PointJudge(ProfileCriteria criteria, Optional<Baseline> baseline, double tolerance) {
        this.criteria = criteria;
        this.baseline = baseline;
        this.tolerance = tolerance;
    }

    /**
     * The judge of a run with {@code config}: its baseline ({@code linkproof.baseline}) read, its
     * tolerance by precedence (built-in &lt; profile &lt; command line).
     *
     * @throws ConfigurationException naming the key and the file, when the baseline cannot be read
     */
    public static PointJudge load(LinkproofConfiguration config, ProfileCriteria criteria) {
        Optional<Baseline> b = Optional.empty();
        if (config.baseline().isPresent()) {
            Path path = config.baseline().get();
            try {
                b = Optional.of(Baseline.load(path));
            } catch (IllegalArgumentException | UncheckedIOException e) {
                throw new ConfigurationException(Constants.BASELINE + "=" + path + ": " + e.getMessage(), e);
            }
        }
        return new PointJudge(criteria, b, config.baselineTolerance(criteria.baselineTolerance()));
    }

    /** The allowed regression against the baseline this run uses. */
    public double baselineTolerance() {
        return tolerance;
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
        Optional<FailureKind> kind = Optional.empty();
        boolean baselineOnly = false;
        Double criterion = null;
        String headline = null;
        List<Verdict> judged = criteria.evaluate(m);
        List<String> criteria = judged.stream()
                .map(Verdict::criterion)
                .filter(c -> !c.isEmpty())
                .distinct()
                .toList();
        for (Verdict v : judged) {
            verdicts.add(v.toString());
            // The floor of the point's own figure: one pair's, or a rails point's aggregate. A per-rail
            // floor (a verdict with a rail) is not drawn against the aggregate.
            if ((v.kind() == Verdict.Kind.MIN_BANDWIDTH || v.kind() == Verdict.Kind.MIN_AGGREGATE_BANDWIDTH)
                    && v.rail().isEmpty()
                    && !Double.isNaN(v.threshold())) {
                criterion = v.threshold();
            }
        }
        // The console's headline: the first verdict on the whole point; of a rails point judged rail by
        // rail only, the first failing rail's, else the first rail's (its text names the rail).
        Optional<Verdict> first = judged.stream()
                .filter(v -> v.kind() != Verdict.Kind.VALIDATION && v.rail().isEmpty())
                .findFirst()
                .or(() -> judged.stream()
                        .filter(v -> v.kind() != Verdict.Kind.VALIDATION && v.failed())
                        .findFirst())
                .or(() -> judged.stream()
                        .filter(v -> v.kind() != Verdict.Kind.VALIDATION)
                        .findFirst());
        if (first.isPresent()) {
            String text = first.get().text();
            int colon = text.indexOf(": ");
            headline = colon < 0 ? text : text.substring(colon + 2);
        }
        if (!m.isValid()) {
            failure = Optional.of(point.displayName() + ": " + m.validation().describe());
            kind = m.validation().failureKind();
        } else {
            List<Verdict> failed = judged.stream().filter(Verdict::failed).toList();
            if (!failed.isEmpty()) {
                failure = Optional.of("below criterion of profile '" + this.criteria.profileId() + "': "
                        + String.join("; ", failed.stream().map(Verdict::text).toList()));
                kind = Optional.of(FailureKind.BELOW_CRITERION);
            }
            Optional<String> regression = baseline.flatMap(b -> b.regression(uniqueId, m, tolerance));
            if (regression.isPresent()) {
                baselineOnly = failure.isEmpty();
                verdicts.add("FAIL " + point.displayName() + ": " + regression.get());
                failure = Optional.of(
                        failure.map(f -> f + "; ").orElse("") + point.displayName() + ": " + regression.get());
                kind = Optional.of(baselineOnly ? FailureKind.PERFORMANCE_REGRESSION : FailureKind.BELOW_CRITERION);
            } else if (baseline.isPresent() && baseline.get().covers(uniqueId)) {
                verdicts.add("PASS " + point.displayName() + ": within " + Math.round(tolerance * 100)
                        + " % of the baseline: "
                        + baseline.get().change(uniqueId, m).orElseThrow());
            } else if (baseline.isPresent()) {
                verdicts.add("N/A  " + point.displayName() + ": not compared: the baseline "
                        + baseline.get().source() + " has no measured, validated record of this point");
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
        String still = !hosts.busy()
                ? ""
                : !earlier.isEmpty() && earlier.getLast().hosts().busy() ? " (still busy)" : " (busy)";
        if (failure.isPresent() && m.isValid() && !earlier.isEmpty()) {
            failure = Optional.of(failure.get() + " [attempt " + (earlier.size() + 1) + "; " + earlier(earlier)
                    + (hosts.isEmpty() ? "" : "; this one: " + hosts.describe() + still) + "]");
        } else if (failure.isPresent() && m.isValid() && hosts.busy()) {
            failure = Optional.of(failure.get() + " [ran while a host was busy: " + hosts.describe() + "]");
        }
        if (failure.isPresent() && m.isValid() && hosts.busy()) {
            // Short while other processes kept a host busy: perhaps theirs, not the transport's.
            kind = Optional.of(FailureKind.SHORT_ON_BUSY_HOST);
        }
        Optional<String> change = m.isValid() ? baseline.flatMap(b -> b.change(uniqueId, m)) : Optional.empty();
        return new Judgement(
                verdicts,
                criteria,
                failure,
                kind,
                m.isValid() && failure.isPresent(),
                baselineOnly,
                hosts,
                earlier.stream().map(Attempt::kind).toList(),
                criterion,
                headline == null ? "" : headline,
                change);
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
            each.add("attempt " + (i + 1) + " " + earlier.get(i).reason() + ": "
                    + earlier.get(i).describe());
        }
        return who + ": " + String.join("; ", each);
    }

    /** Keeps a point's last attempt for the curve rules over its sweep ({@link #judgeSweep}). */
    public void accept(String sweepId, Measurement m) {
        sweeps.computeIfAbsent(sweepId, k -> new ArrayList<>()).add(m);
    }

    /** The profile's curve rules over a finished sweep; the failures, if any. */
    public List<String> judgeSweep(String sweepId) {
        List<Measurement> ms = sweeps.getOrDefault(sweepId, List.of());
        if (ms.size() < 2) {
            return List.of();
        }
        return criteria.evaluateSweep(ms).stream()
                .filter(Verdict::failed)
                .map(Verdict::text)
                .toList();
    }
}
