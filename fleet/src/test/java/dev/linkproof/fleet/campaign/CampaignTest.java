package dev.linkproof.fleet.campaign;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.tuple;

import dev.linkproof.fleet.act.ActAfter;
import dev.linkproof.fleet.act.History;
import dev.linkproof.fleet.act.KubernetesMark;
import dev.linkproof.fleet.act.ReasonText;
import dev.linkproof.fleet.act.SlurmDrain;
import dev.linkproof.fleet.blame.Blame;
import dev.linkproof.fleet.blame.BlameSettings;
import dev.linkproof.fleet.blame.Evidence;
import dev.linkproof.fleet.blame.Point;
import dev.linkproof.fleet.blame.Stage;
import dev.linkproof.fleet.blame.Verdict;
import dev.linkproof.fleet.blame.VerdictKind;
import dev.linkproof.fleet.plan.Pair;
import dev.linkproof.fleet.plan.PatternParser;
import dev.linkproof.transfer.FailureKind;
import dev.linkproof.transfer.Op;
import dev.linkproof.transfer.TransferSpec;
import dev.linkproof.transfer.agent.AgentServer;
import dev.linkproof.transfer.agent.Registration;
import dev.linkproof.transfer.control.FrameCodec;
import dev.linkproof.transfer.control.Messages;
import dev.linkproof.transfer.session.Timeouts;
import dev.linkproof.transfer.spi.IoSettings;
import dev.linkproof.transfer.spi.Transports;
import io.fabric8.kubernetes.api.model.Node;
import io.fabric8.kubernetes.api.model.NodeBuilder;
import io.fabric8.kubernetes.api.model.Taint;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.server.mock.KubernetesCrudDispatcher;
import io.fabric8.kubernetes.client.server.mock.KubernetesMockServer;
import io.fabric8.mockwebserver.Context;
import io.fabric8.mockwebserver.MockWebServer;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The whole campaign without JUnit's engine: four real agents on loopback register with its
 * registry, every pair runs, failures are confirmed, and the campaign blames and acts, reporting each
 * step to its listener. The profile's criteria are stood in for by a {@link PointCheck}.
 */
class CampaignTest {
    static final String TOKEN = "fleet-campaign-test-token";
    static final List<String> NODES = List.of("n1", "n2", "n3", "n4");
    private final List<AgentServer> agents = new ArrayList<>();
    private final List<Registration> registrations = Collections.synchronizedList(new ArrayList<>());
    private final List<CampaignEvent> events = Collections.synchronizedList(new ArrayList<>());

    @TempDir
    Path dir;

    @AfterEach
    void stop() {
        registrations.forEach(Registration::close);
        agents.forEach(AgentServer::close);
    }

    private static final Point POINT = new Point("write-64KiB", "write 64 KiB");

    private static Campaign.PointRun point(PointCheck check) {
        TransferSpec spec = TransferSpec.builder()
                .pointId("write-64KiB")
                .transport("tcp")
                .op(Op.WRITE)
                .size(64 * 1024)
                .batch(2)
                .iterations(20)
                .warmup(2)
                .build();
        return new Campaign.PointRun(POINT, spec, check);
    }

