package dev.linkproof.engine;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeFalse;
import static org.junit.platform.engine.discovery.DiscoverySelectors.selectClass;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.linkproof.engine.config.Constants;
import dev.linkproof.engine.descriptor.SweepPointDescriptor;
import dev.linkproof.engine.fixtures.EachDeviceFixture;
import dev.linkproof.transfer.spi.Transports;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.platform.engine.TestDescriptor;
import org.junit.platform.testkit.engine.EngineTestKit;

/**
 * {@code linkproof.nics=each} and {@code linkproof.gpus=each} at discovery. {@code nics} on the ConnectX-7 fake
 * sysfs tree (mlx5_0 and mlx5_1, both ACTIVE at 400 Gb/s, so cx7-400g's plan holds both): every verbs point is
 * made once per device, named and identified by it, with the device in its settings and results record; tcp
 * points and a point that names its own device stay one, as does every point by default ({@code first}).
 * {@code gpus} on the H100 tree (two H100s, which {@code gpus: auto} provides): every GPU placement is shifted
 * by 0 and 1; a placement beyond the GPUs there are stays as written (and skips at run time).
 */
class EachDeviceTest {
    static final String CX7 = FakeHosts.path("cx7-host");

    @TempDir
    Path dir;

    static final String H100 = FakeHosts.path("h100-cx7-host");

    private static List<SweepPointDescriptor> points(Map<String, String> config) {
        return points(CX7, config);
    }

    /** The NIC methods' points (bothTransports, namedDevice) on {@code host}. */
    private static List<SweepPointDescriptor> points(String host, Map<String, String> config) {
        return points(host, config, "bothTransports", "namedDevice");
    }

    /** A run on the fake host {@code host} (its probe root), the profile matched against it, with {@code config} over that. */
    private static EngineTestKit.Builder kit(
            String host, Map<String, String> config, org.junit.platform.engine.DiscoverySelector... selectors) {
        return EngineTestKit.engine(Constants.ENGINE_ID)
                .selectors(selectors)
                .configurationParameter("linkproof.probe.root", host)
                .configurationParameter(Constants.PROFILE, "auto")
                .configurationParameters(config);
    }

    private static List<SweepPointDescriptor> points(String host, Map<String, String> config, String... methods) {
        var kit = kit(
                host,
                config,
                java.util.Arrays.stream(methods)
                        .map(m -> org.junit.platform.engine.discovery.DiscoverySelectors.selectMethod(
                                EachDeviceFixture.class, m))
                        .toArray(org.junit.platform.engine.DiscoverySelector[]::new));
        List<SweepPointDescriptor> points = new ArrayList<>();
        for (TestDescriptor d : kit.discover().getEngineDescriptor().getDescendants()) {
            if (d instanceof SweepPointDescriptor p) {
                points.add(p);
            }
        }
        return points;
    }

    @Test
    void eachVerbsPointIsMadeOncePerDeviceTheProfileResolves() {
        List<SweepPointDescriptor> each = points(Map.of(Constants.NICS, "each"));
        assertThat(each)
                .extracting(TestDescriptor::getDisplayName)
                .filteredOn(n -> !n.contains("gpu"))
                .containsExactlyInAnyOrder(
                        "write 4 KiB ×1 · 1 conn · tcp",
                        "write 64 KiB ×1 · 1 conn · tcp",
                        "write 4 KiB ×1 · 1 QP · verbs · mlx5_0",
                        "write 64 KiB ×1 · 1 QP · verbs · mlx5_0",
                        "write 4 KiB ×1 · 1 QP · verbs · mlx5_1",
                        "write 64 KiB ×1 · 1 QP · verbs · mlx5_1",
                        "write 4 KiB ×1 · 1 QP · verbs");
        for (SweepPointDescriptor p : each) {
            String name = p.getDisplayName();
            String device = p.point().spec().settings().get("verbs.device");
            if (name.endsWith(" · mlx5_0") || name.endsWith(" · mlx5_1")) {
                String nic = name.substring(name.length() - "mlx5_0".length());
                assertThat(device).as(name).isEqualTo(nic);
                assertThat(p.getUniqueId().getLastSegment().getValue())
                        .as(name)
                        .endsWith(",transport=verbs,nic=" + nic);
            } else if (p.point().spec().transport().equals("verbs") && name.contains("mlx5")) {
                throw new AssertionError("a verbs point named by a device it does not run on: " + name);
            } else if (p.point().spec().transport().equals("verbs")) {
                assertThat(device).as("the point's own device: one point").isEqualTo("mlx5_1");
                assertThat(p.getUniqueId().getLastSegment().getValue()).doesNotContain("nic=");
            } else {
                assertThat(device).as(name).isNull();
            }
        }

        List<SweepPointDescriptor> first = points(Map.of());
        assertThat(first)
                .extracting(TestDescriptor::getDisplayName)
                .filteredOn(n -> !n.contains("gpu"))
                .containsExactlyInAnyOrder(
                        "write 4 KiB ×1 · 1 conn · tcp",
                        "write 64 KiB ×1 · 1 conn · tcp",
                        "write 4 KiB ×1 · 1 QP · verbs",
                        "write 64 KiB ×1 · 1 QP · verbs",
                        "write 4 KiB ×1 · 1 QP · verbs");
        assertThat(points(Map.of(Constants.NICS, "first"))).hasSameSizeAs(first);
    }

