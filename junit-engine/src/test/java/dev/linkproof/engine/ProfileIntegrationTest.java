package dev.linkproof.engine;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;
import static org.junit.platform.engine.discovery.DiscoverySelectors.selectClass;
import static org.junit.platform.engine.discovery.DiscoverySelectors.selectMethod;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.linkproof.engine.config.Constants;
import dev.linkproof.engine.fixtures.ProfileFixture;
import dev.linkproof.transfer.memory.HostMemory;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.platform.engine.TestExecutionResult;
import org.junit.platform.testkit.engine.EngineExecutionResults;
import org.junit.platform.testkit.engine.EngineTestKit;
import org.junit.platform.testkit.engine.Event;
import org.junit.platform.testkit.engine.EventType;

/** The hardware profile in a run: chosen automatically, judging every point, stopping the run when malformed. */
class ProfileIntegrationTest {
    private static final ObjectMapper JSON = new ObjectMapper();

    @TempDir
    Path dir;

    @Test
    void thisMachineGetsTheLoopbackProfileAndEveryPointIsMeasuredAgainstACriterion() throws Exception {
        Path results = dir.resolve("r.jsonl");
        run(results, selectMethod(ProfileFixture.class, "judged", ""))
                .testEvents()
                .assertStatistics(s -> s.started(2).succeeded(2));
        List<JsonNode> lines = lines(results);
        assertThat(lines).hasSize(2);
        assertThat(lines.get(0).get("verdicts").toString())
                .contains("PASS write 4 KiB ×1: avg latency")
                .contains("≤ criterion 2000 µs (tcp-small-latency)");
        assertThat(lines.get(1).get("verdicts").toString())
                .contains("≥ criterion")
                .contains("(tcp-bulk: 0.03 × memcpy baseline");
        assertThat(lines.get(1).get("criterionGBps").asDouble()).isPositive();
        assertThat(lines.get(0).get("criteria").toString()).isEqualTo("[\"tcp-small-latency\"]");
        assertThat(lines.get(1).get("criteria").toString()).isEqualTo("[\"tcp-bulk\"]");
    }

    @Test
    void aCriterionTheHostCannotMeetFailsThePointNamingMeasuredAndCriterion() throws Exception {
        Path results = dir.resolve("r.jsonl");
        var events = run(
                        results,
                        selectMethod(ProfileFixture.class, "judged", ""),
                        "linkproof.criteria.tcp-small-latency.max-avg-latency",
                        "1 ns",
                        "linkproof.criteria.tcp-bulk.min-bandwidth",
                        "100 GB/s")
                .testEvents();
        events.assertStatistics(s -> s.started(2).failed(2));
        List<String> messages = events.filter(e -> e.getType() == EventType.FINISHED)
                .map(ProfileIntegrationTest::message)
                .toList();
        assertThat(messages.get(0))
                .startsWith("below criterion of profile 'loopback': write 4 KiB ×1: avg latency")
                .contains("> criterion 1 ns (tcp-small-latency)");
        assertThat(messages.get(1))
                .startsWith("below criterion of profile 'loopback': write 1 MiB ×1: ")
                .contains("< criterion 100")
                .contains("(tcp-bulk)");
    }

    @Test
    void aMalformedProfileStopsTheRunBeforeAnyTransferNamingFileLineAndColumn() throws Exception {
        Path profile = dir.resolve("broken.yaml");
        Files.writeString(profile, """
            id: broken
            vendor: test
            description: a profile with a typo
            match:
              fallback: true
            criteria:
              - name: bulk
                op: [write]
                sizes: 1MiB..
                min-bandwith: 1 GB/s
            """);
        EngineExecutionResults r =
                run(dir.resolve("r.jsonl"), selectClass(ProfileFixture.class), "linkproof.profile", profile.toString());
        r.testEvents().assertStatistics(s -> s.started(0));
        Event engine = r.containerEvents()
                .filter(e -> e.getType() == EventType.FINISHED
                        && e.getTestDescriptor().getUniqueId().getSegments().size() == 1)
                .findFirst()
                .orElseThrow();
        String m = message(engine);
        assertThat(m)
                .contains("broken.yaml:10:5")
                .contains("configuration error")
                .contains("min-bandwith");

        // An error-level discovery issue whose source is the file at that line and column, which IDEs link to.
        var issues = EngineTestKit.engine(Constants.ENGINE_ID)
                .configurationParameter("linkproof.profile", profile.toString())
                .selectors(selectClass(ProfileFixture.class))
                .discover()
                .getDiscoveryIssues();
        assertThat(issues).singleElement().satisfies(i -> {
            assertThat(i.severity()).isEqualTo(org.junit.platform.engine.DiscoveryIssue.Severity.ERROR);
            assertThat(i.message()).startsWith("configuration error: ").contains("min-bandwith");
            var source = (org.junit.platform.engine.support.descriptor.FileSource)
                    i.source().orElseThrow();
            assertThat(source.getFile().toPath()).isEqualTo(profile);
            assertThat(source.getPosition())
                    .contains(org.junit.platform.engine.support.descriptor.FilePosition.from(10, 5));
        });
    }

