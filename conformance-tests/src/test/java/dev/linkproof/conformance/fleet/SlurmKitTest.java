package dev.linkproof.conformance.fleet;

import static dev.linkproof.conformance.fleet.SlurmKitRuns.SLURM;
import static dev.linkproof.conformance.fleet.SlurmKitRuns.fake;
import static dev.linkproof.conformance.fleet.SlurmKitRuns.fakeBundle;
import static dev.linkproof.conformance.fleet.SlurmKitRuns.run;
import static org.assertj.core.api.Assertions.assertThat;

import dev.linkproof.conformance.fleet.SlurmKitRuns.Run;
import dev.linkproof.engine.config.Constants;
import dev.linkproof.transfer.Units;
import dev.linkproof.transfer.agent.AgentMain;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;
import picocli.CommandLine.ParseResult;

/**
 * The fleet's Slurm launch kit (examples/fleet/slurm, docs/fleet.md "Launch kits") agrees with the code it
 * launches: the batch script parses, runs the bundle and nothing of Maven's, starts the agents with options
 * AgentMain accepts pointed at the port the coordinator listens on, checks every node's locked-memory limit and
 * keeps its files in the job's folder. The submit wrapper is SlurmSubmitTest's. No cluster is needed: bash runs the
 * script against stand-in srun, scontrol and bundle; the real cluster and bundle are distribution's FleetSlurmSuite.
 * Tagged e2e: a test of the product, not of the hardware, so a conformance run leaves it out.
 */
@Tag("e2e")
class SlurmKitTest {
    @Test
    void theBatchScriptParsesAsksForOneTaskPerNodeAndATimeLimitAndRunsTheBundleWithoutMaven() throws Exception {
        Path script = SLURM.resolve("linkproof-fleet.sbatch");
        Run syntax = run(List.of("bash", "-n", script.toString()), Map.of());
        assertThat(syntax.rc()).as("bash -n: %s", syntax.out()).isZero();
        assertThat(Files.isExecutable(script)).isTrue();

        // sbatch reads #SBATCH lines up to the first command.
        List<String> directives = new ArrayList<>();
        for (String line : Files.readAllLines(script)) {
            if (!line.isBlank() && !line.startsWith("#")) {
                break;
            }
            if (line.startsWith("#SBATCH")) {
                directives.add(line.strip());
            }
        }
        assertThat(directives)
                .contains("#SBATCH --ntasks-per-node=1")
                .anyMatch(d -> d.startsWith("#SBATCH --time="))
                .anyMatch(d -> d.startsWith("#SBATCH --output="));
        // Not in the script, so that submit.sh --no-exclusive can leave it out: sbatch has no option that undoes it.
        assertThat(directives).noneMatch(d -> d.contains("--exclusive"));

        List<String> code = Files.readAllLines(script).stream()
                .filter(l -> !l.strip().startsWith("#"))
                .toList();
        String srun = code.stream().filter(l -> l.startsWith("srun ")).collect(Collectors.joining("\n"));
        assertThat(srun.lines())
                .as("the node check's srun and the agents'")
                .hasSize(2)
                .allMatch(l -> l.contains("--ntasks-per-node=1"));
        String text = String.join("\n", code);
        assertThat(text)
                .contains("exec \"$bundle/bin/linkproof\" agent \"$@\"")
                .contains("export LINKPROOF_TOKEN")
                .contains("exec \"$bundle/bin/linkproof\" run --out \"$dir/out\" \"${fleet_args[@]}\" \"$@\"")
                .contains("ulimit -l");
        // Nothing is built in the job, and nothing needs the checkout: no Maven, no scripts/*.sh.
        assertThat(text).doesNotContain("mvn").doesNotContain("scripts/");
    }

