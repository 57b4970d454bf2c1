package dev.linkproof.conformance.softroce;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;
import static org.junit.platform.engine.discovery.DiscoverySelectors.selectClass;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.linkproof.conformance.softroce.fixtures.CrossKernelBulk;
import dev.linkproof.conformance.softroce.fixtures.CrossKernelWrites;
import dev.linkproof.transfer.measure.HostCpuMeter;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.net.URISyntaxException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.platform.engine.TestExecutionResult;
import org.junit.platform.testkit.engine.EngineTestKit;
import org.junit.platform.testkit.engine.EventType;

/**
 * A pair on two kernels, for real: this side (the initiator) runs inside the Soft-RoCE VM, the target is an agent
 * SoftRoceSuite started on the VM's host, reached over QEMU's user network (control and data to 10.0.2.2, the host's
 * loopback). Every other pair in the build shares one kernel; here the engine must place the target on another host
 * by its boot id, report that host's load as the agent measured it there, and, before a busy-host rerun, ask that
 * agent for a fresh look ({@code LOAD}): the paths a two-host hardware runner takes. On the host build (no
 * {@value #PEER}) it skips with the reason.
 */
@Tag("softroce")
class TargetOnAnotherKernel {
    /** host:port of the agent on the VM's host, as seen from the VM; set by SoftRoceSuite's guest script. */
    static final String PEER = "softroce.host.peer";

    static final String TOKEN = "softroce.host.token";
    /** The host's CPU count and kernel boot id, as SoftRoceSuite read them there. */
    static final String CPUS = "softroce.host.cpus";

    static final String BOOT_ID = "softroce.host.bootId";

    private static final ObjectMapper JSON = new ObjectMapper();

    @TempDir
    Path dir;

    @BeforeEach
    void needsTheAgentOnTheVmsHost() {
        assumeTrue(
                System.getProperty(PEER) != null,
                "runs inside the Soft-RoCE VM (SoftRoceSuite) against an agent on the VM's host: no -D" + PEER
                        + " here");
        assumeTrue(
                HostCpuMeter.kernelBootId().isPresent(),
                "no kernel boot id in this VM: the engine cannot place the target");
        assertThat(HostCpuMeter.kernelBootId().get())
                .as("this VM's kernel is not the host's")
                .isNotEqualTo(System.getProperty(BOOT_ID));
    }

    private record Run(List<String> failures, List<JsonNode> records, String console) {}

    private Run run(Class<?> fixture, Map<String, String> config) throws Exception {
        Path results = dir.resolve("results-" + System.nanoTime() + ".jsonl");
        var kit = EngineTestKit.engine("linkproof")
                .selectors(selectClass(fixture))
                .configurationParameter("linkproof.peer", System.getProperty(PEER))
                .configurationParameter("linkproof.token", System.getProperty(TOKEN))
                .configurationParameter("linkproof.results", results.toString());
        // the run's own deadlines (TCG is slow): the guest script's linkproof.* system properties
        for (String key : System.getProperties().stringPropertyNames()) {
            if (key.startsWith("linkproof.timeout.")) {
                kit = kit.configurationParameter(key, System.getProperty(key));
            }
        }
        for (var e : config.entrySet()) {
            kit = kit.configurationParameter(e.getKey(), e.getValue());
        }
        // the engine prints its progress (and RERUN lines) to System.out, which it reads when a run starts
        PrintStream console = System.out;
        ByteArrayOutputStream captured = new ByteArrayOutputStream();
        System.setOut(new PrintStream(captured, true, StandardCharsets.UTF_8));
        org.junit.platform.testkit.engine.Events events;
        try {
            events = kit.execute().testEvents();
        } finally {
            System.setOut(console);
        }
        String printed = captured.toString(StandardCharsets.UTF_8);
        console.print(printed);
        List<String> failures = events.filter(e -> e.getType() == EventType.FINISHED)
                .map(e -> e.getRequiredPayload(TestExecutionResult.class))
                .filter(r -> r.getStatus() != TestExecutionResult.Status.SUCCESSFUL)
                .map(r -> r.getThrowable()
                        .map(Throwable::getMessage)
                        .orElse(r.getStatus().toString()))
                .toList();
        List<JsonNode> records = new ArrayList<>();
        for (String line : Files.readAllLines(results)) {
            records.add(JSON.readTree(line));
        }
        return new Run(failures, records, printed);
    }

