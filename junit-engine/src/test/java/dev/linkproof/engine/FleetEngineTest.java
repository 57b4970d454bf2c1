package dev.linkproof.engine;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.platform.engine.discovery.DiscoverySelectors.selectClass;
import static org.junit.platform.engine.discovery.DiscoverySelectors.selectUniqueId;

import dev.linkproof.engine.config.Constants;
import dev.linkproof.engine.descriptor.FleetPairDescriptor;
import dev.linkproof.engine.fixtures.FleetFixture;
import dev.linkproof.transfer.agent.Registration;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.platform.engine.DiscoverySelector;
import org.junit.platform.engine.TestDescriptor;
import org.junit.platform.engine.TestExecutionResult;
import org.junit.platform.testkit.engine.EngineExecutionResults;
import org.junit.platform.testkit.engine.EngineTestKit;
import org.junit.platform.testkit.engine.Event;

/**
 * A fleet run through the engine, its agents in this JVM on loopback, each registering with the
 * engine's registry as a launcher's agent would: registration tests, one test per (pair, point) with
 * the pair in its unique id, the verdicts at the end; a node that never registers fails its own test
 * and is blamed as missing while the rest is judged.
 */
class FleetEngineTest {
    static final String TOKEN = "fleet-engine-test-token-0123";

    @TempDir
    Path dir;

    private final LoopbackFleet fleet = new LoopbackFleet(TOKEN);

    @AfterEach
    void stop() {
        fleet.close();
    }

    private EngineTestKit.Builder kit(int registryPort, String nodes, DiscoverySelector... selectors) {
        Map<String, String> config = fleet.config(registryPort, nodes, dir, "3s");
        return EngineTestKit.engine(Constants.ENGINE_ID).selectors(selectors).configurationParameters(config);
    }

    private static List<String> names(EngineExecutionResults r, TestExecutionResult.Status status) {
        return r.testEvents().finished().stream()
                .filter(e -> e.getRequiredPayload(TestExecutionResult.class).getStatus() == status)
                .map(e -> e.getTestDescriptor().getDisplayName())
                .toList();
    }

    @Test
    void everyPairOfTheFleetIsATestOfItsOwnAndACleanFleetBlamesNobody() throws Exception {
        int port = LoopbackFleet.freePort();
        fleet.start(port, "n1", "n2", "n3", "n4");
        EngineExecutionResults r =
                kit(port, "n1,n2,n3,n4", selectClass(FleetFixture.class)).execute();
        List<String> passed = names(r, TestExecutionResult.Status.SUCCESSFUL);
        assertThat(names(r, TestExecutionResult.Status.FAILED)).isEmpty();
        assertThat(passed).contains("node n1 registers", "node n4 registers", "the fleet blames nobody");
        // Pairwise over four nodes: three rounds, each pair both ways: twelve directed pairs.
        List<Event> pairs = r.testEvents().finished().stream()
                .filter(e -> e.getTestDescriptor()
                        .getUniqueId()
                        .getLastSegment()
                        .getType()
                        .equals(FleetPairDescriptor.SEGMENT))
                .toList();
        assertThat(pairs).hasSize(12);
        assertThat(pairs)
                .extracting(e ->
                        e.getTestDescriptor().getUniqueId().getLastSegment().getValue())
                .contains("n1->n2", "n2->n1", "n3->n4", "n4->n1");
        assertThat(pairs)
                .extracting(e -> e.getTestDescriptor().getDisplayName())
                .contains("write 64 KiB ×2 · 1 conn · tcp · n1→n2");
        // For automation: the verdicts, and a heat map of the point beside them.
        String verdict = java.nio.file.Files.readString(dir.resolve("fleet-verdict.json"));
        assertThat(verdict)
                .contains("\"schema\" : \"linkproof.fleet-verdict/1\"")
                .contains("\"verdicts\" : [ ]");
        assertThat(dir.resolve("fleet-heatmap-1.svg"))
                .content()
                .contains("<svg")
                .contains("n4");
        // The results file: every pair's record, then the verdicts as its last line.
        List<String> results = java.nio.file.Files.readAllLines(dir.resolve("results.jsonl"));
        assertThat(results).hasSize(12 + 1);
        assertThat(results.getLast()).startsWith("{\"schema\":\"linkproof.fleet-verdict/1\"");
        assertThat(dev.linkproof.reports.results.ResultsFile.read(dir.resolve("results.jsonl")))
                .hasSize(12);
        // Each agent's registration was ended by the run: the agents would stop.
        long deadline = System.nanoTime() + 5_000_000_000L;
        for (Registration reg : fleet.registrations()) {
            assertThat(reg.awaitEnd()).isEqualTo("the coordinator ended the run: the fleet run ended");
        }
        assertThat(System.nanoTime()).isLessThan(deadline);
    }

