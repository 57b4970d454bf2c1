package dev.linkproof.fleet.blame;

/**
 * What the profile and the run set for the blame (docs/fleet.md, "How a verdict is reached").
 *
 * @param confirmations     how many more times a failing pair runs, itself and both ways, before it counts (1 to
 *                          20): it fails when it failed in a majority of all its runs, so no verdict rests on one run
 * @param maxBlamedFraction the circuit breaker: when the verdicts would single out more than this share of the
 *                          fleet's nodes, the run names none and gives one {@link VerdictKind#FLEET_DEGRADED} verdict
 * @param evidenceLimit     how many runs a verdict lists as evidence (the rest are counted)
 */
public record BlameSettings(Thresholds thresholds, int confirmations, double maxBlamedFraction, int evidenceLimit) {
    public static final BlameSettings DEFAULTS = new BlameSettings(Thresholds.DEFAULTS, 3, 0.25, 32);

    public BlameSettings {
        java.util.Objects.requireNonNull(thresholds, "thresholds");
        if (confirmations < 1 || confirmations > 20) {
            throw new IllegalArgumentException(
                    "confirmations must be 1..20 (a verdict never rests on one run), not " + confirmations);
        }
        if (!(maxBlamedFraction > 0 && maxBlamedFraction <= 1)) {
            throw new IllegalArgumentException(
                    "the largest blamed fraction must be in (0, 1], not " + maxBlamedFraction);
        }
        if (evidenceLimit < 1) {
            throw new IllegalArgumentException("evidence limit must be at least 1, not " + evidenceLimit);
        }
    }

    /** How many runs a confirmed (pair, point) has: the first and its confirmations. */
    public int runsPerPair() {
        return 1 + confirmations;
    }

    /** The most nodes a run may single out in a fleet of {@code nodes}: two of eight at 0.25, not three. */
    public int mostBlamed(int nodes) {
        return (int) Math.floor(maxBlamedFraction * nodes + 1e-9);
    }
}
