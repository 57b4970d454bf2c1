package dev.linkproof.conformance.fleet;

import static org.assertj.core.api.Assertions.assertThat;

import dev.linkproof.engine.config.Constants;
import dev.linkproof.transfer.Units;
import dev.linkproof.transfer.agent.AgentMain;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;
import picocli.CommandLine.ParseResult;

/**
 * The fleet's Slurm launch kit (examples/fleet/slurm, docs/fleet.md "Launch kits") agrees with the
 * code it launches: the batch script parses, runs the bundle and nothing of Maven's, starts the
 * agents with options AgentMain accepts and points them at the port the coordinator listens on,
 * checks every node's locked-memory limit and keeps its files in the job's folder; the submit
 * wrapper holds the job until that folder exists, passes its knobs and arguments on, unpacks a
 * tarball once, and reports the job's status. No cluster is needed: the scripts run with bash
 * against stand-in sbatch, srun, scontrol and a stand-in bundle. The kit on a real Slurm cluster
 * and the real bundle is distribution's FleetSlurmSuite.
 * Tagged e2e: a test of the product, not of the hardware, so a conformance run leaves it out.
 */
@Tag("e2e")
class SlurmKitTest {
    static final Path SLURM = FleetKitsTest.ROOT.resolve("examples/fleet/slurm");

    @Test
    void theBatchScriptParsesAsksForOneTaskPerNodeAndATimeLimitAndRunsTheBundleWithoutMaven() throws Exception {
        Path script = SLURM.resolve("linkproof-fleet.sbatch");
        Run syntax = run(List.of("bash", "-n", script.toString()), Map.of());
        assertThat(syntax.rc).as("bash -n: %s", syntax.out).isZero();
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
        assertThat(r.rc).as(r.out).isZero();
        String[] parts = r.out.split("==\n", 2);
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
        assertThat(job.rc).as(job.out).isEqualTo(5);
        assertThat(job.out)
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
        assertThat(low.rc).as(low.out).isEqualTo(2);
        assertThat(low.out)
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
        assertThat(tcp.rc).as(tcp.out).isEqualTo(5);
        assertThat(tcp.out)
                .contains("locked memory not checked (--no-memlock-check); below 67108864 KiB on lpn1 (64 KiB) lpn2 (64"
                        + " KiB)");

        Files.delete(log);
        Run noBundle = batchJob(64, env, "--bundle", dir.resolve("nowhere").toString());
        assertThat(noBundle.rc).isEqualTo(2);
        assertThat(noBundle.out).contains(dir.resolve("nowhere") + "/bin/linkproof is missing");
        Run unnamed = batchJob(64, env);
        assertThat(unnamed.rc).isEqualTo(2);
        assertThat(unnamed.out).contains("which bundle? --bundle DIR or LINKPROOF_BUNDLE=DIR");
        Run out = batchJob(64, env, "--bundle", bundle.toString(), "--", "--out", "/tmp/x");
        assertThat(out.rc).isEqualTo(2);
        assertThat(out.out).contains("leave out --out");
        env.put("FAKE_NODES", "lpn1");
        env.put("SLURM_JOB_NODELIST", "lpn1");
        env.put("SLURM_JOB_NUM_NODES", "1");
        Run one = batchJob(64, env, "--bundle", bundle.toString());
        assertThat(one.rc).isEqualTo(2);
        assertThat(one.out).contains("a fleet needs two nodes at least");
        assertThat(log).doesNotExist();
    }

