package dev.linkproof.profiles;

import dev.linkproof.transfer.probe.MemoryCopyBaseline;
import java.util.Optional;

/**
 * What criteria are resolved against besides the profile: the host memory-copy baseline, measured
 * once at the start of a run (only needed when a criterion is a fraction of {@code memcpy}).
 */
public record EvaluationContext(Optional<MemoryCopyBaseline> memcpyBaseline) {
    public static EvaluationContext none() {
        return new EvaluationContext(Optional.empty());
    }

    public static EvaluationContext of(MemoryCopyBaseline baseline) {
        return new EvaluationContext(Optional.of(baseline));
    }

    /** Measures the baseline if, and only if, the profile needs it (so RDMA runs pay nothing). */
    public static EvaluationContext forProfile(HardwareProfile profile) {
        return profile.needsMemoryCopyBaseline() ? of(MemoryCopyBaseline.measure()) : none();
    }
}
