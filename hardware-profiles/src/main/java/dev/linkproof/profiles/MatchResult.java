package dev.linkproof.profiles;

import java.util.List;

/**
 * How one profile fared against a probe.
 *
 * @param profileId    the profile
 * @param matched      whether every rule held (a fallback profile always "matches")
 * @param fallback     whether it is a fallback profile
 * @param specificity  how many rules it set; among matches, the most specific is chosen
 * @param reasons      why it matched, or why not, one line per rule
 */
public record MatchResult(String profileId, boolean matched, boolean fallback, int specificity, List<String> reasons) {
    public MatchResult {
        reasons = List.copyOf(reasons);
    }

    public String summary() {
        return String.join("; ", reasons);
    }

    MatchResult withReason(String extra) {
        List<String> r = new java.util.ArrayList<>(reasons);
        r.add(extra);
        return new MatchResult(profileId, matched, fallback, specificity, r);
    }
}
