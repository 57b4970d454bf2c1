package dev.linkproof.fleet.rendezvous;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.linkproof.fleet.FleetConfigurationException;
import java.net.InetSocketAddress;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalInt;
import org.junit.jupiter.api.Test;

/** Each launcher's environment, as the launcher sets it and as it goes wrong. */
class LauncherEnvironmentTest {
    private static final Map<String, String> SLURM_TASK = Map.of(
            "SLURM_JOB_ID",
            "17",
            "SLURM_JOB_NODELIST",
            "lpn[1-4]",
            "SLURM_JOB_NUM_NODES",
            "4",
            "SLURM_NNODES",
            "4",
            "SLURMD_NODENAME",
            "lpn3",
            "SLURM_PROCID",
            "2");

    private static Map<String, String> with(Map<String, String> base, String... keyValues) {
        Map<String, String> env = new HashMap<>(base);
        for (int i = 0; i < keyValues.length; i += 2) {
            if (keyValues[i + 1] == null) {
                env.remove(keyValues[i]);
            } else {
                env.put(keyValues[i], keyValues[i + 1]);
            }
        }
        return env;
    }

    private static void fails(Map<String, String> env, String message) {
        assertThatThrownBy(() -> LauncherEnvironment.roster(env))
                .isInstanceOf(FleetConfigurationException.class)
                .hasMessage(message);
    }

    @Test
    void slurmTaskKnowsTheJobsNodesAndItself() {
        Roster r = LauncherEnvironment.roster(SLURM_TASK);

        assertThat(r.launcher()).isEqualTo(Launcher.SLURM);
        assertThat(r.nodes()).containsExactly("lpn1", "lpn2", "lpn3", "lpn4");
        assertThat(r.self()).contains("lpn3");
        assertThat(r.rank()).hasValue(2);
        assertThat(r.coordinator()).isEmpty();
        assertThat(r.origin()).isEqualTo("Slurm job 17, SLURM_JOB_NODELIST=lpn[1-4]");
        assertThat(r.address("lpn2")).isEqualTo("lpn2");
    }

    @Test
    void slurmBatchScriptWithOnlyTheOldNodelistAndAStepOnFewerNodes() {
        Roster r = LauncherEnvironment.roster(
                Map.of("SLURM_NODELIST", "lpn[1-4]", "SLURM_JOB_NUM_NODES", "4", "SLURM_NNODES", "2"));

        assertThat(r.nodes()).hasSize(4);
        assertThat(r.self()).isEmpty();
    }

    @Test
    void slurmErrorsNameTheVariable() {
        fails(
                with(SLURM_TASK, "SLURM_JOB_NODELIST", "lpn[4-1]"),
                "SLURM_JOB_NODELIST: 'lpn[4-1]' is not a Slurm hostlist: range '4-1' runs backwards");
        fails(
                with(SLURM_TASK, "SLURM_JOB_NUM_NODES", "3"),
                "SLURM_JOB_NUM_NODES=3 but SLURM_JOB_NODELIST=lpn[1-4] names 4 nodes");
        fails(
                with(SLURM_TASK, "SLURM_JOB_NUM_NODES", null, "SLURM_NNODES", "four"),
                "SLURM_NNODES=four is not a whole number of at least 1");
        fails(
                with(SLURM_TASK, "SLURMD_NODENAME", "lpn9"),
                "SLURMD_NODENAME=lpn9 is not in SLURM_JOB_NODELIST=lpn[1-4]");
        fails(with(SLURM_TASK, "SLURM_PROCID", "-1"), "SLURM_PROCID=-1 is not a whole number from 0");
        fails(
                with(
                        SLURM_TASK,
                        "SLURM_JOB_NODELIST",
                        "lpn[1-2],lpn1",
                        "SLURM_JOB_NUM_NODES",
                        "3",
                        "SLURMD_NODENAME",
                        "lpn2"),
                "Slurm job 17, SLURM_JOB_NODELIST=lpn[1-2],lpn1 names node lpn1 twice");
        assertThatThrownBy(() -> LauncherEnvironment.roster(Launcher.SLURM, Map.of(), Optional.empty()))
                .hasMessage("SLURM_JOB_NODELIST is not set; Slurm sets it to the job's nodes (lpn[1-4])");
    }

    private static final Map<String, String> POD = Map.of(
            "JOB_COMPLETION_INDEX",
            "2",
            "HOSTNAME",
            "lpjob-2",
            "LINKPROOF_K8S_SERVICE",
            "lpsvc",
            "LINKPROOF_K8S_COMPLETIONS",
            "4");

    @Test
    void kubernetesPodReadsItsJobFromItsHostname() {
        Roster r = LauncherEnvironment.roster(POD);

        assertThat(r.launcher()).isEqualTo(Launcher.KUBERNETES);
        assertThat(r.nodes()).containsExactly("lpjob-0", "lpjob-1", "lpjob-2", "lpjob-3");
        assertThat(r.self()).contains("lpjob-2");
        assertThat(r.rank()).hasValue(2);
        assertThat(r.address("lpjob-0")).isEqualTo("lpjob-0.lpsvc");
        assertThat(r.origin()).isEqualTo("Kubernetes Indexed Job lpjob (service lpsvc, 4 completions)");
    }

    @Test
    void kubernetesJobFromConfigurationForACoordinatorOutsideTheJob() {
        Roster r = LauncherEnvironment.roster(
                Launcher.KUBERNETES, Map.of(), Optional.of(new KubernetesJob("fleet-a", "fleet", 3)));

        assertThat(r.nodes()).containsExactly("fleet-a-0", "fleet-a-1", "fleet-a-2");
        assertThat(r.self()).isEmpty();
        assertThat(r.address("fleet-a-1")).isEqualTo("fleet-a-1.fleet");
    }