    @Test
    void submitHoldsTheJobUntilItsFolderExistsPassesItsArgumentsOnAndExitsWithTheJobsStatus(@TempDir Path dir)
            throws Exception {
        Path bin = Files.createDirectories(dir.resolve("bin"));
        Path log = dir.resolve("calls");
        Path bundle = fakeBundle(dir.resolve("linkproof-9.9"), log);
        Path runs = dir.resolve("runs");
        fake(bin, "sbatch", "echo \"sbatch $*\" >> " + log + "; echo '4242;cluster'");
        fake(
                bin,
                "scontrol",
                "echo \"scontrol $*\" >> " + log + "; [ \"$1\" = release ] && exit 0; echo \"JobId=4242 "
                        + "JobName=linkproof-fleet JobState=$STATE Reason=None ExitCode=$CODE:0\"");
        fake(bin, "scancel", "echo \"scancel $*\" >> " + log);
        String path = bin + ":" + System.getenv("PATH");
        Path script = SLURM.resolve("submit.sh");
        Path folder = runs.resolve("linkproof-fleet-4242");

        Run failed = run(
                List.of(
                        script.toString(),
                        "--bundle",
                        bundle.toString(),
                        "--out-dir",
                        runs.toString(),
                        "-N",
                        "4",
                        "--",
                        "--select",
                        "WriteCorrectness"),
                Map.of("PATH", path, "STATE", "FAILED", "CODE", "3"));
        assertThat(failed.rc).as(failed.out).isEqualTo(3);
        assertThat(failed.out)
                .contains("job 4242 submitted; everything in " + folder)
                .contains("job 4242 ended: FAILED, exit code 3");
        List<String> calls = Files.readAllLines(log);
        assertThat(calls.getFirst())
                .isEqualTo("sbatch --parsable --hold --output=" + runs + "/linkproof-fleet-%j/job.out --exclusive "
                        + "-N 4 " + SLURM.resolve("linkproof-fleet.sbatch") + " --bundle " + bundle + " --out-dir "
                        + runs
                        + " -- --select WriteCorrectness");
        // Released once its folder is there, where Slurm opens its output.
        assertThat(calls.get(1)).isEqualTo("scontrol release 4242");
        assertThat(folder).isDirectory();
        Files.writeString(folder.resolve("coordinator.out"), "the suite ran\n");
        Files.createDirectories(folder.resolve("out"));
        Files.writeString(folder.resolve("out/fleet-verdict.json"), "{}");

        // The knobs: sharing the nodes, GPUs, a time limit, the node check's floor, a setup file.
        Files.delete(log);
        Path setup = Files.writeString(dir.resolve("setup.sh"), "module load ucx\n");
        Run passed = run(
                List.of(
                        script.toString(),
                        "--bundle",
                        bundle.toString(),
                        "--out-dir",
                        runs.toString(),
                        "--no-exclusive",
                        "--gres=gpu:8",
                        "--setup",
                        setup.toString(),
                        "--no-memlock-check",
                        "--memlock-min",
                        "1024",
                        "-N",
                        "2"),
                Map.of(
                        "PATH",
                        path,
                        "STATE",
                        "COMPLETED",
                        "CODE",
                        "0",
                        "LINKPROOF_GPUS_PER_NODE",
                        "8",
                        "LINKPROOF_TIME",
                        "30:00",
                        "LINKPROOF_PARTITION",
                        "gpu",
                        "LINKPROOF_ACCOUNT",
                        "fabric"));
        assertThat(passed.rc).as(passed.out).isZero();
        assertThat(Files.readAllLines(log).getFirst())
                .isEqualTo("sbatch --parsable --hold --output=" + runs
                        + "/linkproof-fleet-%j/job.out --time=30:00 --partition=gpu --account=fabric --gpus-per-node=8"
                        + " --gres=gpu:8 -N 2 "
                        + SLURM.resolve("linkproof-fleet.sbatch") + " --bundle " + bundle + " --out-dir " + runs
                        + " --setup " + setup
                        + " --no-memlock-check --memlock-min 1024 --");
        assertThat(passed.out)
                .contains("coordinator      " + folder.resolve("coordinator.out"))
                .contains("verdicts         " + folder.resolve("out/fleet-verdict.json"))
                .doesNotContain("Allure report"); // none was written

        Run cancelled = run(
                List.of(script.toString(), "--bundle", bundle.toString(), "--out-dir", runs.toString()),
                Map.of("PATH", path, "STATE", "CANCELLED", "CODE", "0"));
        assertThat(cancelled.rc)
                .as("a cancelled job is no success: %s", cancelled.out)
                .isEqualTo(1);

        Run late = run(
                List.of(
                        script.toString(),
                        "--bundle",
                        bundle.toString(),
                        "--out-dir",
                        runs.toString(),
                        "--deadline",
                        "1s"),
                Map.of("PATH", path, "STATE", "RUNNING", "CODE", "0"));
        assertThat(late.rc).as(late.out).isEqualTo(124);
        assertThat(Files.readAllLines(log)).last().isEqualTo("scancel 4242");

        Run noBundle = run(List.of(script.toString(), "--out-dir", runs.toString()), Map.of("PATH", path));
        assertThat(noBundle.rc).isEqualTo(2);
        assertThat(noBundle.out)
                .contains("which bundle?")
                .contains("mvn -B -q -pl distribution -am package -DskipTests");
        Run notABundle = run(
                List.of(script.toString(), "--bundle", dir.toString(), "--out-dir", runs.toString()),
                Map.of("PATH", path));
        assertThat(notABundle.rc).isEqualTo(2);
        assertThat(notABundle.out).contains("has no bin/linkproof");
        Run out = run(
                List.of(script.toString(), "--bundle", bundle.toString(), "--", "--out", "x"), Map.of("PATH", path));
        assertThat(out.rc).isEqualTo(2);
        assertThat(out.out).contains("leave out --out");
    }

