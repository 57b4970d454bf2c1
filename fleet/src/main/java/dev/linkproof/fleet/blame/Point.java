package dev.linkproof.fleet.blame;

import java.util.Objects;

/**
 * One point of a fleet run as the engine names it: its unique id (without the pair, which every
 * pair of the fleet shares the point under) and its display name. The fleet's median and lowest
 * figures are taken per point: a 4 KiB point and a 16 MiB point are never compared.
 */
public record Point(String id, String name) {
    public Point {
        Objects.requireNonNull(id, "id");
        Objects.requireNonNull(name, "name");
    }
}
