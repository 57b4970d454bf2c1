package dev.linkproof.engine.config;

import static org.assertj.core.api.Assertions.assertThat;

import java.lang.reflect.Field;
import java.lang.reflect.Modifier;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * One registry of keys: {@link ConfigurationKeys} has an entry for every {@code linkproof.*} name in
 * {@link Constants} and for no other, every key the product's code reads is among them, each is
 * declared once, every name follows one style, and the configuration reference's table is the
 * registry's own rendering.
 */
class ConfigurationIndexTest {
    /** The repository root: this module's parent. */
    private static final Path ROOT = Path.of("").toAbsolutePath().getParent();

    private static final Path REFERENCE = ROOT.resolve("docs/configuration.md");
    private static final Pattern KEY_LITERAL = Pattern.compile("\"(linkproof\\.[A-Za-z0-9.]*)\"");
    /** {@code linkproof.} and dot-separated lowerCamelCase words; a family ends with its dot. */
    private static final Pattern STYLE = Pattern.compile("linkproof(\\.[a-z][a-zA-Z0-9]*)+\\.?");

    /** Each key of {@link Constants}; a prefix ({@code linkproof.criteria.}) as the docs write it, {@code linkproof.criteria.*}. */
    static Set<String> constants() throws IllegalAccessException {
        Set<String> keys = new TreeSet<>();
        for (Field f : Constants.class.getFields()) {
            if (Modifier.isStatic(f.getModifiers()) && f.getType() == String.class) {
                String v = (String) f.get(null);
                if (v.startsWith("linkproof.")) {
                    keys.add(v.endsWith(".") ? v + "*" : v);
                }
            }
        }
        return keys;
    }

    static Set<String> registered() {
        Set<String> keys = new TreeSet<>();
        ConfigurationKeys.ALL.forEach(k -> keys.add(k.family() ? k.name() + "*" : k.name()));
        return keys;
    }

    @Test
    void theRegistryHasAnEntryForEveryNameAndNoOther() throws Exception {
        assertThat(registered()).isEqualTo(constants());
        assertThat(ConfigurationKeys.ALL).as("no key twice").doesNotHaveDuplicates();
    }

    /**
     * docs/configuration.md's table is {@link ConfigurationKeys#markdownTable()}, byte for byte. On a
     * difference the expected file is written to target/configuration.md: copy it over the docs.
     */
    @Test
    void theReferenceTableIsTheRegistrysRendering() throws Exception {
        String doc = Files.readString(REFERENCE);
        int start = doc.indexOf("| Key | Value | Default | What it does |");
        assertThat(start).as("the table's header in " + REFERENCE).isPositive();
        int end = doc.indexOf("\n\n", start);
        String expected = doc.substring(0, start) + ConfigurationKeys.markdownTable() + doc.substring(end + 1);
        if (!expected.equals(doc)) {
            Files.writeString(Path.of("target/configuration.md"), expected);
        }
        assertThat(doc)
                .as("docs/configuration.md against the registry (the expected file is"
                        + " junit-engine/target/configuration.md)")
                .isEqualTo(expected);
    }

    @Test
    void everyKeyFollowsOneStyle() {
        assertThat(ConfigurationKeys.ALL)
                .extracting(Key::name)
                .allSatisfy(n -> assertThat(n).matches(STYLE));
    }

    /** The style check catches what it is for: the kebab, snake and capitalised forms. */
    @ParameterizedTest
    @ValueSource(
            strings = {
                "linkproof.timeout.agent-start",
                "linkproof.busy_host.reruns",
                "linkproof.Peer",
                "linkproof..peer",
                "linkproof"
            })
    void theStyleCheckRefusesOtherForms(String name) {
        assertThat(name).doesNotMatch(STYLE);
    }

    /** A key read by a literal of its own, outside Constants' index, would be missed by both. */
    @Test
    void everyKeyTheProductReadsIsInConstants() throws Exception {
        Set<String> keys = registered();
        Set<String> unindexed = new TreeSet<>();
        try (Stream<Path> modules = Files.list(ROOT)) {
            for (Path main : modules.map(m -> m.resolve("src/main/java"))
                    .filter(Files::isDirectory)
                    .toList()) {
                try (Stream<Path> files = Files.walk(main)) {
                    for (Path file :
                            files.filter(f -> f.toString().endsWith(".java")).toList()) {
                        Matcher m = KEY_LITERAL.matcher(Files.readString(file));
                        while (m.find()) {
                            String literal = m.group(1);
                            if (!indexed(literal, keys)) {
                                unindexed.add(literal + " in " + ROOT.relativize(file));
                            }
                        }
                    }
                }
            }
        }
        assertThat(unindexed).isEmpty();
    }

    private static final Pattern KEY_DECLARATION =
            Pattern.compile("static final String \\w+\\s*=\\s*\"(linkproof\\.[A-Za-z0-9.]*)\";");

    /**
     * Each key is declared once, as a literal, in the module that reads it; everywhere else it is a
     * reference (Constants lists the fleet's, the profiles' and the transports' keys by reference),
     * so a renamed key cannot leave a second spelling behind.
     */
    @Test
    void noKeyIsDeclaredTwice() throws Exception {
        java.util.Map<String, java.util.List<String>> declared = new java.util.TreeMap<>();
        try (Stream<Path> modules = Files.list(ROOT)) {
            for (Path main : modules.map(m -> m.resolve("src/main/java"))
                    .filter(Files::isDirectory)
                    .toList()) {
                try (Stream<Path> files = Files.walk(main)) {
                    for (Path file :
                            files.filter(f -> f.toString().endsWith(".java")).toList()) {
                        Matcher m = KEY_DECLARATION.matcher(Files.readString(file));
                        while (m.find()) {
                            declared.computeIfAbsent(m.group(1), k -> new java.util.ArrayList<>())
                                    .add(ROOT.relativize(file).toString());
                        }
                    }
                }
            }
        }
        assertThat(declared).as("keys declared as literals").isNotEmpty();
        assertThat(declared.entrySet().stream()
                        .filter(e -> e.getValue().size() > 1)
                        .map(Object::toString)
                        .toList())
                .as("keys declared more than once")
                .isEmpty();
    }

    /** A key, a prefix of keys ({@code startsWith("linkproof.probe.")}) or a key under a prefix key. */
    private static boolean indexed(String literal, Set<String> keys) {
        return keys.stream()
                .anyMatch(k -> k.equals(literal)
                        || k.startsWith(literal)
                        || k.endsWith("*") && literal.startsWith(k.substring(0, k.length() - 1)));
    }
}
