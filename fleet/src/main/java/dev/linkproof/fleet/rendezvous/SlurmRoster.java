package dev.linkproof.fleet.rendezvous;

import dev.linkproof.fleet.FleetConfigurationException;
import java.util.List;
import java.util.Optional;
import java.util.OptionalInt;

/**
 * The expected nodes of a Slurm job: {@code SLURM_JOB_NODELIST} expanded ({@link SlurmHostlist}),
 * checked against the job's node count; this node is {@code SLURMD_NODENAME}, its rank
 * {@code SLURM_PROCID}. The job's list, not the step's: a step may run on fewer nodes than were
 * allocated, and every allocated node is expected. So the count is {@code SLURM_JOB_NUM_NODES},
 * the job's, where set; {@code SLURM_NNODES} only otherwise, since inside {@code srun} it counts the
 * step's nodes.
 */
final class SlurmRoster {
    static final String NODELIST = "SLURM_JOB_NODELIST";
    /** The older name Slurm still sets beside {@link #NODELIST}. */
    static final String OLD_NODELIST = "SLURM_NODELIST";

    private SlurmRoster() {}

    static Roster read(LauncherVariables env) {
        String listName = env.has(NODELIST) || !env.has(OLD_NODELIST) ? NODELIST : OLD_NODELIST;
        String list = env.require(listName, "the job's nodes (lpn[1-4])");
        List<String> nodes;
        try {
            nodes = SlurmHostlist.expand(list);
        } catch (FleetConfigurationException e) {
            throw new FleetConfigurationException(listName + ": " + e.getMessage());
        }
        String countName = env.has("SLURM_JOB_NUM_NODES") ? "SLURM_JOB_NUM_NODES" : "SLURM_NNODES";
        OptionalInt count = env.count(countName);
        if (count.isPresent() && count.getAsInt() != nodes.size()) {
            throw new FleetConfigurationException(countName + "=" + count.getAsInt() + " but " + listName + "=" + list
                    + " names " + nodes.size() + " nodes");
        }
        Optional<String> self = env.get("SLURMD_NODENAME");
        if (self.isPresent() && !nodes.contains(self.get())) {
            throw new FleetConfigurationException(
                    "SLURMD_NODENAME=" + self.get() + " is not in " + listName + "=" + list);
        }
        String origin =
                env.get("SLURM_JOB_ID").map(id -> "Slurm job " + id + ", ").orElse("Slurm, ") + listName + "=" + list;
        return new Roster(
                Launcher.SLURM, origin, nodes, self, env.index("SLURM_PROCID"), Optional.empty(), Optional.empty());
    }
}
