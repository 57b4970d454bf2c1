package dev.linkproof.engine.judging;

import dev.linkproof.profiles.CriteriaEvaluator;
import dev.linkproof.profiles.EvaluationContext;
import dev.linkproof.profiles.FleetCriteria;
import dev.linkproof.profiles.HardwareProfile;
import dev.linkproof.profiles.Verdict;
import dev.linkproof.transfer.measure.Measurement;
import java.util.List;
import java.util.Optional;
import java.util.OptionalDouble;

/**
 * What a measured point, a sweep and a fleet are judged against: the profile's criteria, its
 * baseline tolerance and its link rate. It neither places nor admits a point; {@link PointJudge}
 * decides with it.
 */
public final class ProfileCriteria {
    private final HardwareProfile profile;
    private final CriteriaEvaluator evaluator;

    ProfileCriteria(HardwareProfile profile) {
        this.profile = profile;
        this.evaluator = new CriteriaEvaluator(profile, EvaluationContext.forProfile(profile));
    }

    /** The profile the criteria are of, as a failure names it ("below criterion of profile '…'"). */
    public String profileId() {
        return profile.id();
    }

    public List<Verdict> evaluate(Measurement m) {
        return evaluator.evaluate(m);
    }

    public List<Verdict> evaluateSweep(List<Measurement> sweep) {
        return evaluator.evaluateSweep(sweep);
    }

    /** The profile's baseline tolerance, when it sets one. */
    public OptionalDouble baselineTolerance() {
        return profile.baseline().tolerance();
    }

    /** The profile's fleet-relative criteria (its {@code fleet} section), each empty when it sets none. */
    public FleetCriteria fleetCriteria() {
        return profile.fleet();
    }

    /** The link rate in GB/s (10⁹ B/s), when the profile states one. */
    public Optional<Double> linkGBps() {
        var rate = profile.linkRateGbps();
        return rate.isPresent() ? Optional.of(rate.getAsDouble() / 8) : Optional.empty();
    }
}
