package dev.linkproof.fleet.act;

import dev.linkproof.fleet.blame.Verdict;
import dev.linkproof.fleet.blame.VerdictKind;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * Which verdicts a run acts on, decided once for every scheduler: a node verdict that takes a node
 * out, when the fleet is not degraded, the run singles out no more nodes than the breaker allows,
 * and — with a history — the node was blamed in enough of the last runs. Everything else is left
 * alone with its reason.
 *
 * @param actOn the verdicts to act on, in verdict order
 * @param left  the verdicts left alone, and why
 */
public record Selection(List<Verdict> actOn, List<NotActedOn> left) {
    public Selection {
        actOn = List.copyOf(actOn);
        left = List.copyOf(left);
    }

    /**
     * @param mostNodes the most nodes one run may act on (the circuit breaker's share of the fleet)
     * @param history   earlier runs, empty when none are kept: then this run's confirmed verdicts alone decide
     */
    public static Selection of(List<Verdict> verdicts, int mostNodes, Optional<History> history, ActAfter after) {
        List<Verdict> act = new ArrayList<>();
        List<NotActedOn> left = new ArrayList<>();
        for (Verdict v : verdicts) {
            switch (v.kind()) {
                case BAD_LINK -> left.add(new NotActedOn(v, NotActedOn.Why.LINK_NODES_ARE_FINE));
                case MISSING_NODE -> left.add(new NotActedOn(v, NotActedOn.Why.NEVER_REGISTERED));
                case FLEET_DEGRADED -> left.add(new NotActedOn(v, NotActedOn.Why.FLEET_DEGRADED));
                case BAD_NODE, CORRUPTING_NODE, UNREACHABLE_NODE -> {
                    if (history.isPresent()) {
                        int earlier = after.window() - 1;
                        int blamed = 1 + history.get().blamedIn(v.node(), earlier);
                        if (blamed < after.count()) {
                            left.add(new NotActedOn(
                                    v,
                                    NotActedOn.Why.NOT_CONFIRMED_BY_HISTORY,
                                    String.format(
                                            "a suspect: blamed in %d of the last %d runs, acting needs %d of %d",
                                            blamed, 1 + history.get().last(earlier), after.count(), after.window())));
                            continue;
                        }
                    }
                    act.add(v);
                }
            }
        }
        if (act.size() > mostNodes) {
            // The breaker again, at the last step: never more than its share, whatever the verdicts say.
            String detail = act.size() + " nodes to act on, more than the " + mostNodes + " one run may take out";
            act.forEach(v -> left.add(new NotActedOn(v, NotActedOn.Why.TOO_MANY_NODES, detail)));
            act.clear();
        }
        return new Selection(act, left);
    }

    /** Whether a verdict's kind takes its node out of service. */
    static boolean takesOut(VerdictKind kind) {
        return kind == VerdictKind.BAD_NODE
                || kind == VerdictKind.CORRUPTING_NODE
                || kind == VerdictKind.UNREACHABLE_NODE;
    }
}