    @Test
    void theBatchScriptStartsAgentsAcceptedByAgentMainAtThePortTheCoordinatorListensOn() throws Exception {
        // The lines that set the defaults and the two argument lists, evaluated by bash as the job would.
        List<String> lines = Files.readAllLines(SLURM.resolve("linkproof-fleet.sbatch")).stream()
                .filter(l ->
                        l.matches("^(registry_port|register_within|agent_register_within|agent_args|fleet_args)=.*"))
                .toList();
        assertThat(lines).hasSize(5);
        String program = "coordinator=10.77.0.11\ndir=/shared/runs/linkproof-fleet-7\n" + String.join("\n", lines)
                + "\n" + "printf '%s\\n' \"${agent_args[@]}\"; echo ==; printf '%s\\n' \"${fleet_args[@]}\"\n";
        Run r = run(List.of("bash", "-euc", program), Map.of());
        assertThat(r.rc()).as(r.out()).isZero();
        String[] parts = r.out().split("==\n", 2);
        List<String> agentArgs = Arrays.asList(parts[0].split("\n"));
        List<String> fleetArgs = Arrays.asList(parts[1].strip().split("\n"));

        ParseResult agent = new CommandLine(new AgentMain()).parseArgs(agentArgs.toArray(String[]::new));
        String defaultPort =
                Constants.DEFAULT_FLEET_REGISTRY.substring(Constants.DEFAULT_FLEET_REGISTRY.lastIndexOf(':') + 1);
        assertThat(agent.matchedOptionValue("--register", "")).isEqualTo("10.77.0.11:" + defaultPort);
        assertThat(agent.matchedOptionValue("--port", -1)).isZero();
        assertThat(Units.parseDuration(agent.matchedOptionValue("--register-within", "120s")))
                .isPositive();

        Map<String, String> keys = FleetKitsTest.engineKeys(fleetArgs);
        assertThat(keys)
                .containsEntry(Constants.FLEET, "slurm")
                .containsEntry(Constants.FLEET_REGISTRY, "0.0.0.0:" + defaultPort);
        // The agents keep dialling at least as long as the coordinator waits for them.
        assertThat(Units.parseDuration(agent.matchedOptionValue("--register-within", "120s")))
                .isGreaterThanOrEqualTo(Units.parseDuration(keys.get(Constants.FLEET_REGISTER_WITHIN)));
        // Whatever the run writes stays in the job's folder: `run --out` takes the verdicts and results.
        assertThat(keys).doesNotContainKeys(Constants.FLEET_VERDICT, Constants.RESULTS);
        assertThat(keys.get(Constants.AGENT_LOG)).startsWith("/shared/runs/linkproof-fleet-7/");
    }

