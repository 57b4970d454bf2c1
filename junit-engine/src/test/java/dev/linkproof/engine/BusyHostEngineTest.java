package dev.linkproof.engine;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeFalse;
import static org.junit.jupiter.api.Assumptions.assumeTrue;
import static org.junit.platform.engine.discovery.DiscoverySelectors.selectClass;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.linkproof.engine.config.Constants;
import dev.linkproof.engine.fixtures.BusyHostFixture;
import dev.linkproof.transfer.agent.AgentServer;
import dev.linkproof.transfer.measure.DetachedBusyLoop;
import dev.linkproof.transfer.measure.HostContention;
import dev.linkproof.transfer.measure.HostCpuMeter;
import dev.linkproof.transfer.spi.IoSettings;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.junit.platform.engine.TestExecutionResult;
import org.junit.platform.testkit.engine.EngineTestKit;
import org.junit.platform.testkit.engine.EventType;

/**
 * {@code linkproof.busyHost.reruns} end to end: a real tcp point on this host, judged by the loopback
 * profile with its floor raised out of reach, while busy loops outside this JVM's process tree hold
 * the CPUs (or not). The judge-level cases, including a rerun that passes, are in BusyHostRerunTest.
 */
@Timeout(120)
class BusyHostEngineTest {
    private static final ObjectMapper JSON = new ObjectMapper();
    private final List<DetachedBusyLoop> loops = new ArrayList<>();

    @TempDir
    Path dir;

    /** Starts a busy loop re-parented away from this JVM: other, not ours, to the host accounting. */
    private void busyLoop() throws Exception {
        loops.add(DetachedBusyLoop.start());
    }

    @AfterEach
    void stopLoops() {
        loops.forEach(DetachedBusyLoop::close);
    }

    private record Run(String message, JsonNode record) {}

    private Run run(String... config) throws Exception {
        Path results = dir.resolve("r-" + System.nanoTime() + ".jsonl");
        var kit = EngineTestKit.engine(Constants.ENGINE_ID)
                .configurationParameter(Constants.RESULTS, results.toString())
                .configurationParameter(Constants.PROFILE, "loopback")
                .configurationParameter("linkproof.criteria.tcp-bulk.min-bandwidth", "1000 GB/s")
                .selectors(selectClass(BusyHostFixture.class));
        for (int i = 0; i < config.length; i += 2) {
            kit = kit.configurationParameter(config[i], config[i + 1]);
        }
        var events = kit.execute().testEvents();
        String message = events.filter(e -> e.getType() == EventType.FINISHED)
                .map(e -> e.getRequiredPayload(TestExecutionResult.class)
                        .getThrowable()
                        .map(Throwable::getMessage)
                        .orElse(""))
                .findFirst()
                .orElseThrow();
        List<String> lines = Files.readAllLines(results);
        assertThat(lines).hasSize(1);
        return new Run(message, JSON.readTree(lines.getFirst()));
    }

    @Test
    void aPointBelowItsFloorWhileOthersHoldTheCpusIsRerunOnceAndFailsNamingBothAttempts() throws Exception {
        assumeTrue(Files.isReadable(Path.of("/proc/stat")), "no /proc: host load is not measured here");
        int cpus = Runtime.getRuntime().availableProcessors();
        for (int i = 0; i < cpus; i++) {
            busyLoop();
        }
        Run r = run();
        assertThat(r.message())
                .startsWith("below criterion of profile 'loopback': write 4 MiB ×1: ")
                .contains("< criterion 1000.0 GB/s (tcp-bulk)")
                .contains("[attempt 2; the first ran on a busy host: ")
                .contains("other processes used ");
        assertThat(r.record().get("attempts").asInt()).isEqualTo(2);
        assertThat(r.record().get("failureKind").asText()).isEqualTo("SHORT_ON_BUSY_HOST");
        assertThat(r.record().get("hostOtherCpus").asDouble()).isGreaterThanOrEqualTo(0.5);
        assertThat(r.record().get("verdicts").toString())
                .contains("RERUN attempt 1 (")
                .contains("HOST other processes used ");
    }