    @Test
    void kubernetesErrorsNameTheVariable() {
        fails(
                with(POD, "LINKPROOF_K8S_SERVICE", null),
                "LINKPROOF_K8S_SERVICE is not set; Kubernetes Indexed Job sets it to the headless Service of the"
                        + " Indexed Job (set by the manifest)");
        fails(
                with(POD, "LINKPROOF_K8S_COMPLETIONS", "0"),
                "LINKPROOF_K8S_COMPLETIONS=0 is not a whole number of at least 1");
        fails(
                with(POD, "JOB_COMPLETION_INDEX", "4", "HOSTNAME", "lpjob-4"),
                "JOB_COMPLETION_INDEX=4 is not below completions=4");
        fails(with(POD, "JOB_COMPLETION_INDEX", "x"), "JOB_COMPLETION_INDEX=x is not a whole number from 0");
        fails(
                with(POD, "HOSTNAME", "other-7"),
                "LINKPROOF_K8S_JOB is not set, and the Job's name cannot be read from HOSTNAME=other-7"
                        + " and JOB_COMPLETION_INDEX=2 (an Indexed Job's pod is <job>-<index>)");
        fails(
                with(POD, "LINKPROOF_K8S_JOB", "lpjob2"),
                "HOSTNAME=lpjob-2 is not lpjob2-2, the pod of Job lpjob2 with JOB_COMPLETION_INDEX=2");
    }

    private static final Map<String, String> TORCHRUN = Map.of(
            "MASTER_ADDR",
            "10.77.0.1",
            "MASTER_PORT",
            "29500",
            "RANK",
            "1",
            "WORLD_SIZE",
            "4",
            "LOCAL_RANK",
            "0",
            "LOCAL_WORLD_SIZE",
            "1");

    @Test
    void torchrunRanksAndTheCoordinator() {
        Roster r = LauncherEnvironment.roster(TORCHRUN);

        assertThat(r.launcher()).isEqualTo(Launcher.TORCHRUN);
        assertThat(r.nodes()).containsExactly("rank0", "rank1", "rank2", "rank3");
        assertThat(r.self()).contains("rank1");
        assertThat(r.coordinator()).contains(InetSocketAddress.createUnresolved("10.77.0.1", 29500));
    }

    @Test
    void torchrunErrorsNameTheVariable() {
        fails(with(TORCHRUN, "RANK", "4"), "RANK=4 is not below WORLD_SIZE=4");
        fails(with(TORCHRUN, "RANK", null), "RANK is not set; torchrun sets it to this process's rank");
        fails(with(TORCHRUN, "MASTER_PORT", "70000"), "MASTER_PORT=70000 is not a port from 1 to 65535");
        fails(with(TORCHRUN, "MASTER_PORT", ""), "MASTER_PORT is not set; torchrun sets it to the rank-0 host's port");
        fails(
                with(TORCHRUN, "LOCAL_WORLD_SIZE", "8"),
                "LOCAL_WORLD_SIZE=8: a fleet runs one agent per node (torchrun --nproc-per-node=1)");
        fails(
                with(TORCHRUN, "LOCAL_RANK", "3", "LOCAL_WORLD_SIZE", null),
                "LOCAL_RANK=3: a fleet runs one agent per node (torchrun --nproc-per-node=1)");
    }

    @Test
    void openMpiRanksInsideASlurmAllocationComeFromMpirun() {
        Map<String, String> env = with(
                SLURM_TASK,
                "OMPI_COMM_WORLD_SIZE",
                "3",
                "OMPI_COMM_WORLD_RANK",
                "0",
                "OMPI_COMM_WORLD_LOCAL_SIZE",
                "1");
        Roster r = LauncherEnvironment.roster(env);

        assertThat(r.launcher()).isEqualTo(Launcher.OPEN_MPI);
        assertThat(r.nodes()).containsExactly("rank0", "rank1", "rank2");
        assertThat(r.self()).contains("rank0");
        assertThat(r.rank()).isEqualTo(OptionalInt.of(0));
        fails(
                with(env, "OMPI_COMM_WORLD_RANK", null),
                "OMPI_COMM_WORLD_RANK is not set; Open MPI sets it to this process's rank");
        fails(
                with(env, "OMPI_COMM_WORLD_LOCAL_SIZE", "2"),
                "OMPI_COMM_WORLD_LOCAL_SIZE=2: a fleet runs one agent per node (mpirun --map-by ppr:1:node)");
    }

    @Test
    void detectionPrefersTheInnermostLauncherAndSaysWhatItLookedFor() {
        assertThat(LauncherEnvironment.detect(SLURM_TASK)).contains(Launcher.SLURM);
        assertThat(LauncherEnvironment.detect(with(SLURM_TASK, "WORLD_SIZE", "4", "MASTER_ADDR", "h")))
                .contains(Launcher.TORCHRUN);
        assertThat(LauncherEnvironment.detect(with(POD, "SLURM_JOB_NODELIST", "n1")))
                .contains(Launcher.KUBERNETES);
        assertThat(LauncherEnvironment.detect(Map.of("WORLD_SIZE", "4"))).isEmpty();
        assertThatThrownBy(() -> LauncherEnvironment.roster(Map.of("PATH", "/usr/bin")))
                .isInstanceOf(FleetConfigurationException.class)
                .hasMessageStartingWith("no launcher in the environment: none of JOB_COMPLETION_INDEX");
        assertThat(List.of(Launcher.values())).contains(Launcher.HOST_FILE);
    }
}
