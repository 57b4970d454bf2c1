package dev.linkproof.profiles;

import java.util.Optional;

/**
 * The profile a run uses, and how it was chosen.
 *
 * @param profile    the profile with every layer applied
 * @param selection  {@code auto}, {@code built-in <id>} or {@code file <path>}: what {@code linkproof.profile} said
 * @param match      the probe's match report, when the profile was chosen automatically
 */
public record LoadedProfile(HardwareProfile profile, String selection, Optional<MatchReport> match) {
    /** "cx7-400g (auto; built-in cx7-400g ← overlay lab.yaml ← property linkproof.criteria.x.y)". */
    public String describe() {
        return profile.id() + " (" + selection + "; " + String.join(" ← ", profile.layers()) + ")";
    }
}
