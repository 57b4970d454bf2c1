package dev.linkproof.transfer.testing;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * Compiles one of {@code src/test/c}'s ABI programs with gcc and runs it. The programs print one
 * fact per line, {@code <name> <value>}, read from the real headers; the binding tests compare
 * those with the Java side, so an offset or constant that drifts from the header fails a test.
 */
public final class CProgram {
    private CProgram() {}

    public record Output(int exitCode, String text) {}

    /** Compiles {@code src/test/c/<source>} with {@code flags} and runs it; fails with gcc's own output. */
    public static Output compileAndRun(String source, List<String> flags) throws IOException, InterruptedException {
        Path src = Path.of("src/test/c", source).toAbsolutePath();
        assertThat(src).exists();
        Path exe = Files.createDirectories(Path.of("target/c-programs"))
                .resolve(source.replace(".c", ""))
                .toAbsolutePath();
        List<String> cc = new ArrayList<>(List.of("gcc", "-Wall", "-Werror", "-o", exe.toString(), src.toString()));
        cc.addAll(flags);
        Output compiled = run(cc);
        assertThat(compiled.exitCode())
                .as("gcc %s:%n%s", source, compiled.text())
                .isZero();
        Output ran = run(List.of(exe.toString()));
        assertThat(ran.exitCode()).as("%s:%n%s", exe, ran.text()).isZero();
        return ran;
    }

    /** The {@code <name> <value>} lines of a program's output; values as text. */
    public static Map<String, String> facts(Output out) {
        Map<String, String> facts = new LinkedHashMap<>();
        for (String line : out.text().split("\n")) {
            int space = line.indexOf(' ');
            if (space > 0) {
                facts.put(line.substring(0, space), line.substring(space + 1).trim());
            }
        }
        return facts;
    }

    /** Notes in {@code problems} where the Java side's {@code java} differs from the header's {@code fromC}. */
    public static void compare(List<String> problems, String header, String key, String java, String fromC) {
        if (fromC == null) {
            problems.add(key + ": the C program does not print it");
        } else if (!fromC.equals(java)) {
            problems.add(key + ": Java says " + java + ", " + header + " says " + fromC);
        }
    }

    public static Output run(List<String> command) throws IOException, InterruptedException {
        Process p = new ProcessBuilder(command).redirectErrorStream(true).start();
        String text = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        if (!p.waitFor(60, TimeUnit.SECONDS)) {
            p.destroyForcibly();
            throw new IOException(command.getFirst() + " did not finish within 60 s");
        }
        return new Output(p.exitValue(), text);
    }
}
