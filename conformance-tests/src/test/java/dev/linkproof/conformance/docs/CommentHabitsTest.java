package dev.linkproof.conformance.docs;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Two habits of every Java file of the repository (main and test, every module): no Javadoc block longer than
 * {@value #JAVADOC_LINES} lines, from the line of its {@code /**} to the line of its closing, and no line longer than
 * {@value #LINE_LENGTH} characters. A Javadoc says why in a few lines; what a longer one holds is usually the code
 * told again, history, or reference that belongs in docs/. Each failure names the file, the line and the length.
 */
class CommentHabitsTest {
    static final int JAVADOC_LINES = 9;
    static final int LINE_LENGTH = 140;

    /** Where a Javadoc block starts (1-based) and how many lines it spans. */
    record Block(int line, int lines) {}

    /**
     * Every Javadoc block of {@code text}: a {@code /**} in code, not in a string, a character, a text block or
     * another comment; {@code /**}{@code /} is an empty comment, not a block.
     */
    static List<Block> javadocBlocks(String text) {
        List<Block> blocks = new ArrayList<>();
        int line = 1;
        int i = 0;
        int n = text.length();
        while (i < n) {
            char c = text.charAt(i);
            int next;
            if (c == '\n') {
                line++;
                i++;
                continue;
            } else if (text.startsWith("//", i)) {
                next = text.indexOf('\n', i);
                next = next < 0 ? n : next;
            } else if (text.startsWith("/*", i)) {
                int close = text.indexOf("*/", i + 2);
                next = close < 0 ? n : close + 2;
                if (text.startsWith("/**", i) && !text.startsWith("/**/", i)) {
                    blocks.add(new Block(line, newlines(text, i, next) + 1));
                }
            } else if (text.startsWith("\"\"\"", i)) {
                next = skipQuoted(text, i + 3, "\"\"\"");
            } else if (c == '"' || c == '\'') {
                next = skipQuoted(text, i + 1, String.valueOf(c));
            } else {
                next = i + 1;
            }
            line += newlines(text, i, next);
            i = next;
        }
        return blocks;
    }

    /**
     * The index after the {@code close} that ends a literal begun before {@code from}, escapes skipped; a string or
     * character literal also ends at its line's end, so a quote this scan misreads costs one line, not the file.
     */
    private static int skipQuoted(String text, int from, String close) {
        int j = from;
        while (j < text.length() && !text.startsWith(close, j)) {
            if (close.length() == 1 && text.charAt(j) == '\n') {
                return j;
            }
            j += text.charAt(j) == '\\' ? 2 : 1;
        }
        return Math.min(text.length(), j + close.length());
    }

    private static int newlines(String text, int from, int to) {
        int count = 0;
        for (int k = from; k < to; k++) {
            count += text.charAt(k) == '\n' ? 1 : 0;
        }
        return count;
    }

    /** What breaks the habits in {@code text}, one entry per place: "line: what". */
    static List<String> problems(String text) {
        List<String> found = new ArrayList<>();
        for (Block b : javadocBlocks(text)) {
            if (b.lines() > JAVADOC_LINES) {
                found.add(b.line() + ": a Javadoc block of " + b.lines() + " lines (at most " + JAVADOC_LINES + ")");
            }
        }
        List<String> lines = text.lines().toList();
        for (int k = 0; k < lines.size(); k++) {
            int length = lines.get(k).codePointCount(0, lines.get(k).length());
            if (length > LINE_LENGTH) {
                found.add((k + 1) + ": a line of " + length + " characters (at most " + LINE_LENGTH + ")");
            }
        }
        return found;
    }

    @Test
    void noJavadocBlockOrLineIsTooLong() throws IOException {
        List<Path> files = LongFilesTest.javaFiles();
        assertThat(files)
                .as("the walk finds this very file")
                .contains(RepositoryPathsTest.ROOT.resolve(
                        "conformance-tests/src/test/java/dev/linkproof/conformance/docs/CommentHabitsTest.java"));
        List<String> found = new ArrayList<>();
        for (Path f : files) {
            for (String problem : problems(Files.readString(f))) {
                found.add(RepositoryPathsTest.ROOT.relativize(f) + ":" + problem);
            }
        }
        assertThat(found)
                .as("say why in at most %d lines of Javadoc; wrap lines at %d characters", JAVADOC_LINES, LINE_LENGTH)
                .isEmpty();
    }

    static String javadoc(int lines) {
        return "/**\n" + " * why.\n".repeat(lines - 2) + " */\n";
    }

    @Test
    void aJavadocBlockCountsFromItsOpeningLineToItsClosingOne() {
        assertThat(problems("package p;\n\n" + javadoc(10) + "class A {}\n"))
                .containsExactly("3: a Javadoc block of 10 lines (at most 9)");
        assertThat(problems("package p;\n\n" + javadoc(9) + "class A {}\n")).isEmpty();
        assertThat(problems("class A {\n    /** One line. */\n    int x;\n" + "    " + javadoc(12) + "    int y;\n}\n"))
                .as("the second block, indented, named by its first line")
                .containsExactly("4: a Javadoc block of 12 lines (at most 9)");
        assertThat(problems("/** Text\n * more. */\n".repeat(10)))
                .as("ten short blocks")
                .isEmpty();
        assertThat(problems("class A {\n    /** ten" + "\n".repeat(9) + "    */\n}\n"))
                .as("blank lines count")
                .containsExactly("2: a Javadoc block of 10 lines (at most 9)");
    }

    @Test
    void onlyAJavadocInCodeIsABlock() {
        String twelve = "\n".repeat(11);
        assertThat(problems("/*" + twelve + "*/\nclass A {}\n"))
                .as("a block comment")
                .isEmpty();
        assertThat(problems("/**/" + twelve + "class A {}\n"))
                .as("an empty comment")
                .isEmpty();
        assertThat(problems("// /**" + twelve + "// */\nclass A {}\n"))
                .as("in a line comment")
                .isEmpty();
        assertThat(problems("/* /**" + twelve + "*/\nclass A {}\n"))
                .as("in a block comment")
                .isEmpty();
        assertThat(problems("class A {\n    String s = \"/**\";\n" + "    int x;\n".repeat(10)
                        + "    String t = \"*/\";\n}\n"))
                .as("in strings")
                .isEmpty();
        assertThat(problems("class A {\n    char c = '\"';\n    String s = \"\\\" /**\";\n" + "    int x;\n".repeat(10)
                        + "    String t = \"*/\";\n}\n"))
                .as("after a quote in a character and an escaped one in a string")
                .isEmpty();
        assertThat(problems("class A {\n    String s = \"\"\"\n        /** \\\"\"\" still text\n" + twelve
                        + "        */\n        \"\"\";\n}\n"))
                .as("in a text block, past an escaped delimiter")
                .isEmpty();
        assertThat(problems(
                        "class A {\n    String s = \"\"\"\n        text\n        \"\"\";\n    " + javadoc(10) + "}\n"))
                .as("after a text block, lines still counted")
                .containsExactly("5: a Javadoc block of 10 lines (at most 9)");
    }

    @Test
    void aLineOf141CharactersIsTooLongAndOf140IsNot() {
        assertThat(problems("class A {}\n// " + "x".repeat(138) + "\n"))
                .containsExactly("2: a line of 141 characters (at most 140)");
        assertThat(problems("// " + "x".repeat(137) + "\nclass A {}\n")).isEmpty();
        assertThat(problems("// " + "×".repeat(137) + "\r\nclass A {}\n"))
                .as("characters, not bytes; the line break is none")
                .isEmpty();
        assertThat(problems("    String s = \"" + "x".repeat(130) + "\";\n"))
                .as("code too")
                .containsExactly("1: a line of 148 characters (at most 140)");
    }
}
