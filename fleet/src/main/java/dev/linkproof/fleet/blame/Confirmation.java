package dev.linkproof.fleet.blame;

import dev.linkproof.fleet.plan.Pair;

/**
 * A (directed pair, point) to run {@code runs} more times before any verdict: a pair that failed,
 * or the reverse of one, so each direction ends with the first run and its confirmations.
 */
public record Confirmation(Pair pair, Point point, int runs) {
    public Confirmation {
        if (runs < 1) {
            throw new IllegalArgumentException("a confirmation runs at least once, not " + runs);
        }
    }
}