    /**
     * mlx5_1's port down: cx7-400g still matches (on mlx5_0) and its plan leaves mlx5_1 out, yet
     * {@code each} makes its points, and the profile calls it unfit naming why, for any point on it,
     * with or without {@code each}. Loopback's plan, which is for no kind of NIC, calls no NIC unfit.
     * (The engine fails such a point with this message; this host has no verbs to get that far, so
     * VerbsEachNic checks the failure in the Soft-RoCE VM.)
     */
    @Test
    void aNicOfTheProfilesKindThatIsDownIsRunAndCalledUnfit() throws Exception {
        Path down = FakeHosts.portsDown(dir, "cx7-host", "mlx5_1");
        assertThat(points(down.toString(), Map.of(Constants.NICS, "each")))
                .extracting(TestDescriptor::getDisplayName)
                .contains("write 4 KiB ×1 · 1 QP · verbs · mlx5_0", "write 4 KiB ×1 · 1 QP · verbs · mlx5_1");
        var local = new dev.linkproof.engine.judging.ProfilePlacement.DeviceChoice(true, java.util.Optional.empty());
        var cx7 = dev.linkproof.engine.judging.RunProfile.load(Map.of("linkproof.probe.root", down.toString()), local);
        assertThat(cx7.id()).isEqualTo("cx7-400g");
        assertThat(cx7.placement().nicsForEach()).containsExactly("mlx5_0", "mlx5_1");
        var onMlx51 = dev.linkproof.transfer.TransferSpec.builder()
                .transport("verbs")
                .settings(Map.of("verbs.device", "mlx5_1"))
                .build();
        var onMlx50 = dev.linkproof.transfer.TransferSpec.builder()
                .transport("verbs")
                .settings(Map.of("verbs.device", "mlx5_0"))
                .build();
        assertThat(cx7.requirements().unfitNic(onMlx51))
                .hasValue("RDMA device mlx5_1 is of the kind profile 'cx7-400g' is for, and not fit for it: "
                        + "no ACTIVE port (port 1 DOWN)");
        assertThat(cx7.requirements().unfitNic(onMlx50)).isEmpty();
        assertThat(cx7.requirements()
                        .unfitNic(dev.linkproof.transfer.TransferSpec.builder()
                                .transport("verbs")
                                .build()))
                .as("the plan's NIC")
                .isEmpty();
        var loopback = dev.linkproof.engine.judging.RunProfile.load(
                Map.of("linkproof.probe.root", down.toString(), Constants.PROFILE, "loopback"), local);
        assertThat(loopback.requirements().unfitNic(onMlx51)).isEmpty();
    }