    /**
     * The job as Slurm would run it on its first node, without Slurm: an srun that runs its command
     * once per node of the job (SLURMD_NODENAME set, in parallel), a bundle whose linkproof only says
     * how it was called, and the locked-memory limit of the shell that starts it, as Slurm would
     * propagate the submitter's.
     */
    @Test
    void theBatchJobChecksEveryNodeGivesTheAgentsAndTheSuiteOneTokenKeepsItsFilesInItsFolderAndExitsWithTheSuitesStatus(
            @TempDir Path dir) throws Exception {
        Path log = dir.resolve("calls");
        Path bundle = fakeBundle(dir.resolve("linkproof-9.9"), log);
        Path bin = slurmStandIns(dir.resolve("bin"), log);
        Path runs = dir.resolve("runs");
        Map<String, String> env = Map.of(
                "PATH",
                bin + ":" + System.getenv("PATH"),
                "FAKE_NODES",
                "lpn1 lpn2",
                "SLURM_JOB_NODELIST",
                "lpn[1-2]",
                "SLURM_JOB_NUM_NODES",
                "2",
                "SLURMD_NODENAME",
                "lpn1",
                "SLURM_JOB_ID",
                "7",
                "SLURM_SUBMIT_DIR",
                dir.toString(),
                "LINKPROOF_COORDINATOR",
                "10.77.0.11",
                "LINKPROOF_AGENT_GRACE_SECONDS",
                "1",
                "LINKPROOF_OUT_DIR",
                runs.toString());

        Run job = batchJob(
                64, env, "--bundle", bundle.toString(), "--memlock-min", "64", "--", "--select", "WriteCorrectness");
        assertThat(job.rc()).as(job.out()).isEqualTo(5);
        assertThat(job.out())
                .contains("every node: the bundle is there, locked memory at least 64 KiB")
                .contains("still running 1s after the suite ended; stopping them");
        List<String> calls = Files.readAllLines(log);
        List<String> sruns = calls.stream().filter(c -> c.startsWith("srun ")).toList();
        assertThat(sruns).hasSize(2).allMatch(s -> s.contains("--nodes=2") && s.contains("--ntasks-per-node=1"));
        List<String> agents =
                calls.stream().filter(c -> c.startsWith("agent ")).sorted().toList();
        assertThat(agents).hasSize(2);
        String[] suite = calls.stream()
                .filter(c -> c.startsWith("run "))
                .findFirst()
                .orElseThrow()
                .split(" ");
        Path folder = runs.resolve("linkproof-fleet-7");
        for (int i = 0; i < 2; i++) {
            String[] agent = agents.get(i).split(" ");
            assertThat(agent[1]).isEqualTo("lpn" + (i + 1));
            assertThat(agent[2]).as("a fresh token").matches("[0-9a-f]{32}");
            assertThat(suite[2]).as("the suite's token is the agents'").isEqualTo(agent[2]);
            assertThat(String.join(" ", Arrays.copyOfRange(agent, 3, agent.length)))
                    .isEqualTo("--register 10.77.0.11:7470 --port 0 --register-within 10m");
            assertThat(folder.resolve("agent-lpn" + (i + 1) + ".out"))
                    .as("each agent's output in the job's folder")
                    .exists();
        }
        assertThat(suite[1]).as("the coordinator runs on the batch host").isEqualTo("lpn1");
        assertThat(Arrays.asList(suite).subList(3, suite.length))
                .startsWith(
                        "--out",
                        folder.resolve("out").toString(),
                        "-Dlinkproof.fleet=slurm",
                        "-Dlinkproof.fleet.registry=0.0.0.0:7470")
                .endsWith("--select", "WriteCorrectness");
        assertThat(folder.resolve("coordinator.out")).content().contains("the suite ran");
        assertThat(folder.resolve("nodes.out"))
                .content()
                .contains("node lpn1 memlock=64 bundle=ok", "node lpn2 memlock=64 bundle=ok");
    }

