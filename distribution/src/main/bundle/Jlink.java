import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.spi.ToolProvider;
import java.util.stream.Stream;

/**
 * Links the bundle's Java runtime with the jlink of the JDK that runs this file (the build's
 * toolchain JDK, through exec-maven-plugin). {@code java Jlink.java OUTPUT MODULES}. jlink refuses an
 * existing output folder, so the previous runtime is removed first. JDK 25's jlink links from the
 * run-time image itself where the JDK has no jmods/ (JEP 493), as Temurin 25 ships. A class, not a
 * compact source file, so that the formatter (scripts/format/Format.java) can parse it.
 */
public final class Jlink {
    public static void main(String[] args) throws IOException {
        Path out = Path.of(args[0]);
        if (Files.exists(out)) {
            try (Stream<Path> all = Files.walk(out)) {
                for (Path p : all.sorted(Comparator.reverseOrder()).toList()) {
                    Files.delete(p);
                }
            }
        }
        ToolProvider jlink = ToolProvider.findFirst("jlink")
                .orElseThrow(() -> new IllegalStateException("no jlink in " + System.getProperty("java.home")
                        + ": the bundle needs a full JDK 25 (not a JRE)"));
        int rc = jlink.run(
                System.out,
                System.err,
                "--add-modules",
                args[1],
                "--output",
                out.toString(),
                "--strip-debug",
                "--no-man-pages",
                "--no-header-files",
                "--compress=zip-6");
        if (rc != 0) {
            throw new IllegalStateException("jlink failed with status " + rc);
        }
        System.out.println("jlink: runtime of " + args[1].split(",").length + " modules in " + out);
    }
}
