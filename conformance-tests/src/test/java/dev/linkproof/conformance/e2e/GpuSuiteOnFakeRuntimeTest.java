package dev.linkproof.conformance.e2e;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.platform.engine.discovery.DiscoverySelectors.selectClass;
import static org.junit.platform.engine.discovery.DiscoverySelectors.selectMethod;

import dev.linkproof.transfer.testing.SavedProperties;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.junit.platform.engine.TestExecutionResult;
import org.junit.platform.testkit.engine.EngineTestKit;
import org.junit.platform.testkit.engine.Event;
import org.junit.platform.testkit.engine.Events;

/**
 * The GPU part of the conformance suite, unchanged, on a machine without a GPU: both ranks load a strict fake of the
 * vendor runtime (transfer-core's src/test/c/fake_gpu.c) instead of libcuda or libamdhip64, once as CUDA and once as
 * HIP. Every gpu-ipc and tcp-staged point must run and validate on both — the suite does not know which vendor it runs
 * on — and the points whose transport cannot move GPU memory here are skipped with their reason (libfabric's: shm
 * refuses fi_mr_regattr of the runtime's memory, Debian's libfabric having no CUDA or ROCm support). This proves the
 * engine, agent and transports end to end; the speed of real GPUs is scripts/gpu-check.sh's job.
 */
@Tag("e2e")
@Timeout(600)
class GpuSuiteOnFakeRuntimeTest {
    private static final Path SOURCE = Path.of("..", "transfer-core", "src", "test", "c", "fake_gpu.c")
            .toAbsolutePath()
            .normalize();
    private static final String GPU = "dev.linkproof.conformance.gpu.";
    private final SavedProperties saved = new SavedProperties();

    @AfterEach
    void restore() {
        saved.restore();
    }

    @ParameterizedTest
    @ValueSource(strings = {"cuda", "hip"})
    void gpuClassesRunAndValidateOnEitherRuntime(String api) throws Exception {
        assertTwoFakeGpus();
        Path lib = build(api);
        String libKey = "linkproof.gpu." + api + ".library";
        // The initiator is this JVM; the local agent it starts is handed the same choice.
        set("linkproof.gpu.runtime", api);
        set(libKey, lib.toString());
        Events events = EngineTestKit.engine("linkproof")
                .configurationParameter("linkproof.profile", E2e.VALIDATION_ONLY)
                .configurationParameter("linkproof.results", "target/gpu-fake-" + api + ".jsonl")
                .selectors(
                        selectClass(GPU + "GpuIpcCorrectness"),
                        selectClass(GPU + "GpuMemoryCorrectness"),
                        selectClass(GPU + "GpuIpcBandwidth"))
                .execute()
                .testEvents();

        List<String> failed = events.failed().stream()
                .map(GpuSuiteOnFakeRuntimeTest::describe)
                .toList();
        assertThat(failed)
                .as("failed GPU points on the fake " + api + " runtime")
                .isEmpty();
        List<String> passed = events.succeeded().stream()
                .map(e -> e.getTestDescriptor().getDisplayName())
                .toList();
        assertThat(passed).filteredOn(n -> n.contains("· gpu-ipc")).hasSizeGreaterThanOrEqualTo(30);
        assertThat(passed)
                .filteredOn(n -> n.contains("· tcp"))
                .hasSize(18)
                .allSatisfy(n -> assertThat(n).contains("(staged via host)"));
        assertThat(passed).anySatisfy(n -> assertThat(n).startsWith("write 256 MiB ×1 · 1 stream · gpu-ipc"));
        assertThat(passed)
                .as("GPU 0 to GPU 1 (the fake has two)")
                .filteredOn(n -> n.endsWith("· gpu-ipc · gpu→gpu:1"))
                .hasSize(6);
        Map<String, String> skipped = new HashMap<>();
        events.skipped().stream()
                .forEach(e -> skipped.put(e.getTestDescriptor().getDisplayName(), e.getRequiredPayload(String.class)));
        assertThat(skipped.keySet()).allSatisfy(n -> assertThat(n).containsAnyOf("· ucx", "· verbs", "· libfabric"));
        assertThat(skipped.values()).allSatisfy(reason -> assertThat(reason).isNotBlank());
        // shm offers FI_HMEM, and Debian's libfabric (no CUDA, no ROCm) refuses to register the runtime's memory.
        String iface = api.equals("cuda") ? "FI_HMEM_CUDA" : "FI_HMEM_ROCR";
        assertThat(skipped.entrySet())
                .as("every libfabric point of GpuMemoryCorrectness, skipped")
                .filteredOn(e -> e.getKey().contains("· libfabric"))
                .hasSize(18)
                .allSatisfy(e -> assertThat(e.getValue())
                        .contains("provider shm offers FI_HMEM, yet fi_mr_regattr of 4096 bytes of " + iface
                                + " memory on device 0 failed: Function not implemented (38)"));
    }

