package dev.linkproof.conformance.fleet;

import dev.linkproof.conformance.fleet.fixtures.FleetWrite;
import dev.linkproof.transfer.control.AgentProcess;
import java.io.File;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;

/**
 * The fleet benches' cluster and jobs (bench/fleet-cost.sh's FleetCost, bench/fleet-false-blame.sh's
 * FleetFalseBlame): scripts/lib/slurm-netns.sh's cluster of network namespaces, and one batch job per run that
 * measures the engine, not the launch: {@code srun --ntasks-per-node=1} starts an agent (AgentMain on this build's
 * test class path) on every node, and the coordinator runs on the batch host as JUnit's ConsoleLauncher over the
 * same class path, {@code linkproof.fleet=slurm} reading {@code SLURM_JOB_NODELIST}. The fleet suite itself
 * (distribution's FleetSlurmSuite) runs through the launch kit on the release bundle, as a user does.
 */
public final class SlurmFleet {
    static final Path SCRIPT =
            Path.of("..", "scripts", "lib", "slurm-netns.sh").toAbsolutePath().normalize();
    /** The benches' default cluster: four nodes (a bench may bring up another count, {@link #up(int)}). */
    static final int NODES = 4;
    /**
     * One job of {@link #NODES} nodes: JVM starts, registration, three rounds and the retests; far less
     * on a quiet machine. A larger job gets as many more times this as it has times the nodes.
     */
    static final Duration JOB_DEADLINE = Duration.ofMinutes(4);

    private SlurmFleet() {}

    /** What one job left behind: its folder (coordinator.out, agent-*.out, fleet-verdict.json, results), and its status. */
    public record Job(Path dir, int exitCode, String coordinatorOutput) {
        public Path verdictFile() {
            return dir.resolve("fleet-verdict.json");
        }
    }

    /**
     * A run's variations: extra engine keys, a node whose agent dies once registered, a node whose
     * agent corrupts, a node an earlier run of Linkproof drained (drained again as the job starts: a
     * drained node takes no new job, so this is how a node Linkproof took out is in a fleet run at all).
     */
    public record Run(
            String name,
            Map<String, String> config,
            String deadNode,
            String corruptNode,
            Map<String, String> env,
            List<String> agentArgs,
            String testClass,
            Map<String, String> agentEnv,
            String drainedBefore) {
        public static Run named(String name) {
            return new Run(name, Map.of(), "", "", Map.of(), List.of(), FleetWrite.class.getName(), Map.of(), "");
        }

        /** {@code node} drained with a Linkproof reason once the job holds it, as an earlier run's verdict would have left it. */
        public Run drainedBefore(String node) {
            return new Run(name, config, deadNode, corruptNode, env, agentArgs, testClass, agentEnv, node);
        }

        /** A variable of every agent's environment, its value read by the node's shell ({@code $SLURMD_NODENAME} works). */
        public Run agentEnv(String key, String value) {
            Map<String, String> e = new LinkedHashMap<>(agentEnv);
            e.put(key, value);
            return new Run(name, config, deadNode, corruptNode, env, agentArgs, testClass, e, drainedBefore);
        }

        /** The suite class the coordinator runs (default {@link FleetWrite}). */
        public Run testClass(String className) {
            return new Run(name, config, deadNode, corruptNode, env, agentArgs, className, agentEnv, drainedBefore);
        }

        public Run with(String key, String value) {
            Map<String, String> c = new LinkedHashMap<>(config);
            c.put(key, value);
            return new Run(name, c, deadNode, corruptNode, env, agentArgs, testClass, agentEnv, drainedBefore);
        }

        Run deadNode(String node) {
            return new Run(name, config, node, corruptNode, env, agentArgs, testClass, agentEnv, drainedBefore);
        }

        public Run corruptNode(String node) {
            return new Run(name, config, deadNode, node, env, agentArgs, testClass, agentEnv, drainedBefore);
        }

        Run env(String key, String value) {
            Map<String, String> e = new LinkedHashMap<>(env);
            e.put(key, value);
            return new Run(name, config, deadNode, corruptNode, e, agentArgs, testClass, agentEnv, drainedBefore);
        }

        Run agentArgs(String... args) {
            return new Run(name, config, deadNode, corruptNode, env, List.of(args), testClass, agentEnv, drainedBefore);
        }
    }

