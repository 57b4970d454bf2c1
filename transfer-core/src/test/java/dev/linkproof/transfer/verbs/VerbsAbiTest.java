package dev.linkproof.transfer.verbs;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.IOException;
import java.lang.reflect.Field;
import java.lang.reflect.Modifier;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * The bindings' struct offsets, sizes and enum values against the real headers: compiles
 * {@code src/test/c/verbs_layout.c} with gcc against {@code <infiniband/verbs.h>} (Debian's
 * libibverbs-dev, which scripts/setup.sh --test installs), runs it, and compares every line with the
 * {@link VerbsAbi} constant of the same name. A constant the program does not print fails too,
 * so no offset the Java side uses escapes the check. Skipped, with the reason, where gcc or the
 * headers are missing.
 */
class VerbsAbiTest {
    @Test
    void everyOffsetSizeAndConstantMatchesTheHeaders() throws Exception {
        Map<String, Long> c = compileAndRun();
        Map<String, Long> java = javaConstants();
        assertThat(java).isNotEmpty();
        List<String> problems = new ArrayList<>();
        for (var e : java.entrySet()) {
            Long fromC = c.get(e.getKey());
            if (fromC == null) {
                problems.add(e.getKey() + ": the C layout program does not print it (add it to verbs_layout.c)");
            } else if (!fromC.equals(e.getValue())) {
                problems.add(e.getKey() + ": Java says " + e.getValue() + ", <infiniband/verbs.h> says " + fromC);
            }
        }
        for (String k : c.keySet()) {
            if (!java.containsKey(k)) {
                problems.add(k + ": printed by the C program but missing from VerbsAbi");
            }
        }
        assertThat(problems).as("libibverbs ABI differences").isEmpty();
    }

    static Map<String, Long> javaConstants() throws IllegalAccessException {
        Map<String, Long> out = new LinkedHashMap<>();
        for (Field f : VerbsAbi.class.getDeclaredFields()) {
            int m = f.getModifiers();
            if (Modifier.isStatic(m) && Modifier.isFinal(m) && f.getType() == long.class) {
                out.put(f.getName(), f.getLong(null));
            }
        }
        return out;
    }

    private static Map<String, Long> compileAndRun() throws IOException, InterruptedException {
        Path source = Path.of("src/test/c/verbs_layout.c").toAbsolutePath();
        assertThat(source).exists();
        Path dir = Files.createDirectories(Path.of("target/verbs-layout"));
        Path exe = dir.resolve("verbs_layout");
        Run cc;
        try {
            cc = run(List.of("gcc", "-Wall", "-o", exe.toString(), source.toString()));
        } catch (IOException e) {
            assumeTrue(false, "gcc is not installed: " + e.getMessage());
            throw e;
        }
        assumeTrue(
                !(cc.rc != 0 && cc.output.contains("infiniband/verbs.h")),
                "the libibverbs headers are missing (Debian's libibverbs-dev; scripts/setup.sh --test installs it): "
                        + cc.output);
        assertThat(cc.rc).as("gcc output: " + cc.output).isZero();
        Run layout = run(List.of(exe.toString()));
        assertThat(layout.rc).as(layout.output).isZero();
        Map<String, Long> out = new LinkedHashMap<>();
        for (String line : layout.output.split("\n")) {
            String[] parts = line.trim().split(" ");
            if (parts.length == 2) {
                out.put(parts[0], Long.parseLong(parts[1]));
            }
        }
        return out;
    }

    private record Run(int rc, String output) {}

    private static Run run(List<String> cmd) throws IOException, InterruptedException {
        Process p = new ProcessBuilder(cmd).redirectErrorStream(true).start();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        if (!p.waitFor(60, TimeUnit.SECONDS)) {
            p.destroyForcibly();
            throw new IOException(cmd + " did not finish in 60 s");
        }
        return new Run(p.exitValue(), out);
    }
}
