package dev.linkproof.kit;

import static org.assertj.core.api.Assertions.assertThat;

import dev.linkproof.engine.config.Constants;
import dev.linkproof.reports.fleet.FleetVerdictDocument;
import dev.linkproof.reports.fleet.FleetVerdictFile;
import java.net.URISyntaxException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;
import org.junit.jupiter.api.Timeout;

/**
 * A fleet run for real, as a user submits it: four Slurm nodes in network namespaces
 * (scripts/lib/slurm-netns.sh), each case one {@code examples/fleet/slurm/submit.sh --bundle} of this
 * build's tarball, faults made with {@code tc}, a killed agent, a drained node or a corrupting agent
 * (LINKPROOF_CLASSPATH's fixtures). Each run must blame exactly what was broken, a clean run nobody.
 * Runs with {@code -Dlinkproof.slurm=true} (scripts/test.sh, so CI) as root with Slurm installed,
 * after {@code package}, holding {@code flock /tmp/linkproof-slurm.lock}; job folders stay in
 * {@code target/fleet/}. See docs/fleet.md, "Checked in CI".
 */
@Tag("fleet")
@Timeout(value = 20, unit = java.util.concurrent.TimeUnit.MINUTES)
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class FleetSlurmSuite {
    static final String ENABLE = Constants.HARNESS_SLURM;
    static final Path WORK = Path.of("target", "fleet").toAbsolutePath();
    static final String POINT = "dev.linkproof.conformance.fleet.fixtures.FleetWrite";
    /** The slow node's and slow link's rate (tc's units): far below the fleet's noise, see {@link #run}. */
    static final String FAULT_RATE = "25mbit";

    private static Path bundle;
    private static Path fixtures;
    private static AutoCloseable lock;
    /** Whether this suite brought the cluster up: a skipped suite must not take down a cluster someone else is using. */
    private static boolean broughtUp;

    @BeforeAll
    static void cluster() throws Exception {
        Assumptions.assumeTrue(
                Boolean.parseBoolean(
                        System.getProperty(ENABLE, System.getenv().getOrDefault("LINKPROOF_SLURM", "false"))),
                "the Slurm fleet suite was not requested: -D" + ENABLE + "=true (scripts/test.sh and CI pass it)");
        Assumptions.assumeTrue(
                "root".equals(System.getProperty("user.name")),
                "the Slurm fleet suite needs root (network namespaces, Slurm's daemons)");
        Assumptions.assumeTrue(
                Files.isExecutable(Path.of("/usr/sbin/slurmctld")) && Files.isExecutable(Path.of("/usr/bin/srun")),
                "Slurm is not installed (scripts/setup.sh --test installs slurm-wlm and munge)");
        String packed = System.getProperty("linkproof.bundle");
        assertThat(packed)
                .as("linkproof.bundle (set by the pom) names the packed bundle")
                .isNotBlank();
        bundle = Path.of(packed);
        assertThat(bundle).isRegularFile();
        fixtures = fixturesJar();
        if (Files.isDirectory(WORK)) { // an earlier run's folders: none of them may be read as this run's
            try (Stream<Path> old = Files.walk(WORK)) {
                old.sorted(java.util.Comparator.reverseOrder())
                        .forEach(f -> f.toFile().delete());
            }
        }
        Files.createDirectories(WORK);
        lock = SlurmKit.lock();
        SlurmKit.up();
        broughtUp = true;
    }

    @AfterAll
    static void teardown() throws Exception {
        try {
            if (broughtUp) {
                SlurmKit.down();
            }
        } finally {
            if (lock != null) {
                lock.close();
            }
        }
    }

    /** The fleet-fixtures jar on this test's class path: FleetWrite, and tcp-node-bitflip with its service file. */
    private static Path fixturesJar() throws ClassNotFoundException, URISyntaxException {
        Path jar = Path.of(Class.forName(POINT)
                .getProtectionDomain()
                .getCodeSource()
                .getLocation()
                .toURI());
        assertThat(jar).as("FleetWrite's jar").exists();
        return jar;
    }

    /**
     * A run as the suite makes them: FleetWrite over every pair (its faulty transport on every agent
     * and the coordinator through LINKPROOF_CLASSPATH), judged on validation and against the fleet
     * only. The faults ({@link #FAULT_RATE}) sit far outside this fleet's noise: docs/fleet.md,
     * "Tested here for real".
     */
    private static SlurmKit.Run run(String name) {
        return new SlurmKit.Run(name)
                .env("LINKPROOF_CLASSPATH", fixtures.toString())
                .env("LINKPROOF_JAVA_OPTS", "-XX:+UseSerialGC -Xmx384m")
                .run(
                        "--select",
                        POINT,
                        "--profile",
                        SlurmKit.ROOT
                                .resolve("conformance-tests/src/test/resources/profiles/validation-only.yaml")
                                .toString())
                .key("linkproof.fleet.registerWithin", "90s")
                .key("linkproof.fleet.minOfMedianBandwidth", "0.25")
                .key("linkproof.fleet.maxOfLowestLatency", "50")
                .key("linkproof.timeout.control", "10s");
    }

    /** A run over tcp that needs no locked memory, and no HTML report (the clean run makes one). */
    private static SlurmKit.Run tcpRun(String name) {
        return run(name).kit("--no-memlock-check").run("--no-report");
    }

    /** A run through a slow node or link: 12 timed MiB and 8 of warm-up rather than 24 and 8. */
    private static SlurmKit.Run slowRun(String name) {
        return tcpRun(name).key("linkproof.iterations.scale", "0.5");
    }

    private static SlurmKit.Job submit(SlurmKit.Run run) throws Exception {
        return SlurmKit.submit(run, bundle, WORK);
    }

    private static FleetVerdictDocument verdicts(SlurmKit.Job job) {
        assertThat(job.verdictFile())
                .as("fleet-verdict.json of " + job.dir() + "; " + job.story())
                .isRegularFile();
        return FleetVerdictFile.read(job.verdictFile());
    }

    private static String read(Path f) {
        try {
            return Files.readString(f);
        } catch (java.io.IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
    }

    private static List<String> blamed(FleetVerdictDocument d) {
        return d.verdicts().stream()
                .map(v -> v.kind() + " " + String.join("<->", v.nodes()))
                .toList();
    }

    private static Map<String, String> status(FleetVerdictDocument d) {
        return d.nodes().stream()
                .collect(Collectors.toMap(FleetVerdictDocument.Node::name, FleetVerdictDocument.Node::status));
    }

    /** Back into service whatever happened, so that the next run has its four nodes; a node that is not drained is left alone. */
    private static void resume(String node) {
        try {
            SlurmKit.sh("scontrol", "update", "nodename=" + node, "state=resume");
        } catch (Exception e) {
            // Not drained (the run under test resumed it, or never drained it): nothing to undo.
        }
    }

    private static List<String> drainedByLinkproof() throws Exception {
        String drained = SlurmKit.sh("sinfo", "-R", "-h", "-N", "-o", "%N|%E");
        return drained.lines().filter(l -> l.contains("linkproof")).toList();
    }

    /**
     * A locked-memory limit too low for RDMA stops the job before any agent, with status 2 and the
     * fix. The submitting shell's limit is what Slurm gives every node by default
     * (PropagateResourceLimits), as a login node's 64 KiB reaches a cluster's jobs.
     */
    @Test
    @Order(0)
    void aLockedMemoryLimitBelowTheFloorStopsTheJobBeforeAnyAgentWithTheFix() throws Exception {
        SlurmKit.Job job = submit(run("memlock").memlock(64));
        assertThat(job.exitCode()).as(job.story()).isEqualTo(2);
        assertThat(job.jobOutput())
                .contains("the locked-memory limit (ulimit -l) is below 67108864 KiB on 4 of 4 nodes: "
                        + "lpn1 (64 KiB) lpn2 (64 KiB) lpn3 (64 KiB) lpn4 (64 KiB)")
                .contains("PropagateResourceLimitsExcept=MEMLOCK")
                .contains("LimitMEMLOCK=infinity")
                .contains("/etc/security/limits.d/")
                .contains("memlock unlimited")
                .contains("--no-memlock-check");
        try (Stream<Path> files = Files.list(job.dir())) {
            assertThat(files.map(f -> f.getFileName().toString()))
                    .as("no agent started, no run")
                    .containsExactlyInAnyOrder("job.out", "nodes.out");
        }
        assertThat(job.submitOutput())
                .contains("job " + job.dir().getFileName().toString().replace("linkproof-fleet-", "")
                        + " ended: FAILED, exit code 2")
                .contains("the job stopped before the run");
    }

    /**
     * A clean fleet, acting: lpn2 carries an earlier run's drain (set once the job holds it), passes
     * with everyone, and is resumed; nobody is blamed or drained. The node check passes at the floor
     * given, reading each node's own limit.
     */
    @Test
    @Order(1)
    void aCleanFleetBlamesNobodyEveryPairPassesAndANodeLinkproofDrainedComesBack() throws Exception {
        SlurmKit.Job job;
        try {
            job = submit(run("clean")
                    .memlock(64)
                    .kit("--memlock-min", "64")
                    .key("linkproof.fleet.act", "slurm")
                    .during(dir -> {
                        // A drained node takes no new job: so this is how a node Linkproof took out is in a fleet run
                        // at all.
                        SlurmKit.awaitFile(dir.resolve("agent-lpn2.out"), null);
                        SlurmKit.sh(
                                "scontrol",
                                "update",
                                "nodename=lpn2",
                                "state=drain",
                                "reason=linkproof: bad-node: drained by an earlier run");
                    }));
        } finally {
            resume("lpn2");
        }
        FleetVerdictDocument d = verdicts(job);
        String coordinator = job.coordinatorOutput();
        assertThat(blamed(d)).as(coordinator).isEmpty();
        assertThat(coordinator)
                .contains("lpn2 passes again: bringing it back (it was taken out for: linkproof: bad-node: "
                        + "drained by an earlier run)")
                .contains("scontrol update nodename=lpn2 state=resume: done");
        assertThat(drainedByLinkproof()).isEmpty();
        assertThat(status(d)).containsOnlyKeys("lpn1", "lpn2", "lpn3", "lpn4");
        assertThat(job.exitCode()).as(job.story()).isZero();
        assertThat(coordinator)
                .contains("fleet plan: pairwise over 4 nodes (lpn1, lpn2, lpn3, lpn4)")
                .contains("4 of 4 nodes registered");
        // The node check: every node answered, with the limit Slurm gave it.
        assertThat(job.dir().resolve("nodes.out"))
                .content()
                .contains("node lpn1 memlock=64 bundle=ok", "node lpn4 memlock=64 bundle=ok");
        assertThat(job.jobOutput()).contains("every node: the bundle is there, locked memory at least 64 KiB");
        // The Allure report's fleet summary: the verdict test carries the verdict document and the heat map.
        Path allure = job.out().resolve("allure-results");
        String verdictTest;
        try (var files = Files.list(allure)) {
            verdictTest = files.filter(f -> f.toString().endsWith("-result.json"))
                    .map(FleetSlurmSuite::read)
                    .filter(t -> t.contains("\"name\":\"the fleet blames nobody\""))
                    .findFirst()
                    .orElseThrow();
        }
        java.util.regex.Matcher svg = java.util.regex.Pattern.compile(
                        "\"name\":\"heat map: [^\"]+\",\"source\":\"([^\"]+)\",\"type\":\"image/svg\\+xml\"")
                .matcher(verdictTest);
        assertThat(svg.find()).as(verdictTest).isTrue();
        assertThat(allure.resolve(svg.group(1))).content().contains("Bandwidth by pair", "lpn4");
        assertThat(verdictTest).contains("\"name\":\"fleet-verdict.json\"");
        // What the user is pointed at, all in the job's folder: the report, the results, JUnit XML.
        assertThat(job.out().resolve("allure-report/index.html")).isRegularFile();
        assertThat(job.out().resolve("linkproof-results.jsonl")).isRegularFile();
        assertThat(job.out().resolve("junit/TEST-linkproof.xml")).isRegularFile();
        assertThat(job.submitOutput())
                .contains(job.out().resolve("allure-report/index.html").toString())
                .contains(job.verdictFile().toString());
        // Every pair ran between two distinct hosts: each agent served from its own node's address.
        for (int n = 1; n <= 4; n++) {
            assertThat(job.dir().resolve("agent-lpn" + n + ".out"))
                    .content()
                    .contains("serving on 10.77.0.1" + n + ":");
        }
    }

    @Test
    @Order(2)
    void aSlowNodeIsBlamedAsANodeAndDrainedWhenAsked() throws Exception {
        SlurmKit.fault("slow-node", "lpn3", FAULT_RATE);
        SlurmKit.Job job;
        try {
            job = submit(slowRun("slow-node").key("linkproof.fleet.act", "slurm"));
        } finally {
            SlurmKit.fault("clear", "lpn3");
        }
        try {
            FleetVerdictDocument d = verdicts(job);
            assertThat(blamed(d)).as(job.coordinatorOutput()).containsExactly("bad-node lpn3");
            assertThat(job.exitCode()).isNotZero();
            // The drain hook drained exactly the blamed node, with the verdict as its reason.
            assertThat(drainedByLinkproof())
                    .as(job.coordinatorOutput())
                    .singleElement()
                    .asString()
                    .startsWith("lpn3|linkproof: bad-node");
            // Its evidence: every run of its pairs, first round and confirmations, with their figures.
            assertThat(d.verdicts().getFirst().evidence())
                    .extracting(FleetVerdictDocument.EvidenceEntry::stage)
                    .contains("first", "confirmation");
        } finally {
            resume("lpn3");
        }
    }

    @Test
    @Order(3)
    void aSlowLinkIsBlamedAsALinkWithBothOfItsNodesClear() throws Exception {
        SlurmKit.fault("slow-link", "lpn1", "lpn2", FAULT_RATE);
        SlurmKit.Job job;
        try {
            job = submit(slowRun("slow-link"));
        } finally {
            SlurmKit.fault("clear", "lpn1");
        }
        FleetVerdictDocument d = verdicts(job);
        assertThat(blamed(d)).as(job.coordinatorOutput()).containsExactly("bad-link lpn1<->lpn2");
        assertThat(status(d)).containsEntry("lpn1", "clear").containsEntry("lpn2", "clear");
    }

    /** A node that dies once in the run: its agent is killed (SIGKILL, from outside) as soon as it has registered. */
    @Test
    @Order(4)
    void aNodeWhoseAgentDiesIsUnreachableAndTheRestIsJudged() throws Exception {
        SlurmKit.Job job = submit(tcpRun("dead-node").during(dir -> {
            SlurmKit.awaitFile(dir.resolve("agent-lpn4.out"), "linkproof-agent ready");
            System.out.println("[fleet] " + SlurmKit.fault("kill-agent", "lpn4").strip());
        }));
        FleetVerdictDocument d = verdicts(job);
        assertThat(blamed(d)).as(job.coordinatorOutput()).containsExactly("unreachable-node lpn4");
        assertThat(status(d))
                .containsEntry("lpn1", "clear")
                .containsEntry("lpn2", "clear")
                .containsEntry("lpn3", "clear");
        assertThat(job.coordinatorOutput()).contains("node lpn4 left the run");
    }

    /** lpn2's agent corrupts what it writes: the fleet-fixtures jar's transport, faulty where LINKPROOF_FAULT_NODE says. */
    @Test
    @Order(5)
    void aNodeWhoseAgentCorruptsDataIsBlamedAsCorrupting() throws Exception {
        SlurmKit.Job job = submit(tcpRun("corrupting").env("LINKPROOF_FAULT_NODE", "lpn2"));
        FleetVerdictDocument d = verdicts(job);
        assertThat(blamed(d)).as(job.coordinatorOutput()).containsExactly("corrupting-node lpn2");
    }

    /**
     * The Kubernetes rendezvous in the same cluster: each node made an Indexed Job's pod by the kit's
     * setup file ({@code <job>-<index>} from Slurm's node id, the node it runs on from Slurm's node
     * name, as a pod has them from the downward API), the coordinator reading the Job's size and names
     * from the environment a pod of that Job has. One pod's agent corrupts: the verdict names the pod,
     * and the label and taint printed name its node.
     */
    @Test
    @Order(6)
    void theKubernetesRendezvousFindsEveryPodByItsNameAndMarksTheNodeABadPodRanOn() throws Exception {
        SlurmKit.Job job = submit(tcpRun("kubernetes")
                .key("linkproof.fleet", "kubernetes")
                .key("linkproof.fleet.act", "print")
                .env("LINKPROOF_FAULT_NODE", "lpn2")
                .env("LINKPROOF_K8S_JOB", "lp-fleet")
                .env("LINKPROOF_K8S_SERVICE", "lp")
                .env("LINKPROOF_K8S_COMPLETIONS", "4")
                .setup("""
                    # This node as pod <job>-<index> of an Indexed Job; the batch host (the coordinator) is node 0.
                    i=${SLURM_NODEID:-0}
                    export JOB_COMPLETION_INDEX=$i HOSTNAME=lp-fleet-$i LINKPROOF_NODE=lp-fleet-$i
                    export LINKPROOF_K8S_NODE_NAME=$SLURMD_NODENAME
                    """));
        FleetVerdictDocument d = verdicts(job);
        assertThat(status(d))
                .as(job.coordinatorOutput())
                .containsOnlyKeys("lp-fleet-0", "lp-fleet-1", "lp-fleet-2", "lp-fleet-3");
        // lpn2 is the job's second node: pod lp-fleet-1.
        assertThat(blamed(d)).as(job.coordinatorOutput()).containsExactly("corrupting-node lp-fleet-1");
        assertThat(job.coordinatorOutput())
                .contains("kubectl label node lpn2 linkproof.dev/verdict=corrupting-node --overwrite")
                .contains("kubectl taint node lpn2 linkproof.dev/corrupting-node=true:NoSchedule --overwrite");
    }
}
