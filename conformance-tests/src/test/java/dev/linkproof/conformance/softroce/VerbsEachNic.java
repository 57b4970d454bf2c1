package dev.linkproof.conformance.softroce;

import static dev.linkproof.conformance.softroce.Guest.sentPackets;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.linkproof.conformance.verbs.fixtures.OneVerbsWrite;
import dev.linkproof.transfer.probe.RdmaDevice;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.platform.testkit.engine.EngineExecutionResults;

/**
 * {@code linkproof.nics=each} for real: a second Soft-RoCE device (rxe9 on dummy9) beside the VM's rxe0, both
 * matched by the softroce profile. By default a verbs point runs on the first device alone (rxe9's packet counter
 * does not move); with {@code each} the point runs on each device, named by it, and each device's counter shows the
 * traffic went through it. With rxe9's interface down, its point is still made, and fails naming the port. It adds
 * a network interface and an RDMA link and removes them again: only inside the Soft-RoCE VM (SoftRoceSuite's guest
 * script sets {@value Guest#GUEST}); elsewhere it is skipped with the reason.
 */
@Tag("softroce")
class VerbsEachNic {
    private static final String NETDEV = "dummy9";
    private static final String DEVICE = "rxe9";

    @TempDir
    Path dir;

    @Test
    void eachVerbsPointRunsOnEveryDeviceTheProfileResolves() throws Exception {
        RdmaDevice first = Guest.rxeToChange("adds a network interface and an RDMA device");
        try (AutoCloseable second = Guest.secondRxe(NETDEV, "10.11.19.19", DEVICE)) {

            long before = sentPackets(DEVICE);
            EngineExecutionResults one = run(Map.of("linkproof.profile", "softroce"));
            one.testEvents().assertStatistics(s -> s.started(1).succeeded(1));
            assertThat(Guest.displayNames(one.testEvents().succeeded().list()))
                    .containsExactly("write 4 KiB ×1 · 1 QP · verbs");
            assertThat(sentPackets(DEVICE))
                    .as("%s's packets with linkproof.nics=first", DEVICE)
                    .isEqualTo(before);

            long firstBefore = sentPackets(first.name());
            Path results = dir.resolve("each.jsonl");
            EngineExecutionResults each = Guest.run(
                    OneVerbsWrite.class, results, Map.of("linkproof.profile", "softroce", "linkproof.nics", "each"));
            each.testEvents().assertStatistics(s -> s.started(2).succeeded(2));
            assertThat(Guest.displayNames(each.testEvents().succeeded().list()))
                    .containsExactlyInAnyOrder(
                            "write 4 KiB ×1 · 1 QP · verbs · " + first.name(),
                            "write 4 KiB ×1 · 1 QP · verbs · " + DEVICE);
            assertThat(sentPackets(DEVICE))
                    .as("%s's packets with linkproof.nics=each", DEVICE)
                    .isGreaterThan(before);
            assertThat(sentPackets(first.name()))
                    .as("%s's packets with linkproof.nics=each", first.name())
                    .isGreaterThan(firstBefore);
            List<String> devices = new ArrayList<>();
            for (String line : Files.readAllLines(results)) {
                JsonNode r = new ObjectMapper().readTree(line);
                devices.add(r.path("device").asText() + " " + r.path("status").asText());
            }
            assertThat(devices).containsExactlyInAnyOrder(first.name() + " passed", DEVICE + " passed");

            // rxe9's port down: its point is still made, and fails naming why; rxe0's passes.
            Guest.command("ip", "link", "set", NETDEV, "down");
            Guest.awaitPort(DEVICE, false);
            EngineExecutionResults down = run(Map.of("linkproof.profile", "softroce", "linkproof.nics", "each"));
            down.testEvents().assertStatistics(s -> s.started(2).succeeded(1).failed(1));
            assertThat(Guest.failure(down.testEvents().failed().list().getFirst()))
                    .isEqualTo("write 4 KiB ×1 · 1 QP · verbs · " + DEVICE + ": RDMA device " + DEVICE
                            + " is of the kind profile 'softroce' is for, and not fit for it: no ACTIVE port"
                            + " (port 1 DOWN)");
            dev.linkproof.conformance.e2e.Kinds.assertKind(
                    down.testEvents()
                            .failed()
                            .list()
                            .getFirst()
                            .getRequiredPayload(org.junit.platform.engine.TestExecutionResult.class),
                    dev.linkproof.transfer.FailureKind.NIC_NOT_FIT);
        }
    }

    private EngineExecutionResults run(Map<String, String> config) {
        return Guest.runIn(dir, OneVerbsWrite.class, config);
    }
}
