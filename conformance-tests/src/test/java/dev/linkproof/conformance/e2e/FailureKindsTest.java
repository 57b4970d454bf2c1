package dev.linkproof.conformance.e2e;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeFalse;
import static org.junit.platform.engine.discovery.DiscoverySelectors.selectClass;
import static org.junit.platform.engine.discovery.DiscoverySelectors.selectMethod;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.linkproof.conformance.e2e.fixtures.CorruptedInTransit;
import dev.linkproof.conformance.e2e.fixtures.FailureKindFixtures;
import dev.linkproof.engine.config.Constants;
import dev.linkproof.engine.failure.Failures;
import dev.linkproof.engine.reporting.RunReporter;
import dev.linkproof.reports.allure.RunFiles;
import dev.linkproof.transfer.FailureKind;
import dev.linkproof.transfer.spi.Transports;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.platform.engine.DiscoverySelector;
import org.junit.platform.engine.TestExecutionResult;
import org.junit.platform.testkit.engine.EngineTestKit;
import org.junit.platform.testkit.engine.Event;
import org.junit.platform.testkit.engine.EventType;

/**
 * Every kind of failure, driven by a real fault through the whole engine: the point's failure
 * carries its kind, its results record says it ({@code failureKind}), and the Allure categories file
 * it under its kind's category and no other, by the trace Allure records, whatever the message says.
 * The kinds that need a busy host, a NIC of the profile's kind or the Soft-RoCE VM are driven where
 * those are (BusyHostEngineTest, EachDeviceTest, SoftRoceSuite), with the same check.
 */
@Tag("e2e")
class FailureKindsTest {
    private static final ObjectMapper JSON = new ObjectMapper();

    @TempDir
    Path dir;

    @Test
    void aFlippedByteIsDataCorruption() throws Exception {
        assertEveryPoint(
                run("r.jsonl", List.of(selectClass(CorruptedInTransit.class))), Set.of(FailureKind.DATA_CORRUPTION));
    }

    /** Short of the floor: below criterion, or short on a busy host when the machine was busy meanwhile (no rerun). */
    @Test
    void aFloorTheLinkCannotReachIsBelowCriterion() throws Exception {
        Path floor = Files.writeString(dir.resolve("floor.yaml"), """
            id: floor
            vendor: test
            match: {fallback: true}
            criteria:
              - name: unreachable
                op: [write]
                min-bandwidth: 1000 GB/s
            """);
        assertEveryPoint(
                run(
                        "r.jsonl",
                        List.of(selectMethod(FailureKindFixtures.class, "oneMiB")),
                        Constants.PROFILE,
                        floor.toString(),
                        Constants.BUSY_HOST_RERUNS,
                        "0"),
                Set.of(FailureKind.BELOW_CRITERION, FailureKind.SHORT_ON_BUSY_HOST));
    }

    /** The same point against a baseline 100 times faster than its first run: a regression (no rerun). */
    @Test
    void aBaselineFarAboveIsAPerformanceRegression() throws Exception {
        List<DiscoverySelector> point = List.of(selectMethod(FailureKindFixtures.class, "oneMiB"));
        run("first.jsonl", point).assertStatistics(s -> s.succeeded(1));
        List<String> faster = new ArrayList<>();
        for (String line : Files.readAllLines(dir.resolve("first.jsonl"))) {
            ObjectNode n = (ObjectNode) JSON.readTree(line);
            n.put("bandwidthGBps", n.get("bandwidthGBps").asDouble() * 100);
            faster.add(JSON.writeValueAsString(n));
        }
        Path baseline = Files.write(dir.resolve("baseline.jsonl"), faster);
        assertEveryPoint(
                run(
                        "r.jsonl",
                        point,
                        Constants.BASELINE,
                        baseline.toString(),
                        Constants.BASELINE_RERUNS,
                        "0",
                        Constants.BUSY_HOST_RERUNS,
                        "0"),
                Set.of(FailureKind.PERFORMANCE_REGRESSION, FailureKind.SHORT_ON_BUSY_HOST));
    }

    /** A target agent that cannot start (a JVM option it refuses): no target rank, a peer failure. */
    @Test
    void aTargetThatNeverStartsIsAPeerFailure() throws Exception {
        assertEveryPoint(
                run(
                        "r.jsonl",
                        List.of(selectMethod(FailureKindFixtures.class, "oneMiB")),
                        Constants.AGENT_JVM_ARGS,
                        "-XX:+NoSuchOptionAnywhere"),
                Set.of(FailureKind.PEER_FAILURE));
    }

    @Test
    void aPostThisSideRefusesIsATransferError() throws Exception {
        assertEveryPoint(
                run("r.jsonl", List.of(selectMethod(FailureKindFixtures.class, "refusedPost"))),
                Set.of(FailureKind.TRANSFER_ERROR));
    }

