package dev.linkproof.fleet.act;

import dev.linkproof.fleet.blame.Verdict;
import dev.linkproof.fleet.blame.VerdictKind;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Function;

/** A scheduler's commands for the verdicts a {@link Selection} acts on. Shared by every scheduler's actions. */
final class Blamed {
    private Blamed() {}

    static ActPlan plan(Selection selection, Function<Verdict, List<Command>> commands) {
        List<Command> cmds = new ArrayList<>();
        selection.actOn().forEach(v -> cmds.addAll(commands.apply(v)));
        return new ActPlan(cmds, selection.left());
    }

    static boolean actedOn(VerdictKind kind) {
        return Selection.takesOut(kind);
    }
}