    private static int hostCpus() {
        return Integer.parseInt(System.getProperty(CPUS));
    }

    /**
     * A validated write sweep across the two kernels; each point long enough for a figure reports the
     * target's host as the agent measured it on the VM's host (its CPU count, not this VM's).
     */
    @Test
    void aSweepAcrossKernelsPassesAndReportsTheTargetsHost() throws Exception {
        Run r = run(CrossKernelWrites.class, Map.of("linkproof.profile", validationOnlyProfile()));
        assertThat(r.failures()).isEmpty();
        assertThat(r.records()).hasSize(4);
        List<JsonNode> measured =
                r.records().stream().filter(n -> n.has("targetCpus")).toList();
        assertThat(measured).as("points long enough for the target's figure").isNotEmpty();
        for (JsonNode n : measured) {
            assertThat(n.get("targetCpus").asInt())
                    .as("the target's host is the VM's host")
                    .isEqualTo(hostCpus());
            assertThat(n.get("targetOtherCpus").asDouble()).isBetween(0.0, (double) hostCpus());
            assertThat(n.get("verdicts").toString()).contains("HOST ").contains("target: other processes used ");
        }
    }

    /**
     * A shortfall while the target's host is busy is rerun, and before the rerun the engine asks the
     * target's agent how busy its host is now ({@code LOAD}): the RERUN line's "(still busy: target: …)"
     * or "(now: target: …)" comes only from that answer. The host is made busy from in here: niced
     * busy loops (busybox has renice, not nice), children of this JVM and so "ours" to this VM's
     * accounting, which stays quiet to the rule, keep both vCPUs, and so QEMU, running on the host.
     */
    @Test
    void aShortfallWhileTheTargetsHostIsBusyIsRerunAfterAskingItsAgent() throws Exception {
        assumeTrue(
                hostCpus() <= 2,
                "the VM's 2 vCPUs fill only a host of at most 2 CPUs (this one has " + hostCpus()
                        + "): its agent would not see a busy host");
        List<Process> loops = new ArrayList<>();
        try {
            for (int i = 0; i < Runtime.getRuntime().availableProcessors(); i++) {
                loops.add(new ProcessBuilder("sh", "-c", "renice -n 19 -p $$ >/dev/null; while :; do :; done").start());
            }
            Run r = run(
                    CrossKernelBulk.class,
                    Map.of("linkproof.profile", "loopback", "linkproof.criteria.tcp-bulk.min-bandwidth", "1000 GB/s"));
            assertThat(r.records()).hasSize(1);
            JsonNode n = r.records().getFirst();
            assertThat(r.failures())
                    .singleElement()
                    .satisfies(m -> assertThat(m)
                            .contains("< criterion 1000.0 GB/s (tcp-bulk)")
                            .contains("[attempt 2; the first ran on a busy host: ")
                            .contains("target: other processes used "));
            assertThat(n.get("attempts").asInt()).isEqualTo(2);
            assertThat(n.get("targetCpus").asInt()).isEqualTo(hostCpus());
            assertThat(r.console())
                    .containsPattern(
                            "RERUN write 1 MiB .* \\((still busy|now): (initiator: .*; )?target: other processes used"
                                    + " [0-9.]+ of "
                                    + hostCpus() + " CPUs");
        } finally {
            for (Process p : loops) {
                p.destroyForcibly().waitFor(5, TimeUnit.SECONDS);
            }
        }
    }

    private static String validationOnlyProfile() throws URISyntaxException {
        return Path.of(TargetOnAnotherKernel.class
                        .getResource("/profiles/validation-only.yaml")
                        .toURI())
                .toString();
    }
}