    public static String sh(String... cmd) throws IOException, InterruptedException {
        Process p = new ProcessBuilder(cmd).redirectErrorStream(true).start();
        if (!p.waitFor(120, TimeUnit.SECONDS)) {
            p.destroyForcibly();
            throw new IOException(String.join(" ", cmd) + " did not finish within 120 s");
        }
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        if (p.exitValue() != 0) {
            throw new IOException(String.join(" ", cmd) + " exited " + p.exitValue() + ": " + out);
        }
        return out;
    }

    public static void up() throws IOException, InterruptedException {
        up(NODES);
    }

    /** The cluster of {@code nodes} nodes, lpn1..lpnN (2..9): reused if it has that many, else made anew. */
    public static void up(int nodes) throws IOException, InterruptedException {
        System.out.println("[fleet] "
                + sh("bash", SCRIPT.toString(), "up", Integer.toString(nodes)).strip());
    }

    public static void down() throws IOException, InterruptedException {
        sh("bash", SCRIPT.toString(), "down");
    }

    /** slurm-netns.sh's faults: {@code slow-node NODE RATE}, {@code slow-link FROM TO RATE}, {@code clear NODE}, … */
    public static void fault(String... args) throws IOException, InterruptedException {
        List<String> cmd = new ArrayList<>(List.of("bash", SCRIPT.toString()));
        cmd.addAll(List.of(args));
        sh(cmd.toArray(String[]::new));
    }

    /** Submits one run as a batch job over the suite's {@link #NODES} nodes and waits for it (scancel at the deadline). */
    public static Job run(Run run, Path work) throws IOException, InterruptedException {
        return run(run, work, NODES);
    }

