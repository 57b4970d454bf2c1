package dev.linkproof.engine;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeFalse;
import static org.junit.jupiter.api.Assumptions.assumeTrue;
import static org.junit.platform.engine.discovery.DiscoverySelectors.selectClass;

import dev.linkproof.engine.config.Constants;
import dev.linkproof.engine.fixtures.RequiredTransportFixture;
import dev.linkproof.transfer.spi.Transports;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.stream.Collectors;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.platform.engine.TestExecutionResult;
import org.junit.platform.testkit.engine.EngineTestKit;
import org.junit.platform.testkit.engine.Event;
import org.junit.platform.testkit.engine.EventType;
import org.junit.platform.testkit.engine.Events;

/**
 * A profile's {@code transport.required}: a point of a required transport that this host lacks
 * altogether (no library, no device) fails, naming the profile, the transport and why it is missing;
 * without the requirement it is skipped with the reason; memory the profile does not provide (GPUs
 * under {@code gpus: none}) skips either way.
 * Runs where verbs has no RDMA device, as on the CI machines (skipped with the reason elsewhere).
 */
class RequiredTransportTest {
    @TempDir
    Path dir;

    @BeforeEach
    void noRdmaDeviceHere() {
        assumeFalse(
                Transports.discover().find("verbs").orElseThrow().availability().available(),
                "verbs is available on this host: the test needs it missing");
    }

    private Events run(String required, String... config) throws Exception {
        return runWithGpus("none", required, config);
    }

    private Events runWithGpus(String gpus, String required, String... config) throws Exception {
        Path profile = Files.writeString(dir.resolve("req.yaml"), """
            id: req
            vendor: Lab
            match: {fallback: true}
            resources: {gpus: %s}
            transport:
              required: %s
            """.formatted(gpus, required));
        var kit = EngineTestKit.engine(Constants.ENGINE_ID)
                .configurationParameter(Constants.PROGRESS, "false")
                .configurationParameter(
                        Constants.RESULTS, dir.resolve("r.jsonl").toString())
                .configurationParameter(Constants.PROFILE, profile.toString())
                .selectors(selectClass(RequiredTransportFixture.class));
        for (int i = 0; i < config.length; i += 2) {
            kit = kit.configurationParameter(config[i], config[i + 1]);
        }
        return kit.execute().testEvents();
    }

    /** Each method's outcome: its status, or "skipped: reason". */
    private static Map<String, String> outcomes(Events events) {
        return events.stream()
                .filter(e -> e.getType() == EventType.FINISHED || e.getType() == EventType.SKIPPED)
                .collect(Collectors.toMap(
                        e -> e.getTestDescriptor().getParent().orElseThrow().getDisplayName(),
                        RequiredTransportTest::outcome));
    }

    private static String outcome(Event e) {
        if (e.getType() == EventType.SKIPPED) {
            return "skipped: " + e.getPayload(String.class).orElse("");
        }
        TestExecutionResult r = e.getRequiredPayload(TestExecutionResult.class);
        return r.getStatus() + r.getThrowable().map(t -> ": " + t.getMessage()).orElse("");
    }

    @Test
    void aRequiredTransportThatIsMissingFailsItsPointsNamingProfileTransportAndWhy() throws Exception {
        Map<String, String> o = outcomes(run("[verbs, gpu-ipc]"));
        assertThat(o.get("overTcp")).isEqualTo("SUCCESSFUL");
        assertThat(o.get("overVerbs"))
                .startsWith("FAILED: write 4 KiB ×1 · 1 QP · verbs: profile 'req' requires the verbs "
                        + "transport (transport.required), and it is unavailable on this host: ");
        assertThat(o.get("overVerbs"))
                .as("a profile named on the command line says it was not matched")
                .contains("(profile chosen by linkproof.profile: file ");
        assertThat(o.get("overGpuIpc"))
                .as("the profile gives no GPU: skipped, required or not")
                .startsWith("skipped: needs GPU memory (gpu), and profile 'req' provides no GPU on this host");
    }

    /**
     * The target's side, as its agent's WELCOME lists its transports: here ucx loads in this JVM, and
     * the local agent is pointed at a UCX library that does not exist.
     */
    @Test
    void aRequiredTransportTheTargetLacksFailsNamingTheTarget() throws Exception {
        assumeTrue(
                Transports.discover().find("ucx").orElseThrow().availability().available(), "no UCX on this host");
        String noUcxOnTheAgent = "-Dlinkproof.ucx.library=" + dir.resolve("no-such-libucp.so");
        Map<String, String> o = outcomes(run("[ucx]", Constants.AGENT_JVM_ARGS, noUcxOnTheAgent));
        assertThat(o.get("overUcx"))
                .startsWith("FAILED: write 4 KiB ×1 · 1 ep · ucx: profile 'req' requires the ucx "
                        + "transport (transport.required), and it is unavailable on the target (")
                .contains("no-such-libucp.so");
        assertThat(o.get("overTcp")).isEqualTo("SUCCESSFUL");
        assertThat(outcomes(run("[]", Constants.AGENT_JVM_ARGS, noUcxOnTheAgent))
                        .get("overUcx"))
                .startsWith("ABORTED: ucx unavailable on the target: ");
    }

    /**
     * On a host the probe sees GPUs on (the H100 fake sysfs tree) but no GPU runtime loads: a required
     * gpu-ipc fails; with {@code linkproof.gpu.runtime=none} the run turned GPUs off, and it skips.
     */
    @Test
    void aRequiredGpuIpcFailsWhereTheProbeSeesGpusButNoDriverLoadsUnlessGpusAreTurnedOff() throws Exception {
        assumeFalse(
                Transports.discover()
                        .find("gpu-ipc")
                        .orElseThrow()
                        .availability()
                        .available(),
                "a GPU runtime loads here");
        String[] probe = {"linkproof.probe.root", FakeHosts.path("h100-cx7-host")};
        assertThat(outcomes(runWithGpus("auto", "[gpu-ipc]", probe)).get("overGpuIpc"))
                .startsWith("FAILED: ")
                .contains("requires the gpu-ipc transport (transport.required), and it is unavailable on this host: GPU"
                        + " unavailable");
        String before = System.getProperty(dev.linkproof.transfer.gpu.select.GpuRuntimes.RUNTIME);
        System.setProperty(dev.linkproof.transfer.gpu.select.GpuRuntimes.RUNTIME, "none");
        try {
            assertThat(outcomes(runWithGpus("auto", "[gpu-ipc]", probe)).get("overGpuIpc"))
                    .startsWith("skipped: gpu-ipc unavailable: ");
        } finally {
            if (before == null) {
                System.clearProperty(dev.linkproof.transfer.gpu.select.GpuRuntimes.RUNTIME);
            } else {
                System.setProperty(dev.linkproof.transfer.gpu.select.GpuRuntimes.RUNTIME, before);
            }
        }
    }

    @Test
    void withoutTheRequirementTheSamePointIsSkippedWithTheReason() throws Exception {
        Map<String, String> o = outcomes(run("[]"));
        assertThat(o.get("overTcp")).isEqualTo("SUCCESSFUL");
        assertThat(o.get("overVerbs")).startsWith("skipped: verbs unavailable: ");
        assertThat(o.get("overGpuIpc")).startsWith("skipped: ");
    }
}