    @Test
    void eachGpuPointIsMadeOncePerGpuWithItsPlacementShifted() {
        List<String> each = points(H100, Map.of(Constants.GPUS, "each"), "gpus", "hostAndGpu").stream()
                .map(TestDescriptor::getDisplayName)
                .filter(n -> n.contains("gpu"))
                .toList();
        assertThat(each)
                .containsExactlyInAnyOrder(
                        "write 4 KiB ×1 · 1 stream · gpu-ipc · gpu→gpu",
                        "write 4 KiB ×1 · 1 stream · gpu-ipc · gpu:1→gpu:1",
                        "write 4 KiB ×1 · 1 stream · gpu-ipc · gpu→gpu:1",
                        "write 4 KiB ×1 · 1 stream · gpu-ipc · gpu:1→gpu",
                        "write 4 KiB ×1 · 1 stream · gpu-ipc · gpu:2→gpu",
                        "write 4 KiB ×1 · 1 conn · tcp · host→gpu (staged via host)",
                        "write 4 KiB ×1 · 1 conn · tcp · host→gpu:1 (staged via host)");
        List<String> first = points(H100, Map.of(), "gpus", "hostAndGpu").stream()
                .map(TestDescriptor::getDisplayName)
                .filter(n -> n.contains("gpu"))
                .toList();
        assertThat(first)
                .containsExactlyInAnyOrder(
                        "write 4 KiB ×1 · 1 stream · gpu-ipc · gpu→gpu",
                        "write 4 KiB ×1 · 1 stream · gpu-ipc · gpu→gpu:1",
                        "write 4 KiB ×1 · 1 stream · gpu-ipc · gpu:1→gpu:1",
                        "write 4 KiB ×1 · 1 stream · gpu-ipc · gpu:2→gpu",
                        "write 4 KiB ×1 · 1 conn · tcp · host→gpu (staged via host)");
        assertThat(points(CX7, Map.of(Constants.GPUS, "each"), "gpus", "hostAndGpu"))
                .as("a profile that provides no GPU shifts nothing")
                .hasSameSizeAs(points(CX7, Map.of(), "gpus", "hostAndGpu"));
    }

    /** The point limit counts the copies: 5040 points are fine on one NIC, 10080 on two are not. */
    @Test
    void thePointLimitCountsEachDevicesPoints() {
        var many = selectClass(dev.linkproof.engine.fixtures.EachNicTooManyPoints.class);
        var one = kit(CX7, Map.of(), many).discover();
        assertThat(one.getDiscoveryIssues()).isEmpty();
        var two = kit(CX7, Map.of(Constants.NICS, "each"), many).discover();
        assertThat(two.getDiscoveryIssues())
                .singleElement()
                .satisfies(i -> assertThat(i.message()).contains("the sweep expands to 10080 points, more than 10000"));
    }

    /** The records say which device each point ran on (here each fails: cx7-400g requires verbs, which this host lacks). */
    @Test
    void theResultsRecordTheDevice() throws Exception {
        assumeFalse(
                Transports.discover().find("verbs").orElseThrow().availability().available(),
                "verbs is available on this host: the points would run on the fake tree's device names");
        Path results = dir.resolve("r.jsonl");
        kit(
                        CX7,
                        Map.of(
                                Constants.NICS,
                                "each",
                                Constants.PROGRESS,
                                "false",
                                Constants.RESULTS,
                                results.toString()),
                        selectClass(EachDeviceFixture.class))
                .execute()
                .testEvents()
                .assertStatistics(s -> s.started(8)); // 7 of bothTransports and namedDevice, hostAndGpu's host point
        ObjectMapper json = new ObjectMapper();
        List<String> verbs = new ArrayList<>();
        for (String line : Files.readAllLines(results)) {
            JsonNode r = json.readTree(line);
            if (r.path("transport").asText().equals("verbs")) {
                verbs.add(r.path("size").asLong() + " " + r.path("device").asText());
                assertThat(r.path("status").asText()).isEqualTo("failed");
                assertThat(r.path("message").asText()).contains("profile 'cx7-400g' requires the verbs transport");
                assertThat(r.path("failureKind").asText()).isEqualTo("REQUIRED_TRANSPORT_UNAVAILABLE");
            } else {
                assertThat(r.has("device")).as("a tcp point names no device").isFalse();
            }
        }
        assertThat(verbs)
                .containsExactlyInAnyOrder("4096 mlx5_0", "65536 mlx5_0", "4096 mlx5_1", "65536 mlx5_1", "4096 mlx5_1");
    }
}
