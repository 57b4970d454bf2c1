package dev.linkproof.fleet.blame;

import java.util.Objects;

/**
 * One point of a fleet run as the engine names it: its unique id without the pair (every pair shares the point under
 * it), its display name, and the figure the fleet judges it on. The fleet's median and spread are per point.
 *
 * @param judgedOn {@link Measure#BANDWIDTH} for a bandwidth point, {@link Measure#LATENCY} for a latency-mode
 *                 point: a bandwidth point's average latency is its bandwidth seen the other way round, and
 *                 judging both would count one slow pair twice
 */
public record Point(String id, String name, Measure judgedOn) {
    public Point {
        Objects.requireNonNull(id, "id");
        Objects.requireNonNull(name, "name");
        Objects.requireNonNull(judgedOn, "judgedOn");
    }

    /** A bandwidth point. */
    public Point(String id, String name) {
        this(id, name, Measure.BANDWIDTH);
    }
}
