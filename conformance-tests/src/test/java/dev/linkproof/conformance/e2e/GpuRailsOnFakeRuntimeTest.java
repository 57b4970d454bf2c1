package dev.linkproof.conformance.e2e;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.platform.engine.discovery.DiscoverySelectors.selectMethod;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.linkproof.conformance.e2e.fixtures.GpuRails;
import dev.linkproof.transfer.testing.SavedProperties;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.junit.platform.engine.TestExecutionResult;
import org.junit.platform.testkit.engine.EngineTestKit;
import org.junit.platform.testkit.engine.Event;
import org.junit.platform.testkit.engine.Events;

/**
 * gpu-ipc points of several rails on the fake GPU runtime's two GPUs (as GpuSuiteOnFakeRuntimeTest
 * loads it, as CUDA): every rail a pair of GPUs, the point's pair shifted by the rail, each rail's
 * spec with its own GPUs (the results record's rails say where each ran: the fake does not report
 * which device a rank allocated on, the spec both ranks were sent does), validated one by one; a
 * rail whose data is corrupted fails the point naming the rail and its GPUs; more rails than GPUs skip
 * with the reason, and fail under a profile that requires gpu-ipc.
 */
@Tag("e2e")
@Timeout(600)
class GpuRailsOnFakeRuntimeTest {
    private static final String FIXTURE = GpuRails.class.getName() + "#";
    private final SavedProperties saved = new SavedProperties();

    @TempDir
    Path dir;

    @BeforeEach
    void fakeCuda() throws Exception {
        GpuSuiteOnFakeRuntimeTest.assertTwoFakeGpus();
        Path lib = GpuSuiteOnFakeRuntimeTest.build("cuda");
        // The initiator is this JVM; the local agent it starts is handed the same choice.
        set("linkproof.gpu.runtime", "cuda");
        set("linkproof.gpu.cuda.library", lib.toString());
    }

    @AfterEach
    void restore() {
        saved.restore();
    }

    @Test
    void eachRailRunsOnItsOwnPairOfGpus() throws Exception {
        Path results = dir.resolve("pairs.jsonl");
        Events events = run(results, null, "twoPairs", "bothWays");
        assertThat(events.failed().stream()
                        .map(GpuRailsOnFakeRuntimeTest::describe)
                        .toList())
                .isEmpty();
        assertThat(events.succeeded().count()).isEqualTo(2);

        JsonNode two = record(results, "twoPairs");
        assertThat(two.path("name").asText()).endsWith("· gpu-ipc · gpu→gpu:1 · 2 rails");
        assertThat(rails(two, "label")).containsExactly("GPU 0→GPU 1", "GPU 1→GPU 0");
        assertThat(rails(two, "memory")).containsExactly("gpu->gpu:1", "gpu:1->gpu");
        assertThat(rails(two, "validation")).allSatisfy(v -> assertThat(v).startsWith("data valid: "));
        assertThat(two.path("rails"))
                .allSatisfy(r -> assertThat(r.path("bytes").asLong()).isEqualTo(20L * 2 * 1024 * 1024));
        assertThat(two.path("memory").asText()).as("the point's own: rail 0's").isEqualTo("gpu->gpu:1");

        JsonNode both = record(results, "bothWays");
        assertThat(both.path("name").asText()).endsWith("· gpu→gpu:1 · both ways");
        assertThat(rails(both, "label")).containsExactly("GPU 0→GPU 1", "GPU 1→GPU 0 back");
        assertThat(rails(both, "memory"))
                .as("on one host the way back is the reversed pair")
                .containsExactly("gpu->gpu:1", "gpu:1->gpu");
        assertThat(rails(both, "validation")).allSatisfy(v -> assertThat(v).startsWith("data valid: "));
    }

    /**
     * A profile that orders the GPUs otherwise ({@code resources.gpus: [1, 0]}) places every rail on
     * the runtime ordinals of its own shifted pair, not rail 0's: rail 0 runs GPU 1 to GPU 0.
     */
    @Test
    void eachRailsGpusAreTheProfilesPlacedPerRail() throws Exception {
        Path swapped = Files.writeString(dir.resolve("swapped.yaml"), "resources:\n  gpus: [1, 0]\n");
        Path results = dir.resolve("swapped.jsonl");
        Events events = run(results, swapped, "twoPairs");
        assertThat(events.failed().stream()
                        .map(GpuRailsOnFakeRuntimeTest::describe)
                        .toList())
                .isEmpty();
        JsonNode two = record(results, "twoPairs");
        assertThat(rails(two, "label")).containsExactly("GPU 1→GPU 0", "GPU 0→GPU 1");
        assertThat(rails(two, "memory")).containsExactly("gpu:1->gpu", "gpu->gpu:1");
    }

