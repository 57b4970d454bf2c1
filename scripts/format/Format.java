// Formats every Java source of the repository with palantir-java-format, or checks that it is
// formatted. Run by the root pom's `format` and `format-check` profiles on the toolchain's JDK 25
// (see pom.xml): the formatter parses with the running JDK's javac, and Maven's Java 17 cannot parse
// the project's Java 25 sources, which is why Spotless (which runs in Maven's JVM) is not used.
//
//   java -cp <palantir-java-format and its dependencies> scripts/format/Format.java apply|check ROOT
//
// check prints each file that is not formatted and exits 1; apply rewrites them. Sources under
// target/ and .git/ are left out.

import com.palantir.javaformat.java.Formatter;
import com.palantir.javaformat.java.FormatterException;
import com.palantir.javaformat.java.JavaFormatterOptions;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;

/** A class, not a compact source file: palantir-java-format 2.x cannot parse those, and formats this one too. */
public final class Format {
    public static void main(String[] args) throws IOException {
        if (args.length != 2 || !List.of("apply", "check").contains(args[0])) {
            System.err.println("usage: Format.java apply|check ROOT");
            System.exit(2);
        }
        boolean apply = args[0].equals("apply");
        Path root = Path.of(args[1]).toAbsolutePath().normalize();
        Formatter formatter = Formatter.createFormatter(JavaFormatterOptions.builder()
                .style(JavaFormatterOptions.Style.PALANTIR)
                .build());
        List<Path> sources;
        try (Stream<Path> walk = Files.walk(root)) {
            sources = walk.filter(p -> p.toString().endsWith(".java"))
                    .filter(p -> !root.relativize(p).toString().contains("target/"))
                    .filter(p -> !root.relativize(p).startsWith(".git"))
                    .sorted()
                    .toList();
        }
        List<String> unformatted = new ArrayList<>();
        List<String> failed = new ArrayList<>();
        for (Path file : sources) {
            String source = Files.readString(file, StandardCharsets.UTF_8);
            String formatted;
            try {
                formatted = formatter.formatSourceAndFixImports(source);
            } catch (FormatterException e) {
                failed.add(root.relativize(file) + ": " + e.getMessage());
                continue;
            }
            if (!formatted.equals(source)) {
                unformatted.add(root.relativize(file).toString());
                if (apply) {
                    Files.writeString(file, formatted, StandardCharsets.UTF_8);
                }
            }
        }
        failed.forEach(f -> System.err.println("format: cannot parse " + f));
        if (apply) {
            System.out.println("format: " + unformatted.size() + " of " + sources.size() + " Java files reformatted");
        } else if (!unformatted.isEmpty()) {
            unformatted.forEach(f -> System.err.println("format: not formatted: " + f));
            System.err.println("format: " + unformatted.size() + " of " + sources.size()
                    + " Java files are not formatted; run: mvn -N -Pformat validate");
        } else {
            System.out.println("format: all " + sources.size() + " Java files are formatted");
        }
        if (!failed.isEmpty() || (!apply && !unformatted.isEmpty())) {
            System.exit(1);
        }
    }
}
