package dev.linkproof.conformance.docs;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * No Java file of the repository (main and test, every module) is longer than {@value #LIMIT} lines
 * of code unless its opening comment says why, with {@value #MARKER} and the reason. A long file
 * usually does several jobs; one that does not says so where a reader starts. Lines of code, not
 * lines: blank lines and comments are left out, so a comment that explains why never pushes a file
 * over, and neither does the formatter's wrapping of a comment.
 */
class LongFilesTest {
    static final int LIMIT = 400;
    static final String MARKER = "Longer than 400 lines because";
    /** The marker and at least a word of reason after it, a Javadoc line break allowed between. */
    private static final Pattern REASON = Pattern.compile(Pattern.quote(MARKER) + "[\\s*]+\\w");

    private static final Pattern COMMENT = Pattern.compile("/\\*.*?\\*/|//[^\\n]*", Pattern.DOTALL);
    /** The first top-level type's declaration: the opening comment is what comes before it. */
    private static final Pattern TYPE = Pattern.compile(
            "^(?:(?:public|protected|private|abstract|final|sealed|non-sealed|static|strictfp)\\s+)*"
                    + "(?:class|interface|enum|record|@interface)\\s+\\w",
            Pattern.MULTILINE);

    /** The lines of {@code text} that hold code: not blank once its comments are taken out. */
    static long codeLines(String text) {
        return COMMENT.matcher(text)
                .replaceAll(m -> "\n"
                        .repeat((int) m.group().chars().filter(c -> c == '\n').count()))
                .lines()
                .filter(l -> !l.isBlank())
                .count();
    }

    /** Why {@code text} breaks the rule, or null: over the limit, and no reason in its opening comment. */
    static String problem(String text) {
        long lines = codeLines(text);
        if (lines <= LIMIT) {
            return null;
        }
        Matcher type = TYPE.matcher(text);
        String opening = type.find() ? text.substring(0, type.start()) : text;
        Matcher comment = COMMENT.matcher(opening);
        while (comment.find()) {
            if (REASON.matcher(comment.group()).find()) {
                return null;
            }
        }
        return lines + " lines of code, and its opening comment does not say \"" + MARKER + " …\"";
    }

    /** Every Java file of the repository, main and test, every module; none under target/ or a dot folder. */
    static List<Path> javaFiles() throws IOException {
        try (Stream<Path> s = Files.walk(RepositoryPathsTest.ROOT)) {
            return s.filter(p -> p.toString().endsWith(".java"))
                    .filter(p -> {
                        for (Path part : RepositoryPathsTest.ROOT.relativize(p)) {
                            if (part.toString().equals("target")
                                    || part.toString().startsWith(".")) {
                                return false;
                            }
                        }
                        return true;
                    })
                    .sorted()
                    .toList();
        }
    }

    @Test
    void noJavaFileIsLongerThanTheLimitWithoutSayingWhy() throws IOException {
        List<Path> files = javaFiles();
        assertThat(files)
                .as("the walk finds this very file")
                .contains(RepositoryPathsTest.ROOT.resolve(
                        "conformance-tests/src/test/java/dev/linkproof/conformance/docs/LongFilesTest.java"));
        List<String> long_ = new ArrayList<>();
        for (Path f : files) {
            String why = problem(Files.readString(f));
            if (why != null) {
                long_.add(RepositoryPathsTest.ROOT.relativize(f) + ": " + why);
            }
        }
        assertThat(long_)
                .as("Java files over %d lines: split them by job, or state the reason", LIMIT)
                .isEmpty();
    }

    @Test
    void theCheckAsksForTheReasonInTheOpeningCommentOnly() {
        String body = "    int x;\n".repeat(LIMIT);
        String unexplained = "package p;\n\n/** A class. */\npublic final class A {\n" + body + "}\n";
        assertThat(problem(unexplained)).startsWith("403 lines of code");
        assertThat(problem("package p;\n\nclass A {\n" + "    int x;\n".repeat(LIMIT - 3) + "}\n"))
                .as("at the limit")
                .isNull();
        assertThat(problem("package p;\n\nclass A {\n" + "    int x;\n".repeat(LIMIT - 2) + "}\n"))
                .as("one over")
                .isNotNull();
        assertThat(problem("package p;\n\n/**\n" + " * why.\n".repeat(500) + " */\nclass A {\n\n\n"
                        + "    // why\n".repeat(500) + "    int x;\n}\n"))
                .as("comments and blank lines are not code")
                .isNull();
        assertThat(problem("package p;\n\n/**\n * A table.\n * " + MARKER + "\n * each row is one symbol.\n */\n"
                        + "public final class A {\n" + body + "}\n"))
                .as("reason in the Javadoc, over a line break")
                .isNull();
        assertThat(problem("// " + MARKER + " it binds one library.\npackage p;\n\nclass A {\n" + body + "}\n"))
                .as("reason in a first line comment")
                .isNull();
        assertThat(problem("package p;\n\n/** " + MARKER + " */\nclass A {\n" + body + "}\n"))
                .as("marker without a reason")
                .isNotNull();
        assertThat(problem("package p;\n\nclass A {\n    /** " + MARKER + " it is long. */\n" + body + "}\n"))
                .as("reason inside the class, not its opening")
                .isNotNull();
        assertThat(problem("package p;\n\nclass A {\n    String s = \"" + MARKER + " strings do not count\";\n" + body
                        + "}\n"))
                .isNotNull();
    }
}