    @Test
    void theBatchJobStopsBeforeAnyAgentWithStatusTwoAndTheFixWhenANodeCannotRunIt(@TempDir Path dir) throws Exception {
        Path log = dir.resolve("calls");
        Path bundle = fakeBundle(dir.resolve("linkproof-9.9"), log);
        Path bin = slurmStandIns(dir.resolve("bin"), log);
        Map<String, String> env = new LinkedHashMap<>(Map.of(
                "PATH",
                bin + ":" + System.getenv("PATH"),
                "FAKE_NODES",
                "lpn1 lpn2",
                "SLURM_JOB_NODELIST",
                "lpn[1-2]",
                "SLURM_JOB_NUM_NODES",
                "2",
                "SLURMD_NODENAME",
                "lpn1",
                "SLURM_JOB_ID",
                "8",
                "SLURM_SUBMIT_DIR",
                dir.toString(),
                "LINKPROOF_COORDINATOR",
                "10.77.0.11",
                "LINKPROOF_AGENT_GRACE_SECONDS",
                "1"));

        // 64 KiB, a login node's limit as Slurm propagates it, against the default floor of 64 GiB.
        Run low = batchJob(64, env, "--bundle", bundle.toString(), "--", "--select", "WriteCorrectness");
        assertThat(low.rc()).as(low.out()).isEqualTo(2);
        assertThat(low.out())
                .contains(
                        "the locked-memory limit (ulimit -l) is below 67108864 KiB on 2 of 2 nodes: lpn1 (64 KiB) lpn2"
                                + " (64 KiB)")
                .contains("PropagateResourceLimitsExcept=MEMLOCK")
                .contains("LimitMEMLOCK=infinity")
                .contains("/etc/security/limits.d/")
                .contains("* - memlock unlimited")
                .contains("--no-memlock-check");
        assertThat(Files.readAllLines(log))
                .as("no agent, no suite")
                .singleElement()
                .asString()
                .startsWith("srun ");

        // A run over tcp only may skip it; the low limit is still named.
        Run tcp = batchJob(
                64, env, "--bundle", bundle.toString(), "--no-memlock-check", "--", "--select", "WriteCorrectness");
        assertThat(tcp.rc()).as(tcp.out()).isEqualTo(5);
        assertThat(tcp.out())
                .contains("locked memory not checked (--no-memlock-check); below 67108864 KiB on lpn1 (64 KiB) lpn2 (64"
                        + " KiB)");

        Files.delete(log);
        Run noBundle = batchJob(64, env, "--bundle", dir.resolve("nowhere").toString());
        assertThat(noBundle.rc()).isEqualTo(2);
        assertThat(noBundle.out()).contains(dir.resolve("nowhere") + "/bin/linkproof is missing");
        Run unnamed = batchJob(64, env);
        assertThat(unnamed.rc()).isEqualTo(2);
        assertThat(unnamed.out()).contains("which bundle? --bundle DIR or LINKPROOF_BUNDLE=DIR");
        Run out = batchJob(64, env, "--bundle", bundle.toString(), "--", "--out", "/tmp/x");
        assertThat(out.rc()).isEqualTo(2);
        assertThat(out.out()).contains("leave out --out");
        env.put("FAKE_NODES", "lpn1");
        env.put("SLURM_JOB_NODELIST", "lpn1");
        env.put("SLURM_JOB_NUM_NODES", "1");
        Run one = batchJob(64, env, "--bundle", bundle.toString());
        assertThat(one.rc()).isEqualTo(2);
        assertThat(one.out()).contains("a fleet needs two nodes at least");
        assertThat(log).doesNotExist();
    }

    /**
     * srun that runs its command once per node of $FAKE_NODES (in parallel, SLURMD_NODENAME set;
     * stopped, it stops them), and scontrol that names those nodes and calls the job exclusive.
     */
    private static Path slurmStandIns(Path bin, Path log) throws IOException {
        Files.createDirectories(bin);
        fake(
                bin,
                "srun",
                "opts=()\nwhile [[ $1 == -* ]]; do opts+=(\"$1\"); shift; done\necho \"srun ${opts[*]} $1\" >> " + log
                        + "\npids=()\n"
                        + "trap 'kill \"${pids[@]}\" 2>/dev/null; exit 143' TERM\n"
                        + "for n in $FAKE_NODES; do SLURMD_NODENAME=$n \"$@\" & pids+=($!); done\n"
                        + "rc=0; for p in \"${pids[@]}\"; do wait \"$p\" || rc=$?; done; exit $rc");
        fake(
                bin,
                "scontrol",
                "case \"$1 $2\" in 'show hostnames') printf '%s\\n' $FAKE_NODES ;; "
                        + "'show job') echo \"JobId=$SLURM_JOB_ID JobState=RUNNING OverSubscribe=NO\" ;; esac");
        return bin;
    }

    /** The batch script run by bash, as the batch host runs it, under a locked-memory limit of {@code memlockKib}. */
    private static Run batchJob(long memlockKib, Map<String, String> env, String... args) throws Exception {
        List<String> cmd = new ArrayList<>(List.of(
                "bash",
                "-c",
                "ulimit -l " + memlockKib + " && exec bash \"$0\" \"$@\"",
                SLURM.resolve("linkproof-fleet.sbatch").toString()));
        cmd.addAll(List.of(args));
        return run(cmd, env);
    }
}
