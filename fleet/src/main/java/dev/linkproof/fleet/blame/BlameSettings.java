package dev.linkproof.fleet.blame;

/**
 * What the profile sets for the blame: the fleet-relative thresholds, and how many (pair, point)s a
 * verdict lists as evidence (the rest are counted, not listed).
 */
public record BlameSettings(Thresholds thresholds, int evidenceLimit) {
    public static final BlameSettings DEFAULTS = new BlameSettings(Thresholds.CLUSTERKIT, 32);

    public BlameSettings {
        if (evidenceLimit < 1) {
            throw new IllegalArgumentException("evidence limit must be at least 1, not " + evidenceLimit);
        }
    }
}