    /** A campaign whose registry the four agents dial as soon as it listens. */
    private Campaign campaign(CampaignSettings.Act act, Campaign.Schedulers schedulers) throws Exception {
        int port;
        try (ServerSocket s = new ServerSocket(0)) {
            port = s.getLocalPort();
        }
        Timeouts timeouts = new Timeouts(Duration.ofSeconds(5), Duration.ofSeconds(5), IoSettings.DEFAULT);
        // The workflow is under test here, not the statistics (BlameTest's): four agents in one JVM on two
        // CPUs vary by 5x between rounds, so only a pair 20x off the fleet would count against it.
        BlameSettings blame =
                new BlameSettings(BlameSettings.DEFAULTS.thresholds().withRatios(0.05, 20), 3, 0.25, 32);
        CampaignSettings settings = new CampaignSettings(
                "127.0.0.1", port, Duration.ofSeconds(20), TOKEN, timeouts, blame, act, ActAfter.DEFAULT);
        FleetPlan plan =
                new FleetPlan(NODES, "a test", PatternParser.parse("pairwise").plan(NODES));
        for (String n : NODES) {
            AgentServer a = AgentServer.start("127.0.0.1", 0, TOKEN, IoSettings.DEFAULT);
            agents.add(a);
            Thread.ofVirtual().start(() -> {
                try {
                    Registration r = Registration.dial("127.0.0.1", port, Duration.ofSeconds(20), line -> {});
                    registrations.add(r);
                    r.register(
                            new Messages.Register(
                                    TOKEN, FrameCodec.VERSION, n, r.localAddress(), a.port(), 1, "test", null),
                            Duration.ofSeconds(20));
                } catch (Exception e) {
                    throw new IllegalStateException(n + " could not register", e);
                }
            });
        }
        return new Campaign(plan, settings, events::add, schedulers, Transports.discover());
    }

    private List<Class<?>> kinds() {
        return events.stream().<Class<?>>map(Object::getClass).distinct().toList();
    }

    @Test
    void aCleanFleetRunsEveryPairAndBlamesNobodyReportingEachStep() throws Exception {
        try (Campaign c = campaign(CampaignSettings.Act.NONE, Campaign.Schedulers.DEFAULT)) {
            Blame b = c.run(List.of(point(PointCheck.VALIDATION_ONLY)), Optional.empty());
            assertThat(b.blamesNobody()).as("%s", b.verdicts()).isTrue();
            assertThat(c.outcomes())
                    .hasSize(12)
                    .allSatisfy(o -> assertThat(o.stage()).isEqualTo(Stage.FIRST));
            assertThat(kinds())
                    .containsSubsequence(
                            CampaignEvent.Planned.class,
                            CampaignEvent.RegistryListening.class,
                            CampaignEvent.Registered.class,
                            CampaignEvent.WarmedUp.class,
                            CampaignEvent.RoundRan.class,
                            CampaignEvent.Concluded.class,
                            CampaignEvent.Cost.class);
            assertThat(events)
                    .filteredOn(CampaignEvent.Registered.class::isInstance)
                    .singleElement()
                    .extracting(CampaignEvent::describe)
                    .asString()
                    .startsWith("4 of 4 nodes registered");
            assertThat(kinds()).doesNotContain(CampaignEvent.RerunsPlanned.class);
        }
    }

    @Test
    void aNodeThatFailsTheProfileIsConfirmedBlamedAndItsDrainPrinted() throws Exception {
        // n3 fails the profile's criterion whenever it sends: in the first round and in every rerun.
        PointCheck n3Slow = (pair, m) ->
                pair.initiator().equals("n3") ? Optional.of(FailureKind.BELOW_CRITERION) : Optional.empty();
        try (Campaign c = campaign(CampaignSettings.Act.PRINT_SLURM, Campaign.Schedulers.DEFAULT)) {
            Blame b = c.run(List.of(point(n3Slow)), Optional.empty());
            assertThat(b.verdicts())
                    .extracting(Verdict::kind, Verdict::nodes)
                    .containsExactly(tuple(VerdictKind.BAD_NODE, List.of("n3")));
            List<Evidence> evidence = b.verdicts().getFirst().evidence();
            assertThat(evidence).extracting(Evidence::stage).contains(Stage.FIRST, Stage.CONFIRMATION);
            assertThat(evidence).allSatisfy(e -> assertThat(e.atMillis()).isPositive());
            assertThat(evidence.stream().filter(e -> e.pair().equals(new Pair("n3", "n1"))))
                    .hasSizeGreaterThanOrEqualTo(4);
            assertThat(events)
                    .filteredOn(CampaignEvent.RerunsPlanned.class::isInstance)
                    .first()
                    .extracting(CampaignEvent::describe)
                    .asString()
                    .startsWith("confirming before any verdict: 6 (pair, point)s that failed, or the reverse of one, 18"
                            + " runs");
            assertThat(events)
                    .filteredOn(CampaignEvent.ActPrinted.class::isInstance)
                    .singleElement()
                    .extracting(CampaignEvent::describe)
                    .asString()
                    .contains("scontrol update nodename=n3 state=drain reason=\"linkproof: bad-node:");
        }
    }

