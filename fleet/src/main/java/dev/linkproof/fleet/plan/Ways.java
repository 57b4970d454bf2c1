package dev.linkproof.fleet.plan;

import java.util.List;

/**
 * Which directions of a node pair a plan runs, and when. Pairwise round robin and random-k run
 * every pair both ways in the same round, as ClusterKit does: a full-duplex link is loaded both ways
 * at once, which is how training traffic loads it, and the round count stays n−1 rather than
 * doubling. Ring, incast, fan-out and a pair file run exactly the directions they name.
 */
public enum Ways {
    /** Each pair only as the pattern directs it. */
    ONE_WAY("one way"),
    /** Each pair and its reverse, in the same round. */
    BOTH_WAYS_AT_ONCE("both ways at once");

    private final String words;

    Ways(String words) {
        this.words = words;
    }

    /** The directed pairs that run for {@code pair} in its round: the pair, then its reverse when both ways. */
    public List<Pair> directions(Pair pair) {
        return this == ONE_WAY ? List.of(pair) : List.of(pair, pair.reversed());
    }

    /** As printed in the plan's summary. */
    public String words() {
        return words;
    }
}
