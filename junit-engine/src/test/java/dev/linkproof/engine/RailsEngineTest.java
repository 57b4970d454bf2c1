package dev.linkproof.engine;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.platform.engine.discovery.DiscoverySelectors.selectMethod;

import dev.linkproof.engine.api.SweepPoint;
import dev.linkproof.engine.config.Constants;
import dev.linkproof.engine.config.TcpRail;
import dev.linkproof.engine.descriptor.SweepPointDescriptor;
import dev.linkproof.engine.fixtures.RailsFixture;
import dev.linkproof.engine.judging.ProfilePlacement;
import dev.linkproof.engine.judging.RunProfile;
import dev.linkproof.engine.run.RailPlan;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.platform.engine.DiscoverySelector;
import org.junit.platform.engine.TestDescriptor;
import org.junit.platform.testkit.engine.EngineTestKit;
import org.junit.platform.testkit.engine.EventType;

/**
 * Points of several rails at discovery (their names, unique ids, {@code linkproof.rails}), which rails
 * a point resolves on a host ({@link RailPlan}: the profile's NICs, {@code linkproof.tcp.rails}), and
 * a point short of rails skipped with the reason. Runs of rails are in transfer-core's RailsTest and
 * conformance-tests (tcp over links of their own, verbs in the Soft-RoCE VM).
 */
class RailsEngineTest {
    /** ConnectX-7 fake sysfs: mlx5_0 and mlx5_1, both ACTIVE at 400 Gb/s; cx7-400g matches and resolves both. */
    static final String CX7 = FakeHosts.path("cx7-host");

    @TempDir
    Path dir;

    private static EngineTestKit.Builder kit(Map<String, String> config, DiscoverySelector... selectors) {
        return EngineTestKit.engine(Constants.ENGINE_ID)
                .selectors(selectors)
                .configurationParameter("linkproof.probe.root", CX7)
                .configurationParameter(Constants.PROFILE, "auto")
                .configurationParameter(Constants.PROGRESS, "false")
                .configurationParameters(config);
    }

    private static List<SweepPointDescriptor> points(Map<String, String> config, String... methods) {
        List<SweepPointDescriptor> points = new ArrayList<>();
        DiscoverySelector[] selectors = java.util.Arrays.stream(methods)
                .map(m -> selectMethod(RailsFixture.class, m))
                .toArray(DiscoverySelector[]::new);
        for (TestDescriptor d :
                kit(config, selectors).discover().getEngineDescriptor().getDescendants()) {
            if (d instanceof SweepPointDescriptor p) {
                points.add(p);
            }
        }
        return points;
    }

    @Test
    void railsArePartOfAPointsNameAndUniqueIdWhenMoreThanOne() {
        List<SweepPointDescriptor> points = points(Map.of(), "oneAndTwo", "every");
        assertThat(points)
                .extracting(TestDescriptor::getDisplayName)
                .containsExactlyInAnyOrder(
                        "write 4 KiB ×1 · 1 conn · tcp",
                        "write 4 KiB ×1 · 1 conn · tcp · 2 rails",
                        "write 4 KiB ×1 · 1 QP · verbs",
                        "write 4 KiB ×1 · 1 QP · verbs · 2 rails",
                        "write 4 KiB ×1 · 1 QP · verbs · all rails");
        for (SweepPointDescriptor p : points) {
            String id = p.getUniqueId().getLastSegment().getValue();
            String name = p.getDisplayName();
            int rails = p.point().rails();
            if (name.endsWith("2 rails")) {
                assertThat(id).as(name).endsWith(",rails=2");
                assertThat(rails).isEqualTo(2);
            } else if (name.endsWith("all rails")) {
                assertThat(id).as(name).endsWith(",rails=all");
                assertThat(rails).isZero();
            } else {
                assertThat(id).as(name).doesNotContain("rails=");
                assertThat(rails).isEqualTo(1);
            }
        }
    }

    /**
     * {@code linkproof.rails} sets every verbs point's rails, whatever its annotation; tcp points keep theirs;
     * nics=each does not multiply them.
     */
    @Test
    void theRailsKeySetsEveryVerbsPointsRails() {
        List<SweepPointDescriptor> points = points(Map.of(Constants.RAILS, "all", Constants.NICS, "each"), "oneAndTwo");
        assertThat(points)
                .extracting(TestDescriptor::getDisplayName)
                .containsExactlyInAnyOrder(
                        "write 4 KiB ×1 · 1 conn · tcp",
                        "write 4 KiB ×1 · 1 conn · tcp · 2 rails",
                        "write 4 KiB ×1 · 1 QP · verbs · all rails");
    }