    /**
     * {@code linkproof.gpus=each} on the fake's two GPUs: the peer-to-peer method runs on both
     * neighbouring pairs, 0→1 and 1→0, and every point validates.
     */
    @Test
    void eachGpuRunsThePeerPointsOnEveryPair() throws Exception {
        assertTwoFakeGpus();
        Path lib = build("cuda");
        set("linkproof.gpu.runtime", "cuda");
        set("linkproof.gpu.cuda.library", lib.toString());
        Events events = EngineTestKit.engine("linkproof")
                .configurationParameter("linkproof.profile", E2e.VALIDATION_ONLY)
                .configurationParameter("linkproof.gpus", "each")
                .configurationParameter("linkproof.results", "target/gpu-fake-each.jsonl")
                .selectors(
                        selectMethod(GPU + "GpuIpcCorrectness#peerToPeer(dev.linkproof.transfer.measure.Measurement)"))
                .execute()
                .testEvents();
        assertThat(events.failed().stream()
                        .map(GpuSuiteOnFakeRuntimeTest::describe)
                        .toList())
                .isEmpty();
        List<String> passed = events.succeeded().stream()
                .map(e -> e.getTestDescriptor().getDisplayName())
                .toList();
        assertThat(passed).hasSize(12);
        assertThat(passed).filteredOn(n -> n.endsWith("· gpu→gpu:1")).hasSize(6);
        assertThat(passed).filteredOn(n -> n.endsWith("· gpu:1→gpu")).hasSize(6);
    }

    /**
     * A profile that provides GPU 1 alone ({@code resources.gpus: [1]}) puts the point's {@code gpu}
     * on runtime ordinal 1 in the spec both ranks are sent (the results record says where it ran; the
     * name stays the point's; the fake does not report which device each rank allocated on), and
     * {@code gpu:1} is then beyond what it provides: skipped. With {@code [1, 0]} the peer points run
     * from GPU 1 to GPU 0.
     */
    @Test
    void aPointsGpuIsTheOneTheProfileProvides(@org.junit.jupiter.api.io.TempDir Path dir) throws Exception {
        assertTwoFakeGpus();
        Path lib = build("cuda");
        set("linkproof.gpu.runtime", "cuda");
        set("linkproof.gpu.cuda.library", lib.toString());
        Path second = Files.writeString(dir.resolve("second.yaml"), "resources:\n  gpus: [1]\n");
        Path results = dir.resolve("second.jsonl");
        Events events = runWithOverlay(second, results);
        assertThat(events.failed().stream()
                        .map(GpuSuiteOnFakeRuntimeTest::describe)
                        .toList())
                .isEmpty();
        assertThat(events.succeeded().count()).isEqualTo(2);
        assertThat(events.skipped().stream()
                        .map(e -> e.getRequiredPayload(String.class))
                        .toList())
                .hasSize(6)
                .allSatisfy(
                        r -> assertThat(r).isEqualTo("needs gpu:1, and profile 'validation-only' provides 1 GPU(s)"));
        assertThat(memories(results))
                .filteredOn("gpu:1->gpu:1"::equals)
                .as("the latency points, on GPU 1")
                .hasSize(2);
        assertThat(memories(results))
                .filteredOn("gpu->gpu:1"::equals)
                .as("the peer points, skipped as named")
                .hasSize(6);

        Path swapped = Files.writeString(dir.resolve("swapped.yaml"), "resources:\n  gpus: [1, 0]\n");
        results = dir.resolve("swapped.jsonl");
        events = runWithOverlay(swapped, results);
        assertThat(events.failed().stream()
                        .map(GpuSuiteOnFakeRuntimeTest::describe)
                        .toList())
                .isEmpty();
        assertThat(events.succeeded().count()).isEqualTo(8);
        assertThat(memories(results)).filteredOn("gpu:1->gpu:1"::equals).hasSize(2);
        assertThat(memories(results))
                .filteredOn("gpu:1->gpu"::equals)
                .as("the peer points, GPU 1 to GPU 0")
                .hasSize(6);
    }

