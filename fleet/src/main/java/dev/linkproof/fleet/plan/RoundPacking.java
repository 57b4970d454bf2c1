package dev.linkproof.fleet.plan;

import java.util.ArrayList;
import java.util.BitSet;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Directed pairs packed into disjoint rounds ({@link Round#isDisjoint}), first fit in the given
 * order: each pair goes to the earliest round where its initiator sends nothing yet and its target
 * receives nothing yet. Per-node bit sets of busy rounds make that a few word operations per pair,
 * so a pair file as large as a 1,024-node round robin still packs at once.
 */
final class RoundPacking {
    private RoundPacking() {}

    static List<Round> pack(List<Pair> pairs) {
        Map<String, BitSet> sending = new HashMap<>();
        Map<String, BitSet> receiving = new HashMap<>();
        List<List<Pair>> rounds = new ArrayList<>();
        for (Pair p : pairs) {
            BitSet send = sending.computeIfAbsent(p.initiator(), n -> new BitSet());
            BitSet receive = receiving.computeIfAbsent(p.target(), n -> new BitSet());
            BitSet busy = (BitSet) send.clone();
            busy.or(receive);
            int r = busy.nextClearBit(0);
            if (r == rounds.size()) {
                rounds.add(new ArrayList<>());
            }
            rounds.get(r).add(p);
            send.set(r);
            receive.set(r);
        }
        List<Round> result = new ArrayList<>(rounds.size());
        for (List<Pair> r : rounds) {
            result.add(new Round(result.size() + 1, r));
        }
        return result;
    }
}
