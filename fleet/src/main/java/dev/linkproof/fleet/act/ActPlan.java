package dev.linkproof.fleet.act;

import java.util.List;

/** The commands acting on a run's verdicts, in verdict order, and the verdicts left alone. */
public record ActPlan(List<Command> commands, List<NotActedOn> notActedOn) {
    public ActPlan {
        commands = List.copyOf(commands);
        notActedOn = List.copyOf(notActedOn);
    }

    /** The commands as an operator would type them, one a line: the dry run. */
    public List<String> shellLines() {
        return commands.stream().map(Command::shellLine).toList();
    }
}
