package dev.linkproof.transfer.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.linkproof.transfer.gpu.FakeGpu;
import dev.linkproof.transfer.gpu.select.GpuRuntimes;
import dev.linkproof.transfer.session.LocalAgent;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import picocli.CommandLine;

/**
 * {@code --transport gpu-ipc --rails I->J,…} end to end on the fake GPU runtime ({@link FakeGpu}, as
 * CUDA) with two GPUs on both ranks: this JVM the initiator, the target agent a child JVM (an IPC
 * handle cannot be opened by the process that exported it). Each rail runs on its own GPU pair (its
 * spec's memory, which both ranks are sent: the fake does not report which device a rank allocated
 * on), all at once, each validated; both ways, each pair also runs reversed, driven from here.
 */
@Timeout(180)
class TransferCliGpuRailsTest {
    private static final String DEVICES = "FAKE_GPU_DEVICES";
    private static final int SIZE = 64 * 1024;
    private static final int BATCH = 2;
    private static final int ITERS = 20;
    private static final Map<String, String> SAVED = new HashMap<>();
    private static LocalAgent agent;

    private record Run(int rc, String out, String err) {}

    @BeforeAll
    static void start() throws Exception {
        // The fake reads its GPU count at every call: two here, and in the agent through its environment.
        FakeGpu.setenv(DEVICES, "2");
        Path lib = FakeGpu.cuda();
        for (var e : Map.of(GpuRuntimes.RUNTIME, "cuda", GpuRuntimes.CUDA_LIBRARY, lib.toString())
                .entrySet()) {
            SAVED.put(e.getKey(), System.getProperty(e.getKey()));
            System.setProperty(e.getKey(), e.getValue());
        }
        // LocalAgent hands the agent this JVM's GPU properties, so it loads the same fake.
        agent = LocalAgent.start(
                List.of("-Xmx128m"),
                Map.of(DEVICES, "2"),
                Path.of("target/cli-gpu-rails-agent.log"),
                Duration.ofSeconds(30));
    }

    @AfterAll
    static void stop() {
        if (agent != null) {
            agent.close();
        }
        SAVED.forEach((k, v) -> {
            if (v == null) {
                System.clearProperty(k);
            } else {
                System.setProperty(k, v);
            }
        });
        FakeGpu.setenv(DEVICES, System.getenv(DEVICES));
    }

    private static Run run(String... extra) {
        List<String> args = new ArrayList<>(List.of(
                "--peer",
                agent.host() + ":" + agent.port(),
                "--token",
                agent.token(),
                "--transport",
                "gpu-ipc",
                "--size",
                Integer.toString(SIZE),
                "--batch",
                Integer.toString(BATCH),
                "--iters",
                Integer.toString(ITERS),
                "--warmup",
                "2",
                "--depth",
                "2",
                "--format",
                "json"));
        args.addAll(List.of(extra));
        CommandLine cl = TransferCli.commandLine();
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        cl.setOut(new PrintWriter(out, true));
        cl.setErr(new PrintWriter(err, true));
        int rc = cl.execute(args.toArray(String[]::new));
        return new Run(rc, out.toString(), err.toString());
    }

    private static JsonNode point(Run r) throws Exception {
        assertThat(r.rc()).as(r.err() + r.out()).isZero();
        List<String> lines = r.out().lines().toList();
        assertThat(lines).as(r.err()).hasSize(1);
        return new ObjectMapper().readTree(lines.getFirst());
    }

    private static List<String> each(JsonNode point, String field) {
        List<String> out = new ArrayList<>();
        point.path("rails").forEach(n -> out.add(n.path(field).asText()));
        return out;
    }

    @Test
    void eachRailCopiesBetweenItsOwnPairOfGpus() throws Exception {
        JsonNode point = point(run("--rails", "0->1,1->0"));
        assertThat(point.path("rail_count").asInt()).isEqualTo(2);
        assertThat(point.path("valid").asBoolean()).isTrue();
        assertThat(each(point, "label")).containsExactly("GPU 0→GPU 1", "GPU 1→GPU 0");
        assertThat(each(point, "memory")).containsExactly("gpu->gpu:1", "gpu:1->gpu");
        assertThat(each(point, "validation")).allSatisfy(v -> assertThat(v).startsWith("data valid: "));
        assertThat(point.path("rails"))
                .allSatisfy(n -> assertThat(n.path("bytes").asLong()).isEqualTo((long) SIZE * BATCH * ITERS));
        assertThat(point.path("rails"))
                .allSatisfy(n -> assertThat(n.has("device")).isFalse());
    }

    @Test
    void bothWaysRunsEveryPairReversedToo() throws Exception {
        JsonNode point = point(run("--rails", "0->1", "--both-ways"));
        assertThat(each(point, "label")).containsExactly("GPU 0→GPU 1", "GPU 1→GPU 0 back");
        assertThat(each(point, "memory"))
                .as("on one host the way back is the reversed pair")
                .containsExactly("gpu->gpu:1", "gpu:1->gpu");
        assertThat(each(point, "validation")).allSatisfy(v -> assertThat(v).startsWith("data valid: "));

        // Without --rails: the point's own pair and it reversed.
        JsonNode pair = point(run("--initiator-mem", "gpu:1", "--target-mem", "gpu", "--both-ways"));
        assertThat(each(pair, "label")).containsExactly("GPU 1→GPU 0", "GPU 0→GPU 1 back");
        assertThat(each(pair, "memory")).containsExactly("gpu:1->gpu", "gpu->gpu:1");
        assertThat(each(pair, "validation")).allSatisfy(v -> assertThat(v).startsWith("data valid: "));
    }

    /** A rail on a GPU neither rank has: the point is skipped naming that rail. */
    @Test
    void aRailOnAGpuThatIsNotThereIsNamed() throws Exception {
        Run r = run("--rails", "0->1,0->2");
        JsonNode point =
                new ObjectMapper().readTree(r.out().lines().findFirst().orElseThrow(() -> new AssertionError(r.err())));
        assertThat(point.path("valid").asBoolean()).isFalse();
        assertThat(point.path("skipped").asText()).startsWith("rail 1 (GPU 0→GPU 2): ");
    }
}
