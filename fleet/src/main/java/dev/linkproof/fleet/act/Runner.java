package dev.linkproof.fleet.act;

import java.util.ArrayList;
import java.util.List;

/**
 * Carries out acting's commands one after another, each under a deadline, and reports how each
 * went; one failing does not stop the others (each node is taken out on its own). Slurm's are
 * programs ({@link CommandRunner}); Kubernetes' are calls to the API server ({@link KubernetesApi}).
 */
public interface Runner {
    CommandOutcome run(Command c);

    default List<CommandOutcome> run(List<Command> commands) {
        List<CommandOutcome> outcomes = new ArrayList<>(commands.size());
        for (Command c : commands) {
            outcomes.add(run(c));
        }
        return outcomes;
    }

    default List<CommandOutcome> run(ActPlan plan) {
        return run(plan.commands());
    }
}
