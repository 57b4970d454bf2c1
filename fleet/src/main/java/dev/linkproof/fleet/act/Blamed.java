package dev.linkproof.fleet.act;

import dev.linkproof.fleet.blame.Verdict;
import dev.linkproof.fleet.blame.VerdictKind;
import java.util.List;
import java.util.function.Function;

/**
 * Which verdicts are acted on: a bad, corrupting or unreachable node is taken out of service; a bad
 * link's nodes are not (they pass with every other partner), nor a node that never registered (the
 * run knows nothing about it, only about the launch). Shared by every scheduler's actions.
 */
final class Blamed {
    private Blamed() {
    }

    static ActPlan plan(List<Verdict> verdicts, Function<Verdict, List<Command>> commands) {
        List<Command> cmds = new java.util.ArrayList<>();
        List<NotActedOn> left = new java.util.ArrayList<>();
        for (Verdict v : verdicts) {
            switch (v.kind()) {
                case BAD_NODE, CORRUPTING_NODE, UNREACHABLE_NODE -> cmds.addAll(commands.apply(v));
                case BAD_LINK -> left.add(new NotActedOn(v, NotActedOn.Why.LINK_NODES_ARE_FINE));
                case MISSING_NODE -> left.add(new NotActedOn(v, NotActedOn.Why.NEVER_REGISTERED));
            }
        }
        return new ActPlan(cmds, left);
    }

    static boolean actedOn(VerdictKind kind) {
        return kind == VerdictKind.BAD_NODE || kind == VerdictKind.CORRUPTING_NODE || kind == VerdictKind.UNREACHABLE_NODE;
    }
}