    /**
     * {@code linkproof.gpus=each} makes a point of one pair once per GPU shift; a point of several rails
     * once, its rails being the shifts (RailPlan's GPU pairs).
     */
    @Test
    void eachGpuDoesNotMultiplyAPointOfRails() {
        List<SweepPointDescriptor> points = points(
                Map.of("linkproof.probe.root", FakeHosts.path("h100-cx7-host"), Constants.GPUS, "each"), "gpuPairs");
        assertThat(points)
                .extracting(TestDescriptor::getDisplayName)
                .containsExactlyInAnyOrder(
                        "write 4 KiB ×1 · 1 stream · gpu-ipc · gpu→gpu:1",
                        "write 4 KiB ×1 · 1 stream · gpu-ipc · gpu:1→gpu",
                        "write 4 KiB ×1 · 1 stream · gpu-ipc · gpu→gpu:1 · all rails");
    }

    @Test
    void aRailCountOutOfRangeIsADiscoveryIssueNamingIt() {
        var discovery =
                kit(Map.of(), selectMethod(RailsFixture.class, "negative")).discover();
        assertThat(discovery.getDiscoveryIssues())
                .singleElement()
                .satisfies(i -> assertThat(i.message()).contains("rails -1 out of range 0..64"));
    }

    @Test
    void badRailKeysAreConfigurationErrorsNamingThem() {
        var events = kit(
                        Map.of(Constants.RAILS, "several", Constants.TCP_RAILS, "10.0.0.1->"),
                        selectMethod(RailsFixture.class, "twoTcp"))
                .discover();
        assertThat(events.getDiscoveryIssues())
                .extracting(i -> i.message())
                .anySatisfy(m -> assertThat(m).contains(Constants.RAILS + "=several must be all"))
                .anySatisfy(
                        m -> assertThat(m).contains(Constants.TCP_RAILS + "=10.0.0.1-> has a bad rail '10.0.0.1->'"));
    }

    /** The profile's NICs, rail i on NIC i; tcp from linkproof.tcp.rails; short of them, the reason. */
    @Test
    void railsResolveToTheProfilesNicsAndTheNamedTcpLinks() {
        RunProfile cx7 = RunProfile.load(
                Map.of("linkproof.probe.root", CX7), new ProfilePlacement.DeviceChoice(true, Optional.empty()));
        SweepPoint verbs2 = verbs(2);
        RailPlan.Plan two = RailPlan.of(cx7.placement(), List.of(), verbs2);
        assertThat(two.shortfall()).isEmpty();
        assertThat(two.spots()).extracting(RailPlan.Spot::label).containsExactly("mlx5_0", "mlx5_1");
        assertThat(two.spots())
                .extracting(s -> s.settings().get("verbs.device"))
                .containsExactly("mlx5_0", "mlx5_1");
        assertThat(RailPlan.of(cx7.placement(), List.of(), verbs(0)).spots()).hasSize(2);
        assertThat(RailPlan.of(cx7.placement(), List.of(), verbs(3)).shortfall())
                .contains("3 rails asked, and only 2 available (mlx5_0, mlx5_1)");

        RailPlan.Plan ucx = RailPlan.of(
                cx7.placement(), List.of(), new SweepPoint(verbs2.spec().withTransport("ucx"), "ucx", "seg", 2));
        assertThat(ucx.spots())
                .extracting(s -> s.settings().get("UCX_NET_DEVICES"))
                .containsExactly("mlx5_0:1", "mlx5_1:1");
        RailPlan.Plan libfabric = RailPlan.of(
                cx7.placement(), List.of(), new SweepPoint(verbs2.spec().withTransport("libfabric"), "lf", "seg", 2));
        assertThat(libfabric.spots())
                .extracting(s -> s.settings().get("libfabric.domain"))
                .containsExactly("mlx5_0", "mlx5_1");
        // gpu-ipc's rails are pairs of GPUs (GpuRailPlanTest): a point of host memory has none.
        assertThat(RailPlan.of(
                                cx7.placement(),
                                List.of(),
                                new SweepPoint(verbs2.spec().withTransport("gpu-ipc"), "g", "seg", 2))
                        .shortfall())
                .hasValueSatisfying(why -> assertThat(why)
                        .contains("the gpu-ipc transport's rails are pairs of GPUs, and the "
                                + "point's memory names none (host->host)"));

        SweepPoint tcp2 = new SweepPoint(verbs2.spec().withTransport("tcp"), "tcp", "seg", 2);
        assertThat(RailPlan.of(cx7.placement(), List.of(), tcp2).shortfall())
                .hasValueSatisfying(why -> assertThat(why)
                        .startsWith("2 rails asked, and no tcp links are named")
                        .contains(Constants.TCP_RAILS));
        RailPlan.Plan links = RailPlan.of(
                cx7.placement(),
                List.of(new TcpRail(Optional.of("10.77.0.1"), "10.77.0.2"), new TcpRail(Optional.empty(), "10.77.1.2")),
                tcp2);
        assertThat(links.spots()).extracting(RailPlan.Spot::label).containsExactly("10.77.0.1->10.77.0.2", "10.77.1.2");
        assertThat(links.spots().get(0).settings())
                .containsEntry("tcp.address", "10.77.0.2")
                .containsEntry("tcp.source", "10.77.0.1");
        assertThat(links.spots().get(1).settings()).containsOnlyKeys("tcp.address");
    }

