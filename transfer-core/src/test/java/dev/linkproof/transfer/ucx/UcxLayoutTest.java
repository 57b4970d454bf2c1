package dev.linkproof.transfer.ucx;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The Java layouts and constants of the UCX binding against the real headers: src/test/c/ucx_layout.c
 * is compiled with gcc against libucx-dev and prints sizeof/offsetof/values; every line must match
 * {@link Ucx#layoutFacts()}, and neither side may have a key the other lacks.
 */
class UcxLayoutTest {
    private static final Path SOURCE = Path.of("src/test/c/ucx_layout.c");
    private static final Path HEADER = Path.of("/usr/include/ucp/api/ucp.h");

    @TempDir
    Path dir;

    @Test
    void javaLayoutsMatchTheHeaders() throws Exception {
        assumeTrue(Files.isRegularFile(HEADER), "UCX headers absent: " + HEADER + " (apt-get install libucx-dev)");
        Path exe = dir.resolve("ucx_layout");
        Run cc;
        try {
            cc = run(List.of(
                    "gcc",
                    "-Wall",
                    "-Werror",
                    "-o",
                    exe.toString(),
                    SOURCE.toAbsolutePath().toString()));
        } catch (IOException e) {
            assumeTrue(false, "gcc absent: " + e.getMessage());
            return;
        }
        assertThat(cc.exit).as("gcc output:%n%s", cc.output).isZero();
        Run out = run(List.of(exe.toString()));
        assertThat(out.exit).as(out.output).isZero();
        Map<String, Long> c = parse(out.output);
        assertThat(differences(Ucx.layoutFacts(), c)).isEmpty();
    }

    @Test
    void aChangedOffsetIsReported() {
        Map<String, Long> java = Ucx.layoutFacts();
        Map<String, Long> c = new LinkedHashMap<>(java);
        c.put("offsetof ucp_ep_params_t.err_mode", 20L);
        c.remove("const UCP_FEATURE_RMA");
        assertThat(differences(java, c))
                .containsExactly(
                        "offsetof ucp_ep_params_t.err_mode: Java 16, C 20",
                        "const UCP_FEATURE_RMA: Java 2, C (missing)");
    }

    static List<String> differences(Map<String, Long> java, Map<String, Long> c) {
        List<String> diff = new ArrayList<>();
        java.forEach((k, v) -> {
            if (!v.equals(c.get(k))) {
                diff.add(k + ": Java " + v + ", C " + (c.containsKey(k) ? c.get(k) : "(missing)"));
            }
        });
        c.forEach((k, v) -> {
            if (!java.containsKey(k)) {
                diff.add(k + ": Java (missing), C " + v);
            }
        });
        return diff;
    }

    private static Map<String, Long> parse(String text) {
        Map<String, Long> m = new LinkedHashMap<>();
        for (String line : text.split("\n")) {
            if (line.isBlank()) {
                continue;
            }
            int sp = line.lastIndexOf(' ');
            m.put(line.substring(0, sp), Long.parseLong(line.substring(sp + 1).trim()));
        }
        return m;
    }

    private record Run(int exit, String output) {}

    private static Run run(List<String> command) throws IOException, InterruptedException {
        Process p = new ProcessBuilder(command).redirectErrorStream(true).start();
        String output = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        if (!p.waitFor(60, TimeUnit.SECONDS)) {
            p.destroyForcibly();
            throw new IOException("timed out: " + command);
        }
        return new Run(p.exitValue(), output);
    }
}
