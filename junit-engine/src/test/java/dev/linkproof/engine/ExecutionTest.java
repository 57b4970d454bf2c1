package dev.linkproof.engine;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.platform.engine.discovery.DiscoverySelectors.selectClass;

import dev.linkproof.engine.config.Constants;
import dev.linkproof.engine.descriptor.SweepPointDescriptor;
import dev.linkproof.engine.fixtures.RunFixture;
import dev.linkproof.transfer.Op;
import dev.linkproof.transfer.session.Session;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.stream.Collectors;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.junit.platform.engine.TestExecutionResult;
import org.junit.platform.engine.reporting.ReportEntry;
import org.junit.platform.testkit.engine.EngineExecutionResults;
import org.junit.platform.testkit.engine.EngineTestKit;
import org.junit.platform.testkit.engine.Event;

/** One real run of {@link RunFixture} against a local agent JVM; each test checks one aspect of it. */
@Timeout(120)
class ExecutionTest {
    @TempDir
    static Path dir;

    private static EngineExecutionResults results;

    @BeforeAll
    static void run() {
        RunFixture.SEEN.clear();
        RunFixture.INSTANCES.clear();
        results = EngineTestKit.engine(Constants.ENGINE_ID)
                .configurationParameter(Constants.PROGRESS, "false")
                .configurationParameter(
                        Constants.AGENT_LOG, dir.resolve("agent.log").toString())
                .selectors(selectClass(RunFixture.class))
                .execute();
    }

    private static String method(Event e) {
        return e.getTestDescriptor().getParent().orElseThrow().getDisplayName();
    }

    private static List<Event> finished(String method) {
        return results.testEvents().finished().stream()
                .filter(e -> method(e).equals(method))
                .toList();
    }

    private static TestExecutionResult only(String method) {
        List<Event> events = finished(method);
        assertThat(events).as("finished points of %s", method).hasSize(1);
        return events.getFirst().getRequiredPayload(TestExecutionResult.class);
    }

    private static String skipReason(String method) {
        List<Event> skipped = results.testEvents().skipped().stream()
                .filter(e -> method(e).equals(method))
                .toList();
        assertThat(skipped).as("skipped points of %s", method).hasSize(1);
        return skipped.getFirst().getRequiredPayload(String.class);
    }

    @Test
    void statistics() {
        results.testEvents()
                .assertStatistics(
                        s -> s.skipped(2).started(9).succeeded(6).failed(3).aborted(0));
        results.containerEvents().assertStatistics(s -> s.failed(0));
    }

    @Test
    void everyParameterTypeIsResolved() {
        assertThat(finished("resolvesEveryParameterType"))
                .hasSize(4)
                .allSatisfy(e -> assertThat(
                                e.getRequiredPayload(TestExecutionResult.class).getStatus())
                        .isEqualTo(TestExecutionResult.Status.SUCCESSFUL));
        assertThat(RunFixture.SEEN).hasSize(4);
        Set<String> segments = results.testEvents().started().stream()
                .filter(e -> method(e).equals("resolvesEveryParameterType"))
                .map(e -> ((SweepPointDescriptor) e.getTestDescriptor()).point().segment())
                .collect(Collectors.toSet());
        for (RunFixture.Seen seen : RunFixture.SEEN) {
            assertThat(seen.measurement()).isNotNull();
            assertThat(seen.measurement().isValid())
                    .as(seen.measurement().validation().describe())
                    .isTrue();
            assertThat(seen.spec()).isSameAs(seen.point().spec());
            assertThat(seen.measurement().spec()).isEqualTo(seen.spec());
            assertThat(seen.spec().iterations()).isEqualTo(5);
            assertThat(seen.spec().size()).isEqualTo(4096);
            assertThat(seen.spec().connections()).isEqualTo(2);
            assertThat(seen.measurement().bytes()).isEqualTo(4096L * seen.spec().batch() * 5);
            assertThat(segments).contains(seen.point().segment());
            assertThat(seen.session()).isInstanceOf(Session.class);
            assertThat(seen.sessionUsable()).isTrue();
            assertThat(seen.agentVersion()).isNotBlank();
        }
        assertThat(RunFixture.SEEN).extracting(s -> s.spec().op()).containsOnly(Op.WRITE, Op.READ);
        assertThat(RunFixture.SEEN).extracting(s -> s.spec().batch()).containsOnly(1, 3);
        assertThat(RunFixture.SEEN).extracting(RunFixture.Seen::point).doesNotHaveDuplicates();
        assertThat(RunFixture.SEEN)
                .extracting(RunFixture.Seen::session)
                .as("one pair for the whole run")
                .containsOnly(RunFixture.SEEN.getFirst().session());
        assertThat(RunFixture.INSTANCES)
                .as("a fresh instance per point")
                .doesNotHaveDuplicates()
                .hasSize(4);
    }

