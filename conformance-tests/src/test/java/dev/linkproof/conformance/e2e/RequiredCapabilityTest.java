package dev.linkproof.conformance.e2e;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.platform.engine.discovery.DiscoverySelectors.selectClass;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.linkproof.conformance.e2e.fixtures.AtomicsWithoutAtomicCap;
import dev.linkproof.conformance.e2e.fixtures.AtomicsWithoutAtomicCapOnTheTarget;
import dev.linkproof.engine.config.Constants;
import dev.linkproof.transfer.FailureKind;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.platform.engine.TestExecutionResult;
import org.junit.platform.testkit.engine.EngineTestKit;
import org.junit.platform.testkit.engine.Event;
import org.junit.platform.testkit.engine.EventType;
import org.junit.platform.testkit.engine.Events;

/**
 * A device that does no RDMA atomics (atomic_cap IBV_ATOMIC_NONE; NoAtomicsDeviceTransport's fake
 * one, since every device here does them), through the whole engine: its atomic points are skipped
 * naming the device and its atomic_cap, or, under a profile that requires the transport, fail as
 * {@link FailureKind#REQUIRED_CAPABILITY_UNAVAILABLE} with the same reason after the profile's; the
 * points it can run pass either way; atomics on GPU memory, which linkproof does not cover on any
 * device, are skipped under the requirement too.
 */
@Tag("e2e")
class RequiredCapabilityTest {
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final String NO_ATOMICS = NoAtomicsDeviceTransport.DEVICE
            + " reports atomic_cap IBV_ATOMIC_NONE: it does no " + "RDMA atomics (fetch-and-add, compare-and-swap)";

    @TempDir
    Path dir;

    private Path results;

    /**
     * {@code fixture}'s points under a profile that gives the fake H100 host's GPUs and requires
     * {@code required} (none: "").
     */
    private Events run(String required, Class<?> fixture, String... config) throws Exception {
        Path profile = Files.writeString(dir.resolve("req.yaml"), """
            id: req
            vendor: test
            match: {fallback: true}
            resources: {gpus: auto}
            transport:
              required: [%s]
            """.formatted(required));
        results = dir.resolve((required.isEmpty() ? "plain" : "required") + "-" + fixture.getSimpleName() + ".jsonl");
        Path h100 = Path.of("..", "hardware-profiles", "src", "test", "resources", "sysfs", "h100-cx7-host")
                .toAbsolutePath();
        var kit = EngineTestKit.engine(Constants.ENGINE_ID)
                .configurationParameter(Constants.PROGRESS, "false")
                .configurationParameter(Constants.PROFILE, profile.toString())
                .configurationParameter(Constants.PROBE_ROOT, h100.normalize().toString())
                .configurationParameter(Constants.RESULTS, results.toString())
                .selectors(selectClass(fixture));
        for (int i = 0; i < config.length; i += 2) {
            kit = kit.configurationParameter(config[i], config[i + 1]);
        }
        return kit.execute().testEvents();
    }

    private Events run(boolean required) throws Exception {
        return run(required ? NoAtomicsDeviceTransport.ID : "", AtomicsWithoutAtomicCap.class);
    }

    /** {@code (profile chosen by …)}: what a failure adds for the profile file given on the command line. */
    private String chosen() {
        return " (profile chosen by linkproof.profile: file " + dir.resolve("req.yaml")
                + "; it was not matched against this host)";
    }

    /** Each point's outcome by display name: its status and message, or "skipped: reason". */
    private static Map<String, String> outcomes(Events events) {
        Map<String, String> out = new LinkedHashMap<>();
        events.stream()
                .filter(e -> e.getType() == EventType.FINISHED || e.getType() == EventType.SKIPPED)
                .forEach(e -> out.put(e.getTestDescriptor().getDisplayName(), outcome(e)));
        return out;
    }

    private static String outcome(Event e) {
        if (e.getType() == EventType.SKIPPED) {
            return "skipped: " + e.getPayload(String.class).orElse("");
        }
        TestExecutionResult r = e.getRequiredPayload(TestExecutionResult.class);
        return r.getStatus() + r.getThrowable().map(t -> ": " + t.getMessage()).orElse("");
    }

    /** The outcome of point {@code name}, which must be among them (a miss shows them all). */
    private static String at(Map<String, String> outcomes, String name) {
        assertThat(outcomes).containsKey(name);
        return outcomes.get(name);
    }

    private Map<String, JsonNode> records() throws Exception {
        Map<String, JsonNode> out = new LinkedHashMap<>();
        for (String line : Files.readAllLines(results)) {
            JsonNode r = JSON.readTree(line);
            out.put(r.get("name").asText(), r);
        }
        return out;
    }

