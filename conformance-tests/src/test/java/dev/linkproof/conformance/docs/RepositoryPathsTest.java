package dev.linkproof.conformance.docs;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * Every path of this repository that the README, the docs and the poms name exists: a relative
 * link, a path in backticks or a pom comment that starts at a top-level folder of the repository
 * ({@code junit-engine/src/…}, {@code bench/…}, {@code docs/…}). Files move; the text that points at
 * them must move with them. Paths of things a run makes ({@code target/}, reports) are not checked.
 */
class RepositoryPathsTest {
    static final Path ROOT = Path.of("..").toAbsolutePath().normalize();
    private static final Pattern LINK = Pattern.compile("\\]\\(([^)\\s]+)\\)");
    private static final Pattern TICKED = Pattern.compile("`([^`\\s]+)`");

    /** The repository's top-level folders and files, which a repository path starts with. */
    private static Set<String> topLevel() throws IOException {
        try (Stream<Path> s = Files.list(ROOT)) {
            return s.map(p -> p.getFileName().toString())
                    .filter(n -> !n.equals("target") && !n.equals(".git"))
                    .collect(Collectors.toSet());
        }
    }

    private static List<Path> documents() throws IOException {
        List<Path> docs = new ArrayList<>(List.of(ROOT.resolve("README.md")));
        try (Stream<Path> s = Files.walk(ROOT.resolve("docs"))) {
            s.filter(p -> p.toString().endsWith(".md")).forEach(docs::add);
        }
        try (Stream<Path> s = Files.walk(ROOT, 2)) {
            s.filter(p -> p.getFileName().toString().equals("pom.xml")
                            || p.getFileName().toString().equals("README.md"))
                    .filter(p -> !p.toString().contains("/target/"))
                    .forEach(docs::add);
        }
        return docs.stream().distinct().toList();
    }

    /** Not a path of the repository as it stands: made by a run, a pattern, a placeholder, or outside. */
    private static boolean madeOrPattern(String p) {
        return p.contains("target/")
                || p.contains("*")
                || p.contains("<")
                || p.contains("{")
                || p.contains("$")
                || p.contains("...")
                || p.contains("…")
                || p.startsWith("allure-report");
    }

    @Test
    void everyRepositoryPathTheDocsAndPomsNameExists() throws IOException {
        Set<String> top = topLevel();
        List<String> missing = new ArrayList<>();
        for (Path doc : documents()) {
            String text = Files.readString(doc);
            String where = ROOT.relativize(doc).toString();
            if (doc.toString().endsWith(".md")) {
                Matcher m = LINK.matcher(text);
                while (m.find()) {
                    String target = m.group(1).replaceFirst("#.*$", "");
                    if (target.isEmpty() || target.matches("^[a-z]+:.*") || madeOrPattern(target)) {
                        continue;
                    }
                    if (!Files.exists(doc.getParent().resolve(target).normalize())) {
                        missing.add(where + ": link " + m.group(1));
                    }
                }
            }
            Matcher t = (doc.toString().endsWith(".md")
                            ? TICKED
                            : Pattern.compile("\\b([A-Za-z][\\w.-]*/[\\w./-]*\\w)"))
                    .matcher(text);
            while (t.find()) {
                String path = t.group(1).replaceFirst("[:,.;)]+$", "").replaceFirst("#.*$", "");
                String first = path.contains("/") ? path.substring(0, path.indexOf('/')) : "";
                if (!top.contains(first) || madeOrPattern(path)) {
                    continue;
                }
                if (!Files.exists(ROOT.resolve(path))) {
                    missing.add(where + ": " + path);
                }
            }
        }
        assertThat(missing)
                .as("repository paths named in the README, the docs and the poms that do not exist")
                .isEmpty();
    }
}
