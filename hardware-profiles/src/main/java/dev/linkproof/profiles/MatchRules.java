package dev.linkproof.profiles;

import java.util.Optional;

/**
 * When a profile applies to a host. A {@code fallback} profile has no hardware rules and is chosen
 * only when no other profile matches (the loopback profile CI uses). An {@code explicit} profile has
 * none either and is never chosen by matching, only by its id or file ({@code linkproof.profile}):
 * one that says nothing about a host's hardware (the generic libfabric profile).
 */
public record MatchRules(boolean fallback, boolean explicit, Optional<NicRule> nic, Optional<GpuRule> gpu) {
    int specificity() {
        return nic.map(n -> 10 + n.specificity()).orElse(0)
                + gpu.map(g -> 10 + g.specificity()).orElse(0);
    }
}