    @Test
    void actingDrainsWithHistoryAgreeingAndResumesANodeLinkproofDrainedThatPassesNow() throws Exception {
        // sinfo says n1 was drained by Linkproof, n2 by an operator.
        Path log = dir.resolve("calls.log");
        Campaign.Schedulers fake = fakeSlurm(
                log, "echo 'n1|linkproof: bad-node: fails with 3 of its 3 partners'\necho 'n2|disk replaced'");
        PointCheck n3Slow = (pair, m) ->
                pair.initiator().equals("n3") ? Optional.of(FailureKind.BELOW_CRITERION) : Optional.empty();
        History blamedBefore = new History(List.of(
                new History.PastRun("earlier", java.time.Instant.now().minusSeconds(3600), java.util.Set.of("n3"))));
        try (Campaign c = campaign(CampaignSettings.Act.SLURM, fake)) {
            c.run(List.of(point(n3Slow)), Optional.of(blamedBefore));
        }
        assertThat(Files.readAllLines(log))
                .containsExactly(
                        "scontrol update nodename=n3 state=drain reason=linkproof: bad-node: "
                                + lineOf(events, "nodename=n3"),
                        "sinfo -h -N -R -o %N|%E",
                        "scontrol update nodename=n1 state=resume");
        assertThat(events)
                .filteredOn(CampaignEvent.Undone.class::isInstance)
                .singleElement()
                .extracting(CampaignEvent::describe)
                .asString()
                .startsWith("n1 passes again: bringing it back");
    }

    @Test
    void aFirstBlameWithAHistoryIsASuspectAndNothingIsDrained() throws Exception {
        Path log = dir.resolve("calls.log");
        Campaign.Schedulers fake = fakeSlurm(log, "");
        PointCheck n3Slow = (pair, m) ->
                pair.initiator().equals("n3") ? Optional.of(FailureKind.BELOW_CRITERION) : Optional.empty();
        try (Campaign c = campaign(CampaignSettings.Act.SLURM, fake)) {
            c.run(List.of(point(n3Slow)), Optional.of(History.EMPTY));
        }
        assertThat(Files.readAllLines(log)).containsExactly("sinfo -h -N -R -o %N|%E");
        assertThat(events)
                .filteredOn(CampaignEvent.NotActed.class::isInstance)
                .singleElement()
                .extracting(CampaignEvent::describe)
                .asString()
                .contains("not confirmed by history: a suspect: blamed in 1 of the last 1 runs, acting needs 2 of 3");
    }

