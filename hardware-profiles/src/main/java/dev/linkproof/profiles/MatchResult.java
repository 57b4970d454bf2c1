package dev.linkproof.profiles;

import java.util.List;

/**
 * How one profile fared against a probe.
 *
 * @param matched     whether every rule held (a fallback profile always "matches")
 * @param specificity how many rules it set; among matches, the most specific is chosen
 * @param reasons     why it matched, or why not: one line per rule; a line starting with two spaces details the
 *                    rule line above it (one rejected device each)
 */
public record MatchResult(String profileId, boolean matched, boolean fallback, int specificity, List<String> reasons) {
    public MatchResult {
        reasons = List.copyOf(reasons);
    }

    /** The reasons on one line: "nic: no RDMA device matches — mlx5_0 (...): ...; mlx5_1 (...): ...; gpu: ...". */
    public String summary() {
        StringBuilder sb = new StringBuilder();
        boolean previousWasDetail = false;
        for (String r : reasons) {
            boolean detail = r.startsWith("  ");
            if (detail) {
                sb.append(previousWasDetail ? "; " : " — ").append(r.strip());
            } else {
                sb.append(sb.isEmpty() ? "" : "; ").append(r);
            }
            previousWasDetail = detail;
        }
        return sb.toString();
    }

    MatchResult withReason(String extra) {
        List<String> r = new java.util.ArrayList<>(reasons);
        r.add(extra);
        return new MatchResult(profileId, matched, fallback, specificity, r);
    }
}
