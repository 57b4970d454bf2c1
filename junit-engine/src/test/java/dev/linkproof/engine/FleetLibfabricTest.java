package dev.linkproof.engine;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;
import static org.junit.platform.engine.discovery.DiscoverySelectors.selectClass;

import dev.linkproof.engine.config.Constants;
import dev.linkproof.engine.descriptor.FleetPairDescriptor;
import dev.linkproof.engine.fixtures.FleetLibfabricFixture;
import dev.linkproof.transfer.libfabric.Libfabric;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.platform.engine.TestExecutionResult;
import org.junit.platform.testkit.engine.EngineExecutionResults;
import org.junit.platform.testkit.engine.EngineTestKit;
import org.junit.platform.testkit.engine.Event;

/**
 * libfabric points in a fleet: three agents in this JVM on loopback, registered with the engine's
 * registry, each pair running a libfabric write over tcp;ofi_rxm and a fetch-add over shm, the agent
 * of one node driving the point against another's as the coordinator tells it; every pair validated,
 * nobody blamed.
 */
class FleetLibfabricTest {
    static final String TOKEN = "fleet-libfabric-test-token-0123";

    @TempDir
    Path dir;

    private final LoopbackFleet fleet = new LoopbackFleet(TOKEN);

    @AfterEach
    void stop() {
        fleet.close();
    }

    @Test
    void libfabricPointsRunOnEveryPairOfTheFleet() throws Exception {
        assumeTrue(Libfabric.unavailableReason() == null, () -> "libfabric absent: " + Libfabric.unavailableReason());
        int port = LoopbackFleet.freePort();
        fleet.start(port, "n1", "n2", "n3");
        EngineExecutionResults r = EngineTestKit.engine(Constants.ENGINE_ID)
                .selectors(selectClass(FleetLibfabricFixture.class))
                .configurationParameters(fleet.config(port, "n1,n2,n3", dir, "10s"))
                .execute();
        List<String> failed = r.testEvents().failed().stream()
                .map(e -> e.getTestDescriptor().getDisplayName() + ": "
                        + e.getRequiredPayload(TestExecutionResult.class)
                                .getThrowable()
                                .map(Throwable::getMessage)
                                .orElse(""))
                .toList();
        assertThat(failed).isEmpty();
        List<Event> pairs = r.testEvents().finished().stream()
                .filter(e -> e.getTestDescriptor()
                        .getUniqueId()
                        .getLastSegment()
                        .getType()
                        .equals(FleetPairDescriptor.SEGMENT))
                .toList();
        // Pairwise over three nodes, both ways: six directed pairs, for each of the two points.
        assertThat(pairs).hasSize(12);
        assertThat(pairs)
                .extracting(e -> e.getTestDescriptor().getDisplayName())
                .contains("write 64 KiB ×2 · 2 ep · libfabric · n1→n2", "fetch-add 8 B ×4 · 1 ep · libfabric · n3→n1");
        assertThat(java.nio.file.Files.readString(dir.resolve("fleet-verdict.json")))
                .contains("\"verdicts\" : [ ]");
    }
}