    /**
     * Under a profile that requires libfabric, shm's refusal of the runtime's memory is the provider falling
     * short: every libfabric GPU point fails as REQUIRED_CAPABILITY_UNAVAILABLE, with the same words.
     */
    @Test
    void aProfileRequiringLibfabricFailsTheRefusedRegistration(@org.junit.jupiter.api.io.TempDir Path dir)
            throws Exception {
        Path lib = build("cuda");
        set("linkproof.gpu.runtime", "cuda");
        set("linkproof.gpu.cuda.library", lib.toString());
        Path required = Files.writeString(dir.resolve("required.yaml"), "transport:\n  required: [libfabric]\n");
        Path results = dir.resolve("required.jsonl");
        Events events = EngineTestKit.engine("linkproof")
                .configurationParameter("linkproof.profile", E2e.VALIDATION_ONLY)
                .configurationParameter("linkproof.profile.overlay", required.toString())
                .configurationParameter("linkproof.results", results.toString())
                .selectors(selectMethod(
                        GPU + "GpuMemoryCorrectness#libfabricShm(dev.linkproof.transfer.measure.Measurement)"))
                .execute()
                .testEvents();
        assertThat(events.failed().stream()
                        .map(GpuSuiteOnFakeRuntimeTest::describe)
                        .toList())
                .hasSize(18)
                .allSatisfy(f -> assertThat(f)
                        .contains("profile 'validation-only' requires the libfabric transport (transport.required)")
                        .contains("provider shm offers FI_HMEM, yet fi_mr_regattr of 4096 bytes of FI_HMEM_CUDA"
                                + " memory on device 0 failed: Function not implemented (38)"));
        var json = new com.fasterxml.jackson.databind.ObjectMapper();
        for (String line : Files.readAllLines(results)) {
            assertThat(json.readTree(line).get("failureKind").asText()).isEqualTo("REQUIRED_CAPABILITY_UNAVAILABLE");
        }
    }

    /** The two gpu-ipc latency points (gpu->gpu) and the six peer points (gpu->gpu:1), with {@code overlay}. */
    private static Events runWithOverlay(Path overlay, Path results) {
        return EngineTestKit.engine("linkproof")
                .configurationParameter("linkproof.profile", E2e.VALIDATION_ONLY)
                .configurationParameter("linkproof.profile.overlay", overlay.toString())
                .configurationParameter("linkproof.results", results.toString())
                .selectors(
                        selectMethod(GPU + "GpuIpcCorrectness#latency(dev.linkproof.transfer.measure.Measurement)"),
                        selectMethod(GPU + "GpuIpcCorrectness#peerToPeer(dev.linkproof.transfer.measure.Measurement)"))
                .execute()
                .testEvents();
    }

    private static List<String> memories(Path results) throws IOException {
        var json = new com.fasterxml.jackson.databind.ObjectMapper();
        List<String> out = new java.util.ArrayList<>();
        for (String line : Files.readAllLines(results)) {
            out.add(json.readTree(line).get("memory").asText());
        }
        return out;
    }

    /** The peer points need two; the fake reads the count from its environment, which this JVM cannot set. */
    static void assertTwoFakeGpus() {
        assertThat(System.getenv("FAKE_GPU_DEVICES"))
                .as("conformance-tests' pom gives the fake runtime two GPUs (FAKE_GPU_DEVICES); "
                        + "run this through Maven, or set it")
                .isEqualTo("2");
    }

    private void set(String key, String value) {
        saved.set(key, value);
    }

    private static String describe(Event e) {
        TestExecutionResult r = e.getRequiredPayload(TestExecutionResult.class);
        return e.getTestDescriptor().getDisplayName() + ": "
                + r.getThrowable().map(Throwable::getMessage).orElse("?");
    }

    /** Compiles the fake runtime under the library name the binding of {@code api} loads. */
    static Path build(String api) throws IOException, InterruptedException {
        assertThat(SOURCE).exists();
        Path dir = Files.createDirectories(Path.of("target", "fake-gpu", api).toAbsolutePath());
        Path lib = dir.resolve(api.equals("cuda") ? "libcuda.so.1" : "libamdhip64.so");
        Process p = new ProcessBuilder(
                        "gcc",
                        "-shared",
                        "-fPIC",
                        "-O2",
                        "-Wall",
                        "-Werror",
                        "-o",
                        lib.toString(),
                        SOURCE.toString(),
                        "-lpthread")
                .redirectErrorStream(true)
                .start();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertThat(p.waitFor(60, TimeUnit.SECONDS)).isTrue();
        assertThat(p.exitValue()).as("gcc: %s", out).isZero();
        return lib;
    }
}
