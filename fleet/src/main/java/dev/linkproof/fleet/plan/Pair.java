package dev.linkproof.fleet.plan;

import java.util.Objects;

/**
 * One directed pair of a fleet run: {@code initiator} moves data to (or reads from) {@code target}.
 * Nodes are named as the launcher names them (Slurm node names, pod names, host-file entries).
 */
public record Pair(String initiator, String target) {
    public Pair {
        Objects.requireNonNull(initiator, "initiator");
        Objects.requireNonNull(target, "target");
        if (initiator.equals(target)) {
            throw new IllegalArgumentException("a pair needs two nodes, not " + initiator + " with itself");
        }
    }

    /** The same two nodes the other way round. */
    public Pair reversed() {
        return new Pair(target, initiator);
    }

    /** As it appears in a unique id and in reports: {@code lpn1->lpn2}. */
    public String label() {
        return initiator + "->" + target;
    }

    @Override
    public String toString() {
        return label();
    }
}