    @Test
    void aMethodWithoutParametersPassesWhenItsDataValidates() {
        assertThat(only("passesWithoutParameters").getStatus()).isEqualTo(TestExecutionResult.Status.SUCCESSFUL);
    }

    @Test
    void latencyPointRunsInLatencyMode() {
        assertThat(only("latency").getStatus())
                .as(String.valueOf(only("latency").getThrowable()))
                .isEqualTo(TestExecutionResult.Status.SUCCESSFUL);
    }

    @Test
    void aFailingMeasurementAssertionFailsThePointWithItsMessage() {
        TestExecutionResult r = only("failsItsOwnAssertion");
        assertThat(r.getStatus()).isEqualTo(TestExecutionResult.Status.FAILED);
        assertThat(r.getThrowable()).get().isInstanceOf(AssertionError.class);
        assertThat(r.getThrowable().orElseThrow().getMessage())
                .matches("measured .* [GM]B/s < required 1000000000.0 GB/s");
    }

    @Test
    void aFailingPlainAssertionFailsThePointWithItsMessage() {
        TestExecutionResult r = only("failsWithAPlainAssertion");
        assertThat(r.getStatus()).isEqualTo(TestExecutionResult.Status.FAILED);
        assertThat(r.getThrowable().orElseThrow())
                .isInstanceOf(AssertionError.class)
                .hasMessageContaining("[the size of this point]")
                .hasMessageContaining("1024");
    }

    @Test
    void anExceptionFromTheMethodFailsThePoint() {
        TestExecutionResult r = only("throwsAnException");
        assertThat(r.getStatus()).isEqualTo(TestExecutionResult.Status.FAILED);
        assertThat(r.getThrowable().orElseThrow())
                .isInstanceOf(java.io.IOException.class)
                .hasMessage("boom from the test method");
    }

    @Test
    void anUnknownTransportIsSkippedNamingIt() {
        assertThat(skipReason("unknownTransport")).contains("'warp-drive'").contains("tcp");
    }

    @Test
    void anOpTheTransportCannotDoIsSkippedWithTheReason() {
        assertThat(skipReason("unsupportedOp")).contains("tcp").contains("send");
    }

    @Test
    void measuredFiguresArePublishedAsReportEntries() {
        List<Event> entries = results.allEvents().reportingEntryPublished().list();
        assertThat(entries).as("one per point that ran; none for the skipped").hasSize(9);
        for (Event e : entries) {
            Map<String, String> kv = e.getRequiredPayload(ReportEntry.class).getKeyValuePairs();
            assertThat(kv).containsKeys("bandwidth.GBps", "latency.avg.us", "bytes", "iterations", "validation");
            assertThat(kv.get("validation")).startsWith("data valid");
            assertThat(kv.get("iterations")).isEqualTo("5");
        }
        Optional<Event> latency =
                entries.stream().filter(e -> method(e).equals("latency")).findFirst();
        assertThat(latency).isPresent();
        assertThat(latency.get().getRequiredPayload(ReportEntry.class).getKeyValuePairs())
                .containsKeys("latency.p50.us", "latency.p99.us", "latency.p999.us", "latency.max.us");
    }

    @Test
    void eventsCarryTheReadableDisplayNames() {
        assertThat(results.testEvents().started().stream()
                        .map(e -> e.getTestDescriptor().getDisplayName()))
                .contains(
                        "write 4 KiB ×3 · 2 conn · tcp",
                        "read 4 KiB ×1 · 2 conn · tcp",
                        "write 1 KiB ×1 · 1 conn · tcp",
                        "read 512 B ×1 · 1 conn · tcp · latency");
    }

    @Test
    void theLocalAgentLogsWhereItWasTold() {
        assertThat(dir.resolve("agent.log")).exists().content().contains("linkproof-agent ready");
    }
}