    /** A release tarball is unpacked once per content beside the jobs' folders, and the job gets the unpacked folder. */
    @Test
    void submitUnpacksATarballOnceAndHandsTheJobTheUnpackedBundle(@TempDir Path dir) throws Exception {
        Path bin = Files.createDirectories(dir.resolve("bin"));
        Path log = dir.resolve("calls");
        fakeBundle(dir.resolve("build/linkproof-9.9"), log);
        Path tarball = dir.resolve("linkproof-9.9-linux-x86_64.tar.gz");
        Run tar = run(
                List.of(
                        "tar",
                        "czf",
                        tarball.toString(),
                        "-C",
                        dir.resolve("build").toString(),
                        "linkproof-9.9"),
                Map.of());
        assertThat(tar.rc).as(tar.out).isZero();
        fake(bin, "sbatch", "echo \"sbatch $*\" >> " + log + "; echo 11");
        fake(
                bin,
                "scontrol",
                "[ \"$1\" = release ] && exit 0; echo 'JobId=11 JobState=COMPLETED Reason=None ExitCode=0:0'");
        Path runs = dir.resolve("runs");
        Map<String, String> env = Map.of(
                "PATH",
                bin + ":" + System.getenv("PATH"),
                "LINKPROOF_BUNDLE",
                tarball.toString(),
                "LINKPROOF_OUT_DIR",
                runs.toString());

        Run first = run(List.of(SLURM.resolve("submit.sh").toString(), "-N", "2"), env);
        assertThat(first.rc).as(first.out).isZero();
        List<Path> unpacked;
        try (var s = Files.list(runs.resolve("linkproof-bundles"))) {
            unpacked = s.toList();
        }
        assertThat(unpacked)
                .singleElement()
                .satisfies(p ->
                        assertThat(p.getFileName().toString()).matches("linkproof-9\\.9-linux-x86_64-[0-9a-f]{12}"));
        Path home = unpacked.getFirst().resolve("linkproof-9.9");
        assertThat(home.resolve("bin/linkproof")).isExecutable();
        assertThat(home.resolve("runtime/bin/java")).isExecutable();
        assertThat(first.out).contains("unpacked " + tarball + " into " + unpacked.getFirst());
        assertThat(Files.readAllLines(log).getFirst()).contains(" --bundle " + home + " ");

        Run second = run(List.of(SLURM.resolve("submit.sh").toString(), "-N", "2"), env);
        assertThat(second.rc).as(second.out).isZero();
        assertThat(second.out).as("the same tarball: unpacked once").doesNotContain("unpacked");
        assertThat(Files.readAllLines(log).getLast()).contains(" --bundle " + home + " ");
    }

    /** An unpacked bundle whose bin/linkproof logs "COMMAND NODE TOKEN ARGS..." and, as an agent, runs until stopped; as run, fails with 5. */
    private static Path fakeBundle(Path home, Path log) throws IOException {
        fake(
                Files.createDirectories(home.resolve("bin")),
                "linkproof",
                "echo \"$1 ${SLURMD_NODENAME:-?} ${LINKPROOF_TOKEN:-} ${*:2}\" >> " + log
                        + "\ncase $1 in agent) exec sleep 30 ;; run) echo 'the suite ran'; exit 5 ;; esac");
        fake(Files.createDirectories(home.resolve("runtime/bin")), "java", "exit 0");
        return home;
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

    private static void fake(Path bin, String name, String body) throws IOException {
        Path f = bin.resolve(name);
        Files.writeString(f, "#!/usr/bin/env bash\n" + body + "\n");
        Files.setPosixFilePermissions(f, PosixFilePermissions.fromString("rwxr-xr-x"));
    }

    record Run(int rc, String out) {}

    private static Run run(List<String> command, Map<String, String> env) throws Exception {
        ProcessBuilder pb = new ProcessBuilder(command).redirectErrorStream(true);
        pb.environment().putAll(env);
        Process p = pb.start();
        p.getOutputStream().close();
        byte[] out = p.getInputStream().readAllBytes();
        assertThat(p.waitFor(60, TimeUnit.SECONDS)).as("%s ends", command).isTrue();
        return new Run(p.exitValue(), new String(out, StandardCharsets.UTF_8));
    }
}