    @Test
    void theProfilesTransportSettingsReachEveryPointBeneathThePointsOwn() throws Exception {
        Path profile = dir.resolve("with-settings.yaml");
        Files.writeString(profile, """
            id: with-settings
            vendor: test
            description: transport settings for every point
            sources:
              - "test"
            match:
              fallback: true
            transport:
              settings:
                shared: from-profile
                profile-only: "yes"
            criteria: []
            """);
        ProfileFixture.SETTINGS.clear();
        run(
                        dir.resolve("r.jsonl"),
                        selectMethod(ProfileFixture.class, "settings", "dev.linkproof.transfer.measure.Measurement"),
                        "linkproof.profile",
                        profile.toString())
                .testEvents()
                .assertStatistics(s -> s.succeeded(1));
        assertThat(ProfileFixture.SETTINGS)
                .singleElement()
                .isEqualTo(Map.of("shared", "from-point", "own", "mine", "profile-only", "yes"));
    }

    @Test
    void theProfilesDefaultsFillWhatTheAnnotationLeavesUnset() throws Exception {
        Path profile = dir.resolve("with-defaults.yaml");
        Files.writeString(profile, """
            id: with-defaults
            vendor: test
            description: defaults for unset sweep attributes
            sources:
              - "test"
            match:
              fallback: true
            defaults:
              qps: 2
              batch: 3
              iterations: 7
              warmup: 4
            criteria: []
            """);
        var discovered = EngineTestKit.engine(Constants.ENGINE_ID)
                .configurationParameter(Constants.PROFILE, profile.toString())
                .selectors(selectMethod(ProfileFixture.class, "defaulted", ""))
                .discover();
        var points = discovered.getEngineDescriptor().getDescendants().stream()
                .filter(d -> d instanceof dev.linkproof.engine.descriptor.SweepPointDescriptor)
                .map(d -> ((dev.linkproof.engine.descriptor.SweepPointDescriptor) d)
                        .point()
                        .spec())
                .toList();
        assertThat(points).singleElement().satisfies(s -> {
            assertThat(s.connections()).isEqualTo(2);
            assertThat(s.batch()).isEqualTo(3);
            assertThat(s.iterations()).isEqualTo(7);
            assertThat(s.warmup()).isEqualTo(4);
        });
    }

    @Test
    void aPointNeedingHugePagesTheHostLacksIsSkippedWithTheReason() throws Exception {
        assumeTrue(HostMemory.hugepagesUnavailable().isPresent(), "this host has huge pages; the point would run");
        var events = run(dir.resolve("r.jsonl"), selectMethod(ProfileFixture.class, "hugepages", ""))
                .testEvents();
        events.assertStatistics(s -> s.skipped(1).started(0));
        String reason = events.skipped().list().getFirst().getRequiredPayload(String.class);
        assertThat(reason).contains("huge pages");
    }

    private static EngineExecutionResults run(
            Path results, org.junit.platform.engine.DiscoverySelector selector, String... config) {
        var kit = EngineTestKit.engine(Constants.ENGINE_ID)
                .configurationParameter(Constants.PROGRESS, "false")
                .configurationParameter(Constants.RESULTS, results.toString())
                .configurationParameter(Constants.PROFILE, "auto")
                .selectors(selector);
        for (int i = 0; i < config.length; i += 2) {
            kit = kit.configurationParameter(config[i], config[i + 1]);
        }
        return kit.execute();
    }

    private static List<JsonNode> lines(Path file) throws Exception {
        List<JsonNode> out = new ArrayList<>();
        for (String l : Files.readAllLines(file)) {
            out.add(JSON.readTree(l));
        }
        return out;
    }

    private static String message(Event e) {
        return e.getRequiredPayload(TestExecutionResult.class)
                .getThrowable()
                .map(Throwable::getMessage)
                .orElse("");
    }
}
