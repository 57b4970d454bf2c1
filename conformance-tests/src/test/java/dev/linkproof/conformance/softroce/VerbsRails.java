package dev.linkproof.conformance.softroce;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.linkproof.conformance.softroce.fixtures.VerbsRailsPoints;
import dev.linkproof.transfer.probe.RdmaDevice;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.platform.testkit.engine.EngineExecutionResults;

/**
 * Rails on verbs for real: a second Soft-RoCE device (rxe8 on dummy8) beside the VM's rxe0, both resolved by the
 * softroce profile. A point of two rails runs both at once, each validated, their timed loops overlapping, and both
 * devices' packet counters move; a point both ways runs out (this JVM to the local agent) and back (the agent
 * driving toward this JVM's agent) at once; every rail both ways runs four: each device, and each back. Only inside
 * the Soft-RoCE VM (it adds an interface and an RDMA link, and removes them again); elsewhere skipped with the reason.
 */
@Tag("softroce")
class VerbsRails {
    private static final String NETDEV = "dummy8";
    private static final String DEVICE = "rxe8";

    @TempDir
    Path dir;

    @Test
    void railsAndBothWaysRunTogetherOnTwoDevices() throws Exception {
        RdmaDevice first = Guest.rxeToChange("adds a network interface and an RDMA device");
        try (AutoCloseable second = Guest.secondRxe(NETDEV, "10.11.18.18", DEVICE)) {

            long firstBefore = Guest.sentPackets(first.name());
            long secondBefore = Guest.sentPackets(DEVICE);
            Path results = dir.resolve("rails.jsonl");
            EngineExecutionResults run =
                    Guest.run(VerbsRailsPoints.class, results, Map.of("linkproof.profile", "softroce"));
            run.testEvents().assertStatistics(s -> s.started(3).succeeded(3));
            assertThat(Guest.sentPackets(first.name())).isGreaterThan(firstBefore);
            assertThat(Guest.sentPackets(DEVICE))
                    .as("%s carried its rail", DEVICE)
                    .isGreaterThan(secondBefore);

            Map<String, JsonNode> byMethod = new HashMap<>();
            for (String line : Files.readAllLines(results)) {
                JsonNode r = new ObjectMapper().readTree(line);
                byMethod.put(r.path("method").asText(), r);
            }
            assertThat(labels(byMethod.get("twoRails"))).containsExactly(first.name(), DEVICE);
            assertThat(labels(byMethod.get("bothWays"))).containsExactly("out", "back");
            assertThat(labels(byMethod.get("everyRailBothWays")))
                    .containsExactly(first.name(), DEVICE, first.name() + " back", DEVICE + " back");
            for (JsonNode r : byMethod.values()) {
                assertThat(r.path("status").asText()).as(r.toString()).isEqualTo("passed");
                JsonNode rails = r.path("rails");
                for (JsonNode rail : rails) {
                    assertThat(rail.path("validation").asText())
                            .as(rail.toString())
                            .startsWith("data valid: ");
                    // Every rail's timed loop overlapped every other's.
                    for (JsonNode other : rails) {
                        assertThat(rail.path("startMs").asDouble())
                                .as(r.path("name").asText())
                                .isLessThan(other.path("startMs").asDouble()
                                        + other.path("durationMs").asDouble());
                    }
                }
            }
        }
    }

    private static List<String> labels(JsonNode record) {
        assertThat(record).as("a results record").isNotNull();
        List<String> out = new ArrayList<>();
        record.path("rails").forEach(r -> out.add(r.path("label").asText()));
        return out;
    }
}
