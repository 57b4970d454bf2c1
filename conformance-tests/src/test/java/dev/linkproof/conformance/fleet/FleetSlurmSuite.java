package dev.linkproof.conformance.fleet;

import static org.assertj.core.api.Assertions.assertThat;

import dev.linkproof.reports.fleet.FleetVerdictDocument;
import dev.linkproof.reports.fleet.FleetVerdictFile;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;
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
 * A fleet run for real: four Slurm nodes in network namespaces on this machine
 * (scripts/lib/slurm-netns.sh), agents started by {@code srun}, the coordinator on the batch host,
 * tcp between distinct hosts, and faults made with {@code tc} and by killing or corrupting one
 * node's agent. Each run must blame exactly what was broken, and a clean run nobody.
 *
 * <p>It runs when asked ({@code -Dlinkproof.slurm=true}, which scripts/test.sh passes, so CI runs it)
 * as root with Slurm installed (scripts/setup.sh --test installs slurm-wlm and munge); otherwise it is
 * skipped with the reason. Each run's files (job script, coordinator and agent output,
 * fleet-verdict.json, heat maps) stay in {@code target/fleet/<run>/}.
 */
@Tag("fleet")
@Timeout(value = 20, unit = java.util.concurrent.TimeUnit.MINUTES)
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class FleetSlurmSuite {
    static final String ENABLE = "linkproof.slurm";
    static final Path WORK = Path.of("target", "fleet").toAbsolutePath();

    @BeforeAll
    static void cluster() throws Exception {
        Assumptions.assumeTrue(Boolean.parseBoolean(System.getProperty(ENABLE, System.getenv().getOrDefault("LINKPROOF_SLURM",
                "false"))), "the Slurm fleet suite was not requested: -D" + ENABLE + "=true (scripts/test.sh and CI pass it)");
        Assumptions.assumeTrue("root".equals(System.getProperty("user.name")),
                "the Slurm fleet suite needs root (network namespaces, Slurm's daemons)");
        Assumptions.assumeTrue(Files.isExecutable(Path.of("/usr/sbin/slurmctld")) && Files.isExecutable(Path.of("/usr/bin/srun")),
                "Slurm is not installed (scripts/setup.sh --test installs slurm-wlm and munge)");
        Files.createDirectories(WORK);
        SlurmFleet.up();
        broughtUp = true;
    }

    /** Whether this suite brought the cluster up: a skipped suite must not take down a cluster someone else is using. */
    private static boolean broughtUp;

    @AfterAll
    static void teardown() throws Exception {
        if (broughtUp) {
            SlurmFleet.down();
        }
    }

    private static FleetVerdictDocument verdicts(SlurmFleet.Job job) {
        assertThat(job.verdictFile()).as("fleet-verdict.json of " + job.dir() + "; coordinator said:\n" + job.coordinatorOutput())
                .isRegularFile();
        return FleetVerdictFile.read(job.verdictFile());
    }

    /** Reading a run's files in a stream. */
    static final class SlurmFleetFiles {
        static String read(Path f) {
            try {
                return Files.readString(f);
            } catch (java.io.IOException e) {
                throw new java.io.UncheckedIOException(e);
            }
        }
    }

    private static List<String> blamed(FleetVerdictDocument d) {
        return d.verdicts().stream().map(v -> v.kind() + " " + String.join("<->", v.nodes())).toList();
    }

    private static Map<String, String> status(FleetVerdictDocument d) {
        return d.nodes().stream().collect(Collectors.toMap(FleetVerdictDocument.Node::name, FleetVerdictDocument.Node::status));
    }

    /** Back into service whatever happened, so that the next run has its four nodes; a node that is not drained is left alone. */
    private static void resume(String node) {
        try {
            SlurmFleet.sh("scontrol", "update", "nodename=" + node, "state=resume");
        } catch (Exception e) {
            // Not drained (the run under test resumed it, or never drained it): nothing to undo.
        }
    }

    private static List<String> drainedByLinkproof() throws Exception {
        String drained = SlurmFleet.sh("sinfo", "-R", "-h", "-N", "-o", "%N|%E");
        return drained.lines().filter(l -> l.contains("linkproof")).toList();
    }

    /**
     * A clean fleet, acting: lpn2 carries an earlier run's drain (set as the job starts), passes with
     * everyone, and is resumed; nobody is blamed or drained.
     */
    @Test
    @Order(1)
    void aCleanFleetBlamesNobodyEveryPairPassesAndANodeLinkproofDrainedComesBack() throws Exception {
        SlurmFleet.Job job;
        try {
            job = SlurmFleet.run(SlurmFleet.Run.named("clean").with("linkproof.fleet.act", "slurm").drainedBefore("lpn2"), WORK);
        } finally {
            resume("lpn2");
        }
        FleetVerdictDocument d = verdicts(job);
        assertThat(blamed(d)).as(job.coordinatorOutput()).isEmpty();
        assertThat(job.coordinatorOutput()).contains("lpn2 passes again: bringing it back (it was taken out for: linkproof: bad-node: "
                + "drained by an earlier run)").contains("scontrol update nodename=lpn2 state=resume: done");
        assertThat(drainedByLinkproof()).isEmpty();
        assertThat(status(d)).containsOnlyKeys("lpn1", "lpn2", "lpn3", "lpn4");
        assertThat(job.exitCode()).as(job.coordinatorOutput()).isZero();
        assertThat(job.coordinatorOutput()).contains("fleet plan: pairwise over 4 nodes (lpn1, lpn2, lpn3, lpn4)")
                .contains("4 of 4 nodes registered");
        // The Allure report's fleet summary: the verdict test carries the verdict document and the heat map.
        Path allure = job.dir().resolve("allure-results");
        String verdictTest;
        try (var files = Files.list(allure)) {
            verdictTest = files.filter(f -> f.toString().endsWith("-result.json")).map(SlurmFleetFiles::read)
                    .filter(t -> t.contains("\"name\":\"the fleet blames nobody\"")).findFirst().orElseThrow();
        }
        java.util.regex.Matcher svg = java.util.regex.Pattern.compile(
                "\"name\":\"heat map: [^\"]+\",\"source\":\"([^\"]+)\",\"type\":\"image/svg\\+xml\"").matcher(verdictTest);
        assertThat(svg.find()).as(verdictTest).isTrue();
        assertThat(allure.resolve(svg.group(1))).content().contains("Bandwidth by pair", "lpn4");
        assertThat(verdictTest).contains("\"name\":\"fleet-verdict.json\"");
        // Every pair ran between two distinct hosts: each agent served from its own node's address.
        for (int n = 1; n <= 4; n++) {
            assertThat(job.dir().resolve("agent-lpn" + n + ".out")).content().contains("serving on 10.77.0.1" + n + ":");
        }
    }

    @Test
    @Order(2)
    void aSlowNodeIsBlamedAsANodeAndDrainedWhenAsked() throws Exception {
        SlurmFleet.fault("slow-node", "lpn3", "100mbit");
        SlurmFleet.Job job;
        try {
            job = SlurmFleet.run(SlurmFleet.Run.named("slow-node").with("linkproof.fleet.act", "slurm"), WORK);
        } finally {
            SlurmFleet.fault("clear", "lpn3");
        }
        try {
            FleetVerdictDocument d = verdicts(job);
            assertThat(blamed(d)).as(job.coordinatorOutput()).containsExactly("bad-node lpn3");
            assertThat(job.exitCode()).isNotZero();
            // The drain hook drained exactly the blamed node, with the verdict as its reason.
            assertThat(drainedByLinkproof()).as(job.coordinatorOutput()).singleElement().asString().startsWith("lpn3|linkproof: bad-node");
            // Its evidence: every run of its pairs, first round and confirmations, with their figures.
            assertThat(d.verdicts().getFirst().evidence()).extracting(FleetVerdictDocument.EvidenceEntry::stage)
                    .contains("first", "confirmation");
        } finally {
            resume("lpn3");
        }
    }

    @Test
    @Order(3)
    void aSlowLinkIsBlamedAsALinkWithBothOfItsNodesClear() throws Exception {
        SlurmFleet.fault("slow-link", "lpn1", "lpn2", "100mbit");
        SlurmFleet.Job job;
        try {
            job = SlurmFleet.run(SlurmFleet.Run.named("slow-link"), WORK);
        } finally {
            SlurmFleet.fault("clear", "lpn1");
        }
        FleetVerdictDocument d = verdicts(job);
        assertThat(blamed(d)).as(job.coordinatorOutput()).containsExactly("bad-link lpn1<->lpn2");
        assertThat(status(d)).containsEntry("lpn1", "clear").containsEntry("lpn2", "clear");
    }

    @Test
    @Order(4)
    void aNodeWhoseAgentDiesIsUnreachableAndTheRestIsJudged() throws Exception {
        SlurmFleet.Job job = SlurmFleet.run(SlurmFleet.Run.named("dead-node").deadNode("lpn4"), WORK);
        FleetVerdictDocument d = verdicts(job);
        assertThat(blamed(d)).as(job.coordinatorOutput()).containsExactly("unreachable-node lpn4");
        assertThat(status(d)).containsEntry("lpn1", "clear").containsEntry("lpn2", "clear").containsEntry("lpn3", "clear");
        assertThat(job.coordinatorOutput()).contains("node lpn4 left the run");
    }

    @Test
    @Order(5)
    void aNodeWhoseAgentCorruptsDataIsBlamedAsCorrupting() throws Exception {
        SlurmFleet.Job job = SlurmFleet.run(SlurmFleet.Run.named("corrupting").corruptNode("lpn2"), WORK);
        FleetVerdictDocument d = verdicts(job);
        assertThat(blamed(d)).as(job.coordinatorOutput()).containsExactly("corrupting-node lpn2");
    }

    /**
     * The Kubernetes rendezvous in the same cluster: agents named as an Indexed Job's pods
     * ({@code <job>-<index>}), each saying which node it runs on as a pod does from the downward API,
     * the coordinator reading the Job's size and names from the environment a pod of that Job has. One
     * pod's agent corrupts: the verdict names the pod, and the label and taint printed name its node.
     */
    @Test
    @Order(6)
    void theKubernetesRendezvousFindsEveryPodByItsNameAndMarksTheNodeABadPodRanOn() throws Exception {
        SlurmFleet.Job job = SlurmFleet.run(SlurmFleet.Run.named("kubernetes").with("linkproof.fleet", "kubernetes")
                .with("linkproof.fleet.act", "print").corruptNode("lpn2")
                .env("JOB_COMPLETION_INDEX", "0").env("LINKPROOF_K8S_JOB", "lp-fleet").env("LINKPROOF_K8S_SERVICE", "lp")
                .env("LINKPROOF_K8S_COMPLETIONS", "4").env("HOSTNAME", "lp-fleet-0").agentArgs("--node", "lp-fleet-$SLURM_NODEID")
                .agentEnv("LINKPROOF_K8S_NODE_NAME", "$SLURMD_NODENAME"), WORK);
        FleetVerdictDocument d = verdicts(job);
        assertThat(status(d)).as(job.coordinatorOutput()).containsOnlyKeys("lp-fleet-0", "lp-fleet-1", "lp-fleet-2", "lp-fleet-3");
        // lpn2 is the job's second node: pod lp-fleet-1.
        assertThat(blamed(d)).as(job.coordinatorOutput()).containsExactly("corrupting-node lp-fleet-1");
        assertThat(job.coordinatorOutput()).contains("kubectl label node lpn2 linkproof.dev/verdict=corrupting-node --overwrite")
                .contains("kubectl taint node lpn2 linkproof.dev/corrupting-node=true:NoSchedule --overwrite");
    }
}
