package dev.linkproof.fleet.rendezvous;

import java.util.Optional;
import java.util.OptionalInt;

/**
 * The expected nodes of an Open MPI launch ({@code mpirun --map-by ppr:1:node}):
 * {@code OMPI_COMM_WORLD_SIZE} processes named {@code rank0} … by {@code OMPI_COMM_WORLD_RANK}, one
 * per node ({@link OneAgentPerNode}). Open MPI gives no coordinator address.
 */
final class OpenMpiRoster {
    static final String SIZE = "OMPI_COMM_WORLD_SIZE";

    private OpenMpiRoster() {}

    static Roster read(LauncherVariables env) {
        int size = env.requireCount(SIZE, "the number of processes");
        int rank = env.requireIndex("OMPI_COMM_WORLD_RANK", "this process's rank");
        LauncherVariables.checkBelow("OMPI_COMM_WORLD_RANK", rank, SIZE, size);
        OneAgentPerNode.check(
                env, "OMPI_COMM_WORLD_LOCAL_SIZE", "OMPI_COMM_WORLD_LOCAL_RANK", "mpirun --map-by ppr:1:node");
        return new Roster(
                Launcher.OPEN_MPI,
                "Open MPI, " + SIZE + "=" + size,
                TorchrunRoster.ranks(size),
                Optional.of("rank" + rank),
                OptionalInt.of(rank),
                Optional.empty(),
                Optional.empty());
    }
}
