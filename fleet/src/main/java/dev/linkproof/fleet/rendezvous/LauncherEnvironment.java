package dev.linkproof.fleet.rendezvous;

import dev.linkproof.fleet.FleetConfigurationException;
import java.util.Map;
import java.util.Optional;

/**
 * Who is expected, from the environment a launcher gave this process (a map, so the caller decides whether it is
 * {@code System.getenv()}). Detection looks for, in this order: {@code JOB_COMPLETION_INDEX} (a Kubernetes Indexed
 * Job), {@code WORLD_SIZE} with {@code MASTER_ADDR} (torchrun), {@code OMPI_COMM_WORLD_SIZE} (Open MPI),
 * {@code SLURM_JOB_NODELIST} or {@code SLURM_NODELIST} (Slurm). The innermost launcher comes first: torchrun or
 * mpirun run inside a Slurm allocation inherit its variables, and it is they, not Slurm, that started this process.
 * A host file is never detected; it is named ({@link HostFile}).
 */
public final class LauncherEnvironment {
    private LauncherEnvironment() {}

    /** The launcher whose variables are present, first in the order above. */
    public static Optional<Launcher> detect(Map<String, String> env) {
        LauncherVariables v = new LauncherVariables(env, Launcher.SLURM);
        if (v.has(KubernetesRoster.INDEX)) {
            return Optional.of(Launcher.KUBERNETES);
        }
        if (v.has("WORLD_SIZE") && v.has("MASTER_ADDR")) {
            return Optional.of(Launcher.TORCHRUN);
        }
        if (v.has(OpenMpiRoster.SIZE)) {
            return Optional.of(Launcher.OPEN_MPI);
        }
        if (v.has(SlurmRoster.NODELIST) || v.has(SlurmRoster.OLD_NODELIST)) {
            return Optional.of(Launcher.SLURM);
        }
        return Optional.empty();
    }

    /** The roster of the detected launcher; an error lists what was looked for when none is. */
    public static Roster roster(Map<String, String> env) {
        Launcher launcher = detect(env)
                .orElseThrow(() -> new FleetConfigurationException(
                        "no launcher in the environment: none of JOB_COMPLETION_INDEX (Kubernetes Indexed Job),"
                                + " WORLD_SIZE with MASTER_ADDR (torchrun), OMPI_COMM_WORLD_SIZE (Open MPI),"
                                + " SLURM_JOB_NODELIST (Slurm) is set; name a host file instead"));
        return roster(launcher, env, Optional.empty());
    }

    /**
     * The roster of the named launcher, its variables required: an error names the one missing or
     * malformed. {@code kubernetesJob} is the configured Job, Service and count, used only for
     * {@link Launcher#KUBERNETES}, where the environment lacks them.
     */
    public static Roster roster(Launcher launcher, Map<String, String> env, Optional<KubernetesJob> kubernetesJob) {
        LauncherVariables v = new LauncherVariables(env, launcher);
        return switch (launcher) {
            case SLURM -> SlurmRoster.read(v);
            case KUBERNETES -> KubernetesRoster.read(v, kubernetesJob);
            case TORCHRUN -> TorchrunRoster.read(v);
            case OPEN_MPI -> OpenMpiRoster.read(v);
            case HOST_FILE ->
                throw new FleetConfigurationException(
                        "a host file is read from its path (HostFile.read), not from the environment");
        };
    }
}