    @Test
    void theMethodsOwnAssertionAndAnythingElseItThrowsAreTheirOwnKinds() throws Exception {
        assertEveryPoint(
                run(
                        "a.jsonl",
                        List.of(selectMethod(
                                FailureKindFixtures.class,
                                "assertsInItsBody",
                                "dev.linkproof.transfer.measure.Measurement"))),
                Set.of(FailureKind.TEST_ASSERTION));
        assertEveryPoint(
                run("b.jsonl", List.of(selectMethod(FailureKindFixtures.class, "throwsInItsBody"))),
                Set.of(FailureKind.ERROR));
    }

    /** Where verbs has no RDMA device (as on CI): skipped, or failed when the profile requires verbs. */
    @Test
    void aMissingTransportIsUnavailableOrRequiredTransportUnavailable() throws Exception {
        assumeFalse(
                Transports.discover().find("verbs").orElseThrow().availability().available(),
                "verbs is available on this host: the test needs it missing");
        skippedOrFailedWhenRequired(
                List.of(selectMethod(FailureKindFixtures.class, "overVerbs")),
                "verbs",
                FailureKind.REQUIRED_TRANSPORT_UNAVAILABLE);
    }

    /**
     * A device whose atomic_cap is IBV_ATOMIC_NONE (NoAtomicsDeviceTransport's fake one): an atomic
     * point is skipped, or failed as a required capability when the profile requires the transport.
     */
    @Test
    void aDeviceWithoutAtomicsIsUnavailableOrRequiredCapabilityUnavailable() throws Exception {
        skippedOrFailedWhenRequired(
                List.of(selectMethod(FailureKindFixtures.class, "atomicsWithoutAtomicCap")),
                NoAtomicsDeviceTransport.ID,
                FailureKind.REQUIRED_CAPABILITY_UNAVAILABLE);
    }

    private Path results;

    /**
     * The points of {@code selectors} are skipped (UNAVAILABLE) under the default profile, and every one
     * fails as {@code whenRequired} under a profile that requires {@code transport}.
     */
    private void skippedOrFailedWhenRequired(
            List<DiscoverySelector> selectors, String transport, FailureKind whenRequired) throws Exception {
        assertEveryPoint(run("a.jsonl", selectors), Set.of(FailureKind.UNAVAILABLE));
        Path requires = Files.writeString(dir.resolve("req.yaml"), """
            id: req
            vendor: test
            match: {fallback: true}
            transport:
              required: [%s]
            """.formatted(transport));
        assertEveryPoint(run("b.jsonl", selectors, Constants.PROFILE, requires.toString()), Set.of(whenRequired));
    }

    private org.junit.platform.testkit.engine.Events run(
            String resultsFile, List<DiscoverySelector> selectors, String... config) {
        results = dir.resolve(resultsFile);
        var kit = EngineTestKit.engine(Constants.ENGINE_ID)
                .configurationParameter(Constants.PROGRESS, "false")
                .configurationParameter(Constants.PROFILE, E2e.VALIDATION_ONLY)
                .configurationParameter(Constants.RESULTS, results.toString())
                .selectors(selectors.toArray(DiscoverySelector[]::new));
        for (int i = 0; i < config.length; i += 2) {
            kit = kit.configurationParameter(config[i], config[i + 1]);
        }
        return kit.execute().testEvents();
    }

    /**
     * Every point of the last run ended with one of {@code kinds}; its record says the same kind; and
     * Allure files it, by the trace it records, under that kind's category alone.
     */
    private void assertEveryPoint(org.junit.platform.testkit.engine.Events events, Set<FailureKind> kinds)
            throws Exception {
        List<Event> finished = events.filter(e -> e.getType() == EventType.FINISHED || e.getType() == EventType.SKIPPED)
                .toList();
        assertThat(finished).isNotEmpty();
        List<JsonNode> records = new ArrayList<>();
        for (String line : Files.readAllLines(results)) {
            records.add(JSON.readTree(line));
        }
        assertThat(records).hasSameSizeAs(finished);
        for (Event e : finished) {
            String name = e.getTestDescriptor().getDisplayName();
            JsonNode record = records.stream()
                    .filter(r -> r.get("name").asText().equals(name))
                    .findFirst()
                    .orElseThrow();
            if (e.getType() == EventType.SKIPPED) {
                assertThat(kinds).as(name).contains(FailureKind.UNAVAILABLE);
                assertThat(record.get("failureKind").asText()).as(name).isEqualTo("UNAVAILABLE");
                assertThat(RunFiles.categoriesFor("skipped", null)).containsExactly(FailureKind.UNAVAILABLE.category());
                continue;
            }
            TestExecutionResult result = e.getRequiredPayload(TestExecutionResult.class);
            FailureKind kind = Failures.kindOf(result).orElseThrow(() -> new AssertionError(name + " passed"));
            assertThat(kinds)
                    .as(name + ": "
                            + result.getThrowable().map(Throwable::getMessage).orElse(""))
                    .contains(kind);
            assertThat(record.get("failureKind").asText()).as(name).isEqualTo(kind.name());
            assertThat(record.get("status").asText()).as(name).isEqualTo(RunReporter.status(result));
            if (result.getStatus() == TestExecutionResult.Status.ABORTED) {
                continue;
            }
            Kinds.assertKind(result, kind);
        }
    }
}
