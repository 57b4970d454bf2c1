package dev.linkproof.profiles;

import java.util.List;
import java.util.Optional;

/**
 * Which profile a probe selects, and every profile's result.
 *
 * @param selected  the chosen profile's id; empty when nothing matched and there is no fallback
 * @param results   one per profile, in the order they were given
 */
public record MatchReport(Optional<String> selected, List<MatchResult> results) {
    public MatchReport {
        results = List.copyOf(results);
    }

    public Optional<MatchResult> result(String profileId) {
        return results.stream().filter(r -> r.profileId().equals(profileId)).findFirst();
    }

    /** One line per profile: "✔ cx7-400g — nic: mlx5_0 ..." / "✘ thor2-400g — nic: ...". */
    public String explain() {
        StringBuilder sb = new StringBuilder();
        for (MatchResult r : results) {
            boolean chosen = selected.filter(r.profileId()::equals).isPresent();
            sb.append(chosen ? "selected    " : r.matched() ? "also fits   " : "no match    ")
                    .append(r.profileId())
                    .append(": ")
                    .append(r.summary())
                    .append('\n');
        }
        if (selected.isEmpty()) {
            sb.append("no profile matches this host\n");
        }
        return sb.toString();
    }
}