    /** One byte flipped on the rail whose initiator is GPU 1: the point fails naming that rail and its GPUs; rail 0 valid. */
    @Test
    void aCorruptRailFailsThePointNamingTheRailAndItsGpus() throws Exception {
        Path results = dir.resolve("flip.jsonl");
        Events events = run(results, null, "flipOnGpu1");
        assertThat(events.succeeded().count()).isZero();
        assertThat(events.failed().stream()
                        .map(GpuRailsOnFakeRuntimeTest::describe)
                        .toList())
                .singleElement()
                .satisfies(m -> assertThat(m)
                        .contains("rail 1 (GPU 1→GPU 1): data corruption")
                        .contains("slot 1, byte offset 77")
                        .doesNotContain("rail 0 (GPU 0→GPU 0): data corruption"));
        JsonNode flip = record(results, "flipOnGpu1");
        assertThat(flip.path("failureKind").asText()).isEqualTo("DATA_CORRUPTION");
        assertThat(rails(flip, "memory")).containsExactly("gpu->gpu", "gpu:1->gpu:1");
        assertThat(rails(flip, "validation").get(0)).startsWith("data valid: ");
        assertThat(rails(flip, "validation").get(1)).startsWith("data corruption: ");

        // With the GPUs in the other order, GPU 1 is rail 0's: the fault follows the GPU, and so does the name.
        Path swapped = Files.writeString(dir.resolve("swapped.yaml"), "resources:\n  gpus: [1, 0]\n");
        events = run(dir.resolve("flip-swapped.jsonl"), swapped, "flipOnGpu1");
        assertThat(events.failed().stream()
                        .map(GpuRailsOnFakeRuntimeTest::describe)
                        .toList())
                .singleElement()
                .satisfies(m -> assertThat(m).contains("rail 0 (GPU 1→GPU 1): data corruption"));
    }

    @Test
    void moreRailsThanGpusSkipsAndFailsUnderAProfileThatRequiresGpuIpc() throws Exception {
        Events skipped = run(dir.resolve("three.jsonl"), null, "threeRails");
        assertThat(skipped.skipped().stream()
                        .map(e -> e.getRequiredPayload(String.class))
                        .toList())
                .containsExactly("3 rails asked, and only 2 available (GPU 0→GPU 0, GPU 1→GPU 1)");

        Path required = Files.writeString(dir.resolve("required.yaml"), "transport:\n  required: [gpu-ipc]\n");
        Events failed = run(dir.resolve("three-required.jsonl"), required, "threeRails");
        assertThat(failed.failed().stream()
                        .map(GpuRailsOnFakeRuntimeTest::describe)
                        .toList())
                .singleElement()
                .satisfies(m -> assertThat(m).contains("3 rails asked, and only 2 available"));
    }

    private static Events run(Path results, Path overlay, String... methods) {
        var kit = EngineTestKit.engine("linkproof")
                .configurationParameter("linkproof.profile", E2e.VALIDATION_ONLY)
                .configurationParameter("linkproof.results", results.toString());
        if (overlay != null) {
            kit = kit.configurationParameter("linkproof.profile.overlay", overlay.toString());
        }
        for (String m : methods) {
            kit = kit.selectors(selectMethod(FIXTURE + m));
        }
        return kit.execute().testEvents();
    }

    private static JsonNode record(Path results, String method) throws IOException {
        var json = new ObjectMapper();
        for (String line : Files.readAllLines(results)) {
            JsonNode n = json.readTree(line);
            if (n.path("method").asText().equals(method)) {
                return n;
            }
        }
        throw new AssertionError("no record of " + method + " in " + results);
    }

    private static List<String> rails(JsonNode record, String field) {
        List<String> out = new ArrayList<>();
        record.path("rails").forEach(r -> out.add(r.path(field).asText()));
        return out;
    }

    private void set(String key, String value) {
        saved.set(key, value);
    }

    private static String describe(Event e) {
        TestExecutionResult r = e.getRequiredPayload(TestExecutionResult.class);
        return e.getTestDescriptor().getDisplayName() + ": "
                + r.getThrowable().map(Throwable::getMessage).orElse("?");
    }
}
