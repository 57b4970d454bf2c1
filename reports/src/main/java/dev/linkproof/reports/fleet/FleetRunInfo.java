package dev.linkproof.reports.fleet;

import java.time.Instant;
import java.util.Objects;

/**
 * What fleet-verdict.json says about the run itself: its id (the results file's), when it started
 * and finished, the pattern that paired the nodes, and the profile that judged them.
 */
public record FleetRunInfo(String id, Instant started, Instant finished, String pattern, String profile) {
    public FleetRunInfo {
        Objects.requireNonNull(id, "id");
        Objects.requireNonNull(started, "started");
        Objects.requireNonNull(finished, "finished");
        Objects.requireNonNull(pattern, "pattern");
        Objects.requireNonNull(profile, "profile");
    }
}