    @Test
    void withReRunsSwitchedOffTheFirstAttemptIsTheVerdict() throws Exception {
        assumeTrue(Files.isReadable(Path.of("/proc/stat")), "no /proc: host load is not measured here");
        for (int i = 0; i < Runtime.getRuntime().availableProcessors(); i++) {
            busyLoop();
        }
        Run r = run(Constants.BUSY_HOST_RERUNS, "0");
        assertThat(r.message())
                .contains("< criterion 1000.0 GB/s (tcp-bulk)")
                .doesNotContain("[attempt")
                .contains(" [ran while a host was busy: other processes used ");
        assertThat(r.record().get("attempts").asInt()).isEqualTo(1);
        assertThat(r.record().get("failureKind").asText()).isEqualTo("SHORT_ON_BUSY_HOST");
        assertThat(r.record().get("verdicts").toString()).doesNotContain("RERUN");
    }

    /**
     * {@code linkproof.peer} naming an agent on this kernel (here one in this JVM) is a local pair to
     * the host accounting: its figure, which would count the initiator as "other", is left out, and
     * its process counts as ours. Busy loops are still other, so the point is rerun.
     */
    @Test
    void aPeerOnThisKernelIsMeasuredAsALocalPair() throws Exception {
        assumeTrue(HostCpuMeter.kernelBootId().isPresent(), "no boot id: the peer cannot be placed");
        String token = "busy-host-remote-peer-token-0123456789";
        try (AgentServer agent = AgentServer.start("127.0.0.1", 0, token, IoSettings.DEFAULT)) {
            for (int i = 0; i < Runtime.getRuntime().availableProcessors(); i++) {
                busyLoop();
            }
            Run r = run(Constants.PEER, "127.0.0.1:" + agent.port(), Constants.TOKEN, token);
            String verdicts = r.record().get("verdicts").toString();
            assertThat(verdicts).contains("HOST other processes used ").doesNotContain("target: other processes");
            assertThat(r.record().has("targetOtherCpus")).isFalse();
            assertThat(r.record().get("attempts").asInt()).isEqualTo(2);
        }
    }

    /** "other processes used 1.18 of 2 CPUs (ours 0.83)" as the engine wrote it, back into figures. */
    private static final java.util.regex.Pattern HOST =
            java.util.regex.Pattern.compile("other processes used ([0-9.]+) of ([0-9]+) CPUs \\(ours ([0-9.]+)\\)");

    private static HostContention host(String text) {
        java.util.regex.Matcher m = HOST.matcher(text);
        assertThat(m.find()).as(text).isTrue();
        return new HostContention(
                Double.parseDouble(m.group(1)), Double.parseDouble(m.group(3)), Integer.parseInt(m.group(2)), 1);
    }

    /** Two decimals cannot settle a figure within a hundredth of either threshold. */
    private static boolean onTheEdge(HostContention h) {
        return Math.abs(h.otherCpus() - HostContention.BUSY_CPUS) < 0.011
                || Math.abs(h.cpus() - h.otherCpus() - h.ownCpus() - 1) < 0.021;
    }

    /**
     * Without busy loops of ours the host may still be busy (another build), so this checks the rule
     * rather than the weather: a point is rerun exactly when its first attempt's host was busy.
     */
    @Test
    void aPointIsRerunExactlyWhenItsFirstAttemptsHostWasBusy() throws Exception {
        assumeTrue(Files.isReadable(Path.of("/proc/stat")), "no /proc: host load is not measured here");
        Run r = run();
        List<String> verdicts = new ArrayList<>();
        r.record().get("verdicts").forEach(v -> verdicts.add(v.asText()));
        assertThat(r.record().get("hostOtherCpus")).as("host load is reported").isNotNull();
        if (r.record().get("attempts").asInt() == 1) {
            assertThat(verdicts).noneMatch(v -> v.startsWith("RERUN"));
            String only = verdicts.stream()
                    .filter(v -> v.startsWith("HOST "))
                    .findFirst()
                    .orElseThrow();
            assumeFalse(onTheEdge(host(only)), only);
            assertThat(host(only).busy())
                    .as("a first attempt on a quiet host is final: " + only)
                    .isFalse();
        } else {
            assertThat(r.record().get("attempts").asInt()).isEqualTo(2);
            String first = verdicts.stream()
                    .filter(v -> v.startsWith("RERUN attempt 1 ("))
                    .findFirst()
                    .orElseThrow();
            assumeFalse(onTheEdge(host(first)), first);
            assertThat(host(first).busy())
                    .as("the first attempt's host was busy: " + first)
                    .isTrue();
        }
    }
}