    private static SweepPoint verbs(int rails) {
        return new SweepPoint(
                dev.linkproof.transfer.TransferSpec.builder().transport("verbs").build(), "verbs", "seg", rails);
    }

    /** A tcp point of two rails without linkproof.tcp.rails: skipped, the reason naming the key. */
    @Test
    void aPointShortOfRailsIsSkippedWithTheReason() {
        var events = EngineTestKit.engine(Constants.ENGINE_ID)
                .selectors(selectMethod(RailsFixture.class, "twoTcp"))
                .configurationParameter(Constants.PROGRESS, "false")
                .configurationParameter(
                        Constants.RESULTS, dir.resolve("r.jsonl").toString())
                .execute()
                .testEvents();
        assertThat(events.skipped().list())
                .singleElement()
                .satisfies(e -> assertThat(e.getPayload(String.class).orElseThrow())
                        .startsWith("2 rails asked, and no tcp links are named"));
        assertThat(events.stream().filter(e -> e.getType() == EventType.FINISHED))
                .isEmpty();
    }

    @Test
    void bothWaysIsPartOfAPointsNameAndUniqueIdAndTheDirectionKeySetsVerbsPoints() {
        assertThat(points(Map.of(), "bothWays"))
                .extracting(TestDescriptor::getDisplayName)
                .containsExactlyInAnyOrder(
                        "write 256 KiB ×2 · 1 conn · tcp · both ways", "write 256 KiB ×2 · 1 QP · verbs · both ways");
        assertThat(points(Map.of(), "bothWays")).allSatisfy(p -> {
            assertThat(p.getUniqueId().getLastSegment().getValue()).endsWith(",both-ways");
            assertThat(p.point().bothWays()).isTrue();
            assertThat(p.point().hasRails()).isTrue();
        });
        assertThat(points(Map.of(Constants.DIRECTION, "both-ways"), "oneAndTwo"))
                .extracting(TestDescriptor::getDisplayName)
                .containsExactlyInAnyOrder(
                        "write 4 KiB ×1 · 1 conn · tcp",
                        "write 4 KiB ×1 · 1 conn · tcp · 2 rails",
                        "write 4 KiB ×1 · 1 QP · verbs · both ways",
                        "write 4 KiB ×1 · 1 QP · verbs · 2 rails · both ways");
        assertThat(kit(Map.of(Constants.DIRECTION, "sideways"), selectMethod(RailsFixture.class, "bothWays"))
                        .discover()
                        .getDiscoveryIssues())
                .extracting(i -> i.message())
                .anySatisfy(
                        m -> assertThat(m).contains(Constants.DIRECTION + "=sideways must be one-way or both-ways"));
    }

    /**
     * A tcp point both ways on a local pair: out, from here to the local agent, and back, the local agent
     * driving it toward this JVM's agent, started together; each validated, their windows overlapping.
     */
    @Test
    void aPointBothWaysRunsOutAndBackAtOnce() throws Exception {
        Path results = dir.resolve("both.jsonl");
        var events = EngineTestKit.engine(Constants.ENGINE_ID)
                .selectors(selectMethod(RailsFixture.class, "bothWays"))
                .configurationParameter(Constants.PROGRESS, "false")
                .configurationParameter(Constants.RESULTS, results.toString())
                .configurationParameter(
                        Constants.AGENT_LOG, dir.resolve("agent.log").toString())
                .execute()
                .testEvents();
        assertThat(events.succeeded().list()).as("the tcp point").hasSize(1);
        var json = new com.fasterxml.jackson.databind.ObjectMapper();
        var record = java.nio.file.Files.readAllLines(results).stream()
                .filter(l -> l.contains("both ways") && l.contains("\"tcp\""))
                .map(l -> {
                    try {
                        return json.readTree(l);
                    } catch (java.io.IOException e) {
                        throw new java.io.UncheckedIOException(e);
                    }
                })
                .findFirst()
                .orElseThrow();
        var rails = record.path("rails");
        assertThat(rails).hasSize(2);
        assertThat(rails.get(0).path("label").asText()).isEqualTo("out");
        assertThat(rails.get(1).path("label").asText()).isEqualTo("back");
        for (var r : rails) {
            assertThat(r.path("validation").asText()).startsWith("data valid: ");
            assertThat(r.path("bytes").asLong()).isEqualTo(300L * 2 * 256 * 1024);
        }
        double s0 = rails.get(0).path("startMs").asDouble();
        double s1 = rails.get(1).path("startMs").asDouble();
        assertThat(s0).isLessThan(s1 + rails.get(1).path("durationMs").asDouble());
        assertThat(s1).isLessThan(s0 + rails.get(0).path("durationMs").asDouble());
    }
}