    /** A run of the fixture on four fresh agents, with what it printed on System.out. */
    private String printed(boolean progress) throws Exception {
        int port = LoopbackFleet.freePort();
        fleet.start(port, "n1", "n2", "n3", "n4");
        java.io.PrintStream original = System.out;
        java.io.ByteArrayOutputStream out = new java.io.ByteArrayOutputStream();
        System.setOut(new java.io.PrintStream(out, true, java.nio.charset.StandardCharsets.UTF_8));
        try {
            kit(port, "n1,n2,n3,n4", selectClass(FleetFixture.class))
                    .configurationParameter(Constants.PROGRESS, Boolean.toString(progress))
                    .execute();
        } finally {
            System.setOut(original);
        }
        return out.toString(java.nio.charset.StandardCharsets.UTF_8);
    }

    @Test
    void theFleetsLinesGoThroughTheProgressPrinterAndProgressFalseSilencesThem() throws Exception {
        String shown = printed(true);
        assertThat(shown)
                .contains(
                        "[linkproof fleet] 4 of 4 nodes registered",
                        "[linkproof fleet] verdict: the fleet of 4 nodes blames nobody",
                        "[linkproof fleet] cost: the rounds");
        assertThat(printed(false)).doesNotContain("[linkproof fleet]");
    }

    @Test
    void aNodeThatNeverRegistersFailsItsOwnTestItsPairsNameItAndItIsBlamedAsMissing() throws Exception {
        int port = LoopbackFleet.freePort();
        fleet.start(port, "n1", "n2", "n3");
        EngineExecutionResults r =
                kit(port, "n1,n2,n3,n4", selectClass(FleetFixture.class)).execute();
        List<String> failed = r.testEvents().failed().stream()
                .map(e -> e.getTestDescriptor().getDisplayName() + ": "
                        + e.getRequiredPayload(TestExecutionResult.class)
                                .getThrowable()
                                .map(Throwable::getMessage)
                                .orElse(""))
                .toList();
        assertThat(failed)
                .anySatisfy(f -> assertThat(f).startsWith("node n4 registers: node n4 did not register within 3s"));
        assertThat(failed)
                .anySatisfy(f -> assertThat(f)
                        .contains("n1→n4")
                        .contains("node n4 unreachable")
                        .contains("node n4 did not register with the coordinator"));
        assertThat(failed).anySatisfy(f -> assertThat(f).startsWith("missing-node n4"));
        assertThat(failed).noneSatisfy(f -> assertThat(f).contains("n1→n2"));
        assertThat(failed).noneSatisfy(f -> assertThat(f).contains("bad-node").contains("n1"));
        assertThat(java.nio.file.Files.readString(dir.resolve("fleet-verdict.json")))
                .contains("\"kind\" : \"missing-node\"");
    }

    @Test
    void aTagFilterKeepsTheFleetsPairsItsRegistrationsAndItsVerdicts() throws Exception {
        int port = LoopbackFleet.freePort();
        fleet.start(port, "n1", "n2", "n3", "n4");
        EngineExecutionResults r = kit(port, "n1,n2,n3,n4", selectClass(FleetFixture.class))
                .filters(org.junit.platform.launcher.TagFilter.includeTags("tcp"))
                .execute();
        assertThat(names(r, TestExecutionResult.Status.FAILED)).isEmpty();
        assertThat(names(r, TestExecutionResult.Status.SUCCESSFUL))
                .contains("node n1 registers", "the fleet blames nobody", "write 64 KiB ×2 · 1 conn · tcp · n3→n4")
                .hasSize(4 + 12 + 1);
        EngineExecutionResults none = kit(port, "n1,n2,n3,n4", selectClass(FleetFixture.class))
                .filters(org.junit.platform.launcher.TagFilter.includeTags("verbs"))
                .execute();
        assertThat(none.testEvents().started().count())
                .as("a filter that keeps no point keeps no fleet test")
                .isZero();
    }

    @Test
    void onePairIsSelectableByItsUniqueIdAndRunsAlone() throws Exception {
        int port = LoopbackFleet.freePort();
        fleet.start(port, "n1", "n2", "n3", "n4");
        TestDescriptor any = kit(port, "n1,n2,n3,n4", selectClass(FleetFixture.class))
                .discover()
                .getEngineDescriptor()
                .getDescendants()
                .stream()
                .filter(d ->
                        d instanceof FleetPairDescriptor p && p.pair().label().equals("n3->n2"))
                .findFirst()
                .orElseThrow();
        EngineExecutionResults r =
                kit(port, "n1,n2,n3,n4", selectUniqueId(any.getUniqueId())).execute();
        List<Event> pairs = r.testEvents().finished().stream()
                .filter(e -> e.getTestDescriptor() instanceof FleetPairDescriptor)
                .toList();
        assertThat(pairs).singleElement().satisfies(e -> {
            assertThat(e.getTestDescriptor().getUniqueId()).isEqualTo(any.getUniqueId());
            assertThat(e.getRequiredPayload(TestExecutionResult.class).getStatus())
                    .isEqualTo(TestExecutionResult.Status.SUCCESSFUL);
        });
    }
}