    /** Submits one run as a batch job over {@code nodes} nodes of the cluster ({@link #up(int)}) and waits for it. */
    public static Job run(Run run, Path work, int nodes) throws IOException, InterruptedException {
        Path dir = work.resolve(run.name());
        if (Files.isDirectory(dir)) { // an earlier run's files: none of them may be read as this run's
            try (var old = Files.walk(dir)) {
                old.sorted(java.util.Comparator.reverseOrder())
                        .forEach(f -> f.toFile().delete());
            }
        }
        Files.createDirectories(dir);
        String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        String classPath = String.join(
                File.pathSeparator,
                List.of(System.getProperty("java.class.path").split(File.pathSeparator)));
        String launcher = System.getProperty("linkproof.consoleLauncher");
        String token = AgentProcess.newToken();
        Map<String, String> config = new LinkedHashMap<>();
        config.put("linkproof.fleet", "slurm");
        config.put("linkproof.fleet.registry", "0.0.0.0:7470");
        config.put("linkproof.fleet.registerWithin", "90s");
        config.put("linkproof.fleet.verdict", dir.resolve("fleet-verdict.json").toString());
        config.put("linkproof.results", dir.resolve("results.jsonl").toString());
        config.put("linkproof.agent.log", dir.resolve("local-agent.log").toString());
        // Judged on validation and against the fleet only: absolute criteria are not what a fleet run of
        // emulated hosts sharing two cores can meet, nor what these runs check.
        config.put(
                "linkproof.profile",
                Path.of("src", "test", "resources", "profiles", "validation-only.yaml")
                        .toAbsolutePath()
                        .toString());
        // Pairs of a 2-CPU machine's namespaces share its two cores: a clean pair may run at a third of
        // another. The faults below are 100 Mbit/s against GB/s, far outside that.
        config.put("linkproof.fleet.minOfMedianBandwidth", "0.25");
        config.put("linkproof.fleet.maxOfLowestLatency", "50");
        config.put("linkproof.timeout.control", "10s");
        config.putAll(run.config());
        String configArgs = config.entrySet().stream()
                .map(e -> "--config=" + e.getKey() + "=" + e.getValue())
                .collect(Collectors.joining(" "));
        StringBuilder env = new StringBuilder();
        run.env()
                .forEach((k, v) ->
                        env.append("export ").append(k).append('=').append(v).append('\n'));
        String agent = """
            #!/bin/bash
            # One task per node: this node's agent, registering with the coordinator on the batch host.
            %7$s
            out="%1$s/agent-$SLURMD_NODENAME.out"
            "%2$s" -Xmx128m -XX:+UseSerialGC --enable-native-access=ALL-UNNAMED -cp "%3$s" \\
                dev.linkproof.transfer.agent.AgentMain --register "$LP_COORDINATOR:7470" --port 0 --register-within 90s %4$s > "$out" 2>&1 &
            pid=$!
            if [ "$SLURMD_NODENAME" = "%5$s" ]; then
              # A node that dies once in the run: its agent is killed as soon as it has registered.
              for _ in $(seq 1 900); do grep -q '^%6$s' "$out" && break; sleep 0.1; done
              kill -9 "$pid"
              echo "killed the agent of $SLURMD_NODENAME after it registered" >> "$out"
            fi
            wait "$pid"
            """.formatted(
                        dir,
                        java,
                        classPath,
                        String.join(" ", run.agentArgs()),
                        run.deadNode(),
                        AgentProcess.READY,
                        run.agentEnv().entrySet().stream()
                                .map(e -> "export " + e.getKey() + "=\"" + e.getValue() + "\"")
                                .collect(Collectors.joining("\n")));
        Path agentScript = dir.resolve("agent.sh");
        Files.writeString(agentScript, agent);
        String batch = """
            #!/bin/bash
            #SBATCH --job-name=linkproof-fleet-%1$s
            #SBATCH --nodes=%2$d
            #SBATCH --ntasks-per-node=1
            #SBATCH --output=%3$s/job.out
            # The coordinator runs here, on the job's first node; the agents reach it at this node's address.
            export LINKPROOF_TOKEN=%4$s
            export LP_COORDINATOR=$(ip -4 -o addr show dev eth0 | awk '{print $4}' | cut -d/ -f1)
            export LINKPROOF_FAULT_NODE=%5$s
            %6$s
            %12$s
            srun --ntasks-per-node=1 --kill-on-bad-exit=0 bash %3$s/agent.sh &
            agents=$!
            "%7$s" -Xmx384m --enable-native-access=ALL-UNNAMED -Dallure.results.directory=%3$s/allure-results \\
                -jar "%8$s" execute --disable-banner \\
                --details=none --class-path "%9$s" --select-class %10$s %11$s > %3$s/coordinator.out 2>&1
            rc=$?
            # The coordinator's end is the agents' (the registry said BYE): srun ends with them.
            wait "$agents"
            echo "coordinator exit $rc" >> %3$s/coordinator.out
            exit $rc
            """.formatted(
                        run.name(),
                        nodes,
                        dir,
                        token,
                        run.corruptNode(),
                        env,
                        java,
                        launcher,
                        classPath,
                        run.testClass(),
                        configArgs,
                        run.drainedBefore().isEmpty()
                                ? ""
                                : "scontrol update nodename=" + run.drainedBefore()
                                        + " state=drain reason=\"linkproof: bad-node: drained by an earlier run\"");
        Path batchScript = dir.resolve("job.sbatch");
        Files.writeString(batchScript, batch);
        Files.setPosixFilePermissions(batchScript, PosixFilePermissions.fromString("rwxr-xr-x"));
        // Not sbatch --wait: it polls the job with a growing pause, up to half a minute after the job ended.
        String id = sh("sbatch", "--parsable", batchScript.toString()).strip();
        Files.writeString(dir.resolve("sbatch.out"), id + "\n");
        Duration jobDeadline = JOB_DEADLINE.multipliedBy(Math.max(1, (nodes + NODES - 1) / NODES));
        long deadline = System.nanoTime() + jobDeadline.toNanos();
        String state;
        while (true) {
            String job = sh("scontrol", "show", "job", id);
            state = field(job, "JobState");
            if (!List.of("PENDING", "CONFIGURING", "RUNNING", "COMPLETING").contains(state)) {
                String exit = field(job, "ExitCode");
                int rc = Integer.parseInt(exit.substring(0, exit.indexOf(':')));
                Path out = dir.resolve("coordinator.out");
                String coordinator = Files.isRegularFile(out)
                        ? Files.readString(out)
                        : "(no coordinator.out; job " + id + " ended " + state + ")";
                return new Job(dir, rc, coordinator);
            }
            if (System.nanoTime() > deadline) {
                sh("scancel", id);
                throw new IOException("the fleet job " + run.name() + " (" + id + ") did not end within "
                        + jobDeadline.toMinutes() + " min (" + state + "); see " + dir);
            }
            Thread.sleep(250);
        }
    }

    /** {@code Key=value} out of scontrol's listing. */
    private static String field(String listing, String key) {
        java.util.regex.Matcher m =
                java.util.regex.Pattern.compile("\\b" + key + "=(\\S+)").matcher(listing);
        if (!m.find()) {
            throw new IllegalStateException("scontrol show job says no " + key + ": " + listing);
        }
        return m.group(1);
    }
}