    @Test
    void withoutTheRequirementAnAtomicPointIsSkippedNamingTheDeviceAndItsAtomicCap() throws Exception {
        Map<String, String> o = outcomes(run(false));
        assertThat(o).hasSize(4);
        for (String op : new String[] {"fetch-add", "compare-swap"}) {
            assertThat(at(o, op + " 8 B ×1 · 1 conn · no-atomics-device"))
                    .as(op)
                    .isEqualTo("skipped: no-atomics-device unavailable: " + NO_ATOMICS);
        }
        assertThat(at(o, "write 4 KiB ×1 · 1 conn · no-atomics-device")).isEqualTo("SUCCESSFUL");
        assertThat(at(o, "fetch-add 8 B ×1 · 1 conn · no-atomics-device · host→gpu (staged via host)"))
                .startsWith("skipped: no-atomics-device " + "unavailable: verbs atomics run on host memory here");
        assertThat(records().values())
                .filteredOn(r -> r.get("status").asText().equals("skipped"))
                .allSatisfy(r -> assertThat(r.get("failureKind").asText()).isEqualTo("UNAVAILABLE"))
                .hasSize(3);
    }

    @Test
    void underAProfileRequiringTheTransportItFailsAsARequiredCapabilityWithTheSameReason() throws Exception {
        Events events = run(true);
        Map<String, String> o = outcomes(events);
        assertThat(o).hasSize(4);
        for (String op : new String[] {"fetch-add", "compare-swap"}) {
            String name = op + " 8 B ×1 · 1 conn · no-atomics-device";
            assertThat(at(o, name))
                    .as(op)
                    .isEqualTo("FAILED: " + name + ": profile 'req' requires the no-atomics-device "
                            + "transport (transport.required), and on this host its device cannot run this point: "
                            + NO_ATOMICS
                            + chosen());
            assertThat(records().get(name).get("failureKind").asText()).isEqualTo("REQUIRED_CAPABILITY_UNAVAILABLE");
        }
        events.stream()
                .filter(e -> e.getType() == EventType.FINISHED)
                .map(e -> e.getRequiredPayload(TestExecutionResult.class))
                .filter(r -> r.getStatus() == TestExecutionResult.Status.FAILED)
                .forEach(r -> Kinds.assertKind(r, FailureKind.REQUIRED_CAPABILITY_UNAVAILABLE));
        assertThat(at(o, "write 4 KiB ×1 · 1 conn · no-atomics-device")).isEqualTo("SUCCESSFUL");
        // Not the device's shortfall but linkproof's: no profile can require it.
        assertThat(at(o, "fetch-add 8 B ×1 · 1 conn · no-atomics-device · host→gpu (staged via host)"))
                .startsWith("skipped: no-atomics-device " + "unavailable: verbs atomics run on host memory here");
    }

    /**
     * The device without atomics on the target alone (the agent started with NoAtomicsTargetTransport's
     * property): the target refuses the point's PREPARE with the device's code, and the point is skipped
     * with the target's reason, or fails as a required capability naming the target.
     */
    @Test
    void aTargetWhoseDeviceDoesNoAtomicsSkipsOrFailsTheSameWay() throws Exception {
        String onTheAgent = "-D" + NoAtomicsTargetTransport.HERE + "=true";
        String name = "fetch-add 8 B ×1 · 1 conn · no-atomics-target";
        String refused =
                "the target agent refused PREPARE: transport no-atomics-target unavailable here: " + NO_ATOMICS;
        Map<String, String> plain =
                outcomes(run("", AtomicsWithoutAtomicCapOnTheTarget.class, Constants.AGENT_JVM_ARGS, onTheAgent));
        assertThat(at(plain, name)).isEqualTo("ABORTED: " + refused);
        assertThat(records().get(name).get("failureKind").asText()).isEqualTo("UNAVAILABLE");

        Events events = run(
                NoAtomicsTargetTransport.ID,
                AtomicsWithoutAtomicCapOnTheTarget.class,
                Constants.AGENT_JVM_ARGS,
                onTheAgent);
        Map<String, String> o = outcomes(events);
        assertThat(at(o, name))
                .startsWith("FAILED: " + name + ": profile 'req' requires the no-atomics-target transport "
                        + "(transport.required), and on the target (")
                .endsWith(") its device cannot run this point: " + refused + chosen());
        assertThat(records().get(name).get("failureKind").asText()).isEqualTo("REQUIRED_CAPABILITY_UNAVAILABLE");
        events.stream()
                .filter(e -> e.getType() == EventType.FINISHED)
                .forEach(e -> Kinds.assertKind(
                        e.getRequiredPayload(TestExecutionResult.class), FailureKind.REQUIRED_CAPABILITY_UNAVAILABLE));
    }
}
