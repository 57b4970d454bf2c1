package dev.linkproof.engine;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeFalse;
import static org.junit.platform.engine.discovery.DiscoverySelectors.selectClass;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.linkproof.engine.descriptor.SweepPointDescriptor;
import dev.linkproof.engine.fixtures.EachNicFixture;
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
 * {@code linkproof.nics=each} on the ConnectX-7 fake sysfs tree (mlx5_0 and mlx5_1, both ACTIVE at
 * 400 Gb/s, so cx7-400g matches and its plan holds both): every verbs point is made once per device,
 * named and identified by it, with the device in its settings and its results record; tcp points
 * and a point that names its own device stay one. The default ({@code first}) makes one point each.
 */
class EachNicTest {
    static final String CX7 = Path.of("..", "hardware-profiles", "src", "test", "resources", "sysfs", "cx7-host")
            .toAbsolutePath().normalize().toString();

    @TempDir
    Path dir;

    private static List<SweepPointDescriptor> points(Map<String, String> config) {
        var kit = EngineTestKit.engine(Constants.ENGINE_ID).selectors(selectClass(EachNicFixture.class))
                .configurationParameter("linkproof.probe.root", CX7)
                .configurationParameter(Constants.PROFILE, "auto");
        List<SweepPointDescriptor> points = new ArrayList<>();
        for (TestDescriptor d : kit.configurationParameters(config).discover().getEngineDescriptor().getDescendants()) {
            if (d instanceof SweepPointDescriptor p) {
                points.add(p);
            }
        }
        return points;
    }

    @Test
    void eachVerbsPointIsMadeOncePerDeviceTheProfileResolves() {
        List<SweepPointDescriptor> each = points(Map.of(Constants.NICS, "each"));
        assertThat(each).extracting(TestDescriptor::getDisplayName).containsExactlyInAnyOrder(
                "write 4 KiB ×1 · 1 conn · tcp", "write 64 KiB ×1 · 1 conn · tcp",
                "write 4 KiB ×1 · 1 QP · verbs · mlx5_0", "write 64 KiB ×1 · 1 QP · verbs · mlx5_0",
                "write 4 KiB ×1 · 1 QP · verbs · mlx5_1", "write 64 KiB ×1 · 1 QP · verbs · mlx5_1",
                "write 4 KiB ×1 · 1 QP · verbs");
        for (SweepPointDescriptor p : each) {
            String name = p.getDisplayName();
            String device = p.point().spec().settings().get("verbs.device");
            if (name.endsWith(" · mlx5_0") || name.endsWith(" · mlx5_1")) {
                String nic = name.substring(name.length() - "mlx5_0".length());
                assertThat(device).as(name).isEqualTo(nic);
                assertThat(p.getUniqueId().getLastSegment().getValue()).as(name).endsWith(",transport=verbs,nic=" + nic);
            } else if (p.point().spec().transport().equals("verbs")) {
                assertThat(device).as("the point's own device: one point").isEqualTo("mlx5_1");
                assertThat(p.getUniqueId().getLastSegment().getValue()).doesNotContain("nic=");
            } else {
                assertThat(device).as(name).isNull();
            }
        }

        List<SweepPointDescriptor> first = points(Map.of());
        assertThat(first).extracting(TestDescriptor::getDisplayName).containsExactlyInAnyOrder(
                "write 4 KiB ×1 · 1 conn · tcp", "write 64 KiB ×1 · 1 conn · tcp",
                "write 4 KiB ×1 · 1 QP · verbs", "write 64 KiB ×1 · 1 QP · verbs", "write 4 KiB ×1 · 1 QP · verbs");
        assertThat(points(Map.of(Constants.NICS, "first"))).hasSameSizeAs(first);
    }

    /** The records say which device each point ran on (here each fails: cx7-400g requires verbs, which this host lacks). */
    @Test
    void theResultsRecordTheDevice() throws Exception {
        assumeFalse(Transports.discover().find("verbs").orElseThrow().availability().available(),
                "verbs is available on this host: the points would run on the fake tree's device names");
        Path results = dir.resolve("r.jsonl");
        EngineTestKit.engine(Constants.ENGINE_ID).selectors(selectClass(EachNicFixture.class))
                .configurationParameter("linkproof.probe.root", CX7)
                .configurationParameter(Constants.PROFILE, "auto")
                .configurationParameter(Constants.NICS, "each")
                .configurationParameter(Constants.PROGRESS, "false")
                .configurationParameter(Constants.RESULTS, results.toString())
                .execute().testEvents().assertStatistics(s -> s.started(7));
        ObjectMapper json = new ObjectMapper();
        List<String> verbs = new ArrayList<>();
        for (String line : Files.readAllLines(results)) {
            JsonNode r = json.readTree(line);
            if (r.path("transport").asText().equals("verbs")) {
                verbs.add(r.path("size").asLong() + " " + r.path("device").asText());
                assertThat(r.path("status").asText()).isEqualTo("failed");
                assertThat(r.path("message").asText()).contains("profile 'cx7-400g' requires the verbs transport");
            } else {
                assertThat(r.has("device")).as("a tcp point names no device").isFalse();
            }
        }
        assertThat(verbs).containsExactlyInAnyOrder("4096 mlx5_0", "65536 mlx5_0", "4096 mlx5_1", "65536 mlx5_1", "4096 mlx5_1");
    }
}
