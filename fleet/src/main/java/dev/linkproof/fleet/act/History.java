package dev.linkproof.fleet.act;

import java.time.Instant;
import java.util.Comparator;
import java.util.List;
import java.util.Set;

/**
 * Earlier runs of the same fleet, oldest first, as much as acting needs of them: when each ended and
 * which nodes it blamed with a verdict that takes a node out (bad, corrupting, unreachable). Read
 * from a directory of earlier verdict documents ({@code linkproof.fleet.history}).
 */
public record History(List<PastRun> runs) {
    public static final History EMPTY = new History(List.of());

    /** One earlier run. */
    public record PastRun(String id, Instant finished, Set<String> blamed) {
        public PastRun {
            blamed = Set.copyOf(blamed);
        }
    }

    public History {
        runs = runs.stream().sorted(Comparator.comparing(PastRun::finished)).toList();
    }

    /** How many of the last {@code n} earlier runs blamed {@code node}. */
    public int blamedIn(String node, int n) {
        return (int) runs.subList(Math.max(0, runs.size() - n), runs.size()).stream()
                .filter(r -> r.blamed().contains(node))
                .count();
    }

    /** How many earlier runs of the last {@code n} there are. */
    public int last(int n) {
        return Math.min(n, runs.size());
    }
}
