package dev.linkproof.fleet.plan;

import java.util.ArrayList;
import java.util.List;

/**
 * The circle method: node 0 stays put while the others turn one place per round, and the node at
 * place i meets the node at place m−1−i. For an even count m that is m−1 rounds in which every node
 * meets exactly one other and every two nodes meet exactly once; an odd count gets a phantom node,
 * and whoever meets it sits that round out (n rounds). Pairs are oriented from the node earlier in
 * the list, so the output reads in list order.
 */
final class RoundRobin {
    private RoundRobin() {}

    /** One list of node pairs per round; {@code nodes} must be distinct. */
    static List<List<Pair>> matchings(List<String> nodes) {
        int n = nodes.size();
        int m = n % 2 == 0 ? n : n + 1; // index n is the phantom when n is odd
        List<List<Pair>> rounds = new ArrayList<>(m - 1);
        for (int r = 0; r < m - 1; r++) {
            List<Pair> pairs = new ArrayList<>(m / 2);
            for (int i = 0; i < m / 2; i++) {
                int a = place(i, r, m);
                int b = place(m - 1 - i, r, m);
                if (a < n && b < n) {
                    pairs.add(a < b ? new Pair(nodes.get(a), nodes.get(b)) : new Pair(nodes.get(b), nodes.get(a)));
                }
            }
            rounds.add(pairs);
        }
        return rounds;
    }

    /** The node at {@code place} in round {@code r}: place 0 is fixed, the others have turned r times. */
    private static int place(int place, int r, int m) {
        return place == 0 ? 0 : 1 + (place - 1 + r) % (m - 1);
    }
}