    /**
     * act=kubernetes end to end: the labels and taints go to the API server (fabric8's mock server in
     * CRUD mode) and are read back from the nodes; n1, marked by an earlier run, passes now and is cleared.
     */
    @Test
    void actingOnKubernetesMarksTheBlamedNodeThroughTheApiAndClearsANodeThatPassesNow() throws Exception {
        KubernetesMockServer api = new KubernetesMockServer(
                new Context(), new MockWebServer(), new HashMap<>(), new KubernetesCrudDispatcher(), false);
        api.init();
        try (KubernetesClient kube = api.createClient()) {
            for (String n : NODES) {
                NodeBuilder node = new NodeBuilder()
                        .withNewMetadata()
                        .withName(n)
                        .endMetadata()
                        .withNewSpec()
                        .endSpec();
                if (n.equals("n1")) {
                    node.editMetadata()
                            .addToLabels("linkproof.dev/verdict", "bad-node")
                            .endMetadata()
                            .editSpec()
                            .addNewTaint()
                            .withKey("linkproof.dev/bad-node")
                            .withValue("true")
                            .withEffect("NoSchedule")
                            .endTaint()
                            .endSpec();
                }
                kube.nodes().resource(node.build()).create();
            }
            PointCheck n3Slow = (pair, m) ->
                    pair.initiator().equals("n3") ? Optional.of(FailureKind.BELOW_CRITERION) : Optional.empty();
            History blamedBefore = new History(List.of(new History.PastRun(
                    "earlier", java.time.Instant.now().minusSeconds(3600), java.util.Set.of("n3"))));
            Campaign.Schedulers schedulers =
                    new Campaign.Schedulers(SlurmDrain.DEFAULT, KubernetesMark.DEFAULT, api::createClient);
            try (Campaign c = campaign(CampaignSettings.Act.KUBERNETES, schedulers)) {
                c.run(List.of(point(n3Slow)), Optional.of(blamedBefore));
            }
            Node n3 = kube.nodes().withName("n3").get();
            assertThat(n3.getMetadata().getLabels()).containsEntry("linkproof.dev/verdict", "bad-node");
            assertThat(n3.getSpec().getTaints())
                    .extracting(Taint::getKey, Taint::getValue, Taint::getEffect)
                    .containsExactly(tuple("linkproof.dev/bad-node", "true", "NoSchedule"));
            Node n1 = kube.nodes().withName("n1").get();
            assertThat(n1.getMetadata().getLabels()).doesNotContainKey("linkproof.dev/verdict");
            assertThat(n1.getSpec().getTaints()).isEmpty();
            assertThat(events)
                    .filteredOn(CampaignEvent.Acted.class::isInstance)
                    .extracting(CampaignEvent::describe)
                    .containsExactly(
                            "kubectl label node n3 linkproof.dev/verdict=bad-node --overwrite: done",
                            "kubectl taint node n3 linkproof.dev/bad-node=true:NoSchedule --overwrite: done",
                            "kubectl label node n1 linkproof.dev/verdict-: done",
                            "kubectl taint node n1 linkproof.dev/bad-node:NoSchedule-: done");
            assertThat(events)
                    .filteredOn(CampaignEvent.Undone.class::isInstance)
                    .singleElement()
                    .extracting(CampaignEvent::describe)
                    .asString()
                    .startsWith("n1 passes again: bringing it back (it was taken out for: bad-node)");
        } finally {
            api.destroy();
        }
    }

    /** The reason the drain carried, as the acted line printed it (what the stand-in scontrol recorded after "reason="). */
    private static String lineOf(List<CampaignEvent> events, String marker) {
        String line = events.stream()
                .filter(CampaignEvent.Acted.class::isInstance)
                .map(CampaignEvent::describe)
                .filter(l -> l.contains(marker))
                .findFirst()
                .orElseThrow();
        String reason = line.substring(
                line.indexOf("reason=\"linkproof: bad-node: ") + "reason=\"linkproof: bad-node: ".length());
        return reason.substring(0, reason.indexOf('"'));
    }

    /** A stand-in Slurm: scontrol and sinfo record their argv in {@code log}; sinfo then runs {@code listing} (its drained nodes). */
    private Campaign.Schedulers fakeSlurm(Path log, String listing) throws Exception {
        Path scontrol = script("scontrol", "echo scontrol \"$@\" >> " + log);
        Path sinfo = script("sinfo", "echo sinfo \"$@\" >> " + log + "\n" + listing);
        return new Campaign.Schedulers(
                new SlurmDrain(scontrol.toString(), sinfo.toString(), ReasonText.DEFAULT_MAX), KubernetesMark.DEFAULT);
    }

    private Path script(String name, String body) throws Exception {
        Path p = dir.resolve(name);
        Files.writeString(p, "#!/bin/sh\n" + body + "\n");
        Files.setPosixFilePermissions(p, PosixFilePermissions.fromString("rwxr-xr-x"));
        return p;
    }
}
