package dev.linkproof.profiles;

import java.util.Optional;

/**
 * When a profile applies to a host. A {@code fallback} profile has no hardware rules and is chosen
 * only when no other profile matches (the loopback profile CI uses).
 */
public record MatchRules(boolean fallback, Optional<NicRule> nic, Optional<GpuRule> gpu) {
    int specificity() {
        return nic.map(n -> 10 + n.specificity()).orElse(0) + gpu.map(g -> 10 + g.specificity()).orElse(0);
    }
}
