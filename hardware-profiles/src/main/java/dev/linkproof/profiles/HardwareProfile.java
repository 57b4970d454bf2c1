package dev.linkproof.profiles;

import java.util.List;
import java.util.Optional;
import java.util.OptionalDouble;

/**
 * A class of hardware, what a run on it may use, and the criteria its points must meet (docs/profiles.md).
 *
 * @param id       short name, e.g. {@code cx7-400g}; what {@code linkproof.profile} takes
 * @param criteria thresholds, by op × memory × mode × size × batch × transport (and its settings)
 * @param layers   where it was assembled from, lowest precedence first
 *                 ({@code built-in cx7-400g}, {@code file ...}, {@code overlay ...}, {@code property ...})
 */
public record HardwareProfile(
        String id,
        String vendor,
        String description,
        List<String> sources,
        MatchRules match,
        ResourceSpec resources,
        TransportConfig transport,
        Defaults defaults,
        BaselineSettings baseline,
        FleetCriteria fleet,
        List<Criterion> criteria,
        List<String> layers) {
    public HardwareProfile {
        sources = List.copyOf(sources);
        criteria = List.copyOf(criteria);
        layers = List.copyOf(layers);
    }

    /** The nominal link rate "× link" criteria refer to, from {@code match.nic.link-rate}. */
    public OptionalDouble linkRateGbps() {
        return match.nic().map(NicRule::linkRateGbps).orElse(OptionalDouble.empty());
    }

    /** Whether some criterion is a fraction of the memory-copy baseline, which must then be measured. */
    public boolean needsMemoryCopyBaseline() {
        return criteria.stream()
                .anyMatch(c -> c.minBandwidth()
                        .filter(b -> b instanceof BandwidthFloor.OfMemcpy)
                        .isPresent());
    }

    public Optional<Criterion> criterion(String name) {
        return criteria.stream().filter(c -> c.name().equals(name)).findFirst();
    }
}
