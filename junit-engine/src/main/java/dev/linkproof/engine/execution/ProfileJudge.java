package dev.linkproof.engine.execution;

import dev.linkproof.profiles.CriteriaEvaluator;
import dev.linkproof.profiles.EvaluationContext;
import dev.linkproof.profiles.HardwareProfile;
import dev.linkproof.profiles.LoadedProfile;
import dev.linkproof.profiles.ProfileException;
import dev.linkproof.profiles.ProfileLoader;
import dev.linkproof.profiles.ResourcePlan;
import dev.linkproof.profiles.Verdict;
import dev.linkproof.transfer.Measurement;
import dev.linkproof.transfer.TransferSpec;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalDouble;

/**
 * The run's hardware profile, loaded once before any transfer: what the host may use (the
 * resource plan, which skips points the profile or host cannot serve) and the criteria every point
 * is judged by.
 */
public final class ProfileJudge {
    private final LoadedProfile loaded;
    private final ResourcePlan plan;
    private final CriteriaEvaluator evaluator;

    private ProfileJudge(LoadedProfile loaded, ResourcePlan plan, CriteriaEvaluator evaluator) {
        this.loaded = loaded;
        this.plan = plan;
        this.evaluator = evaluator;
    }

    /**
     * Loads the profile {@code linkproof.profile} names (auto by default: matched against the probe).
     *
     * @throws ProfileException naming file, line and column of what is wrong
     */
    public static ProfileJudge load(Map<String, String> properties) {
        ProfileLoader loader = new ProfileLoader(properties);
        LoadedProfile loaded = loader.load();
        HardwareProfile p = loaded.profile();
        ResourcePlan plan = ResourcePlan.of(p, loader.probe().get());
        return new ProfileJudge(loaded, plan, new CriteriaEvaluator(p, EvaluationContext.forProfile(p)));
    }

    public String id() {
        return loaded.profile().id();
    }

    public String describe() {
        return loaded.describe();
    }

    /** The point's spec with the profile's transport settings beneath its own (e.g. {@code UCX_TLS}). */
    public TransferSpec apply(TransferSpec spec) {
        return spec.withDefaultSettings(loaded.profile().transport().settings());
    }

    /** The profile's baseline tolerance, when it sets one. */
    public OptionalDouble baselineTolerance() {
        return loaded.profile().baseline().tolerance();
    }

    /** Environment variables a local agent gets from the profile. */
    public Map<String, String> agentEnvironment() {
        return loaded.profile().transport().environment();
    }

    public Optional<String> unavailable(TransferSpec spec) {
        return plan.unavailable(spec);
    }

    public List<Verdict> evaluate(Measurement m) {
        return evaluator.evaluate(m);
    }

    public List<Verdict> evaluateSweep(List<Measurement> sweep) {
        return evaluator.evaluateSweep(sweep);
    }

    /** The link rate in GB/s (10⁹ B/s), when the profile states one. */
    public Optional<Double> linkGBps() {
        var rate = loaded.profile().linkRateGbps();
        return rate.isPresent() ? Optional.of(rate.getAsDouble() / 8) : Optional.empty();
    }
}
