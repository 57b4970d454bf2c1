package dev.linkproof.fleet.blame;

import java.util.List;

/** Retests that run at once: no node is in two of them. Numbered from 1. */
public record RetestRound(int number, List<Retest> retests) {
    public RetestRound {
        retests = List.copyOf(retests);
    }
}
