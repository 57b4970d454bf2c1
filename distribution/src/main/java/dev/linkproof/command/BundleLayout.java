package dev.linkproof.command;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;
import java.util.stream.Stream;

/**
 * Where the unpacked bundle keeps what {@code run} needs: the suite's jars and Allure's command
 * line. {@code bin/linkproof} exports the bundle's root as {@code LINKPROOF_HOME}; run any other way
 * (an IDE, a test) there is no bundle, and {@code run} says so where it needs one.
 */
record BundleLayout(Path home) {
    static final String HOME_VARIABLE = "LINKPROOF_HOME";

    static Optional<BundleLayout> fromEnvironment() {
        String home = System.getenv(HOME_VARIABLE);
        return home == null || home.isBlank() ? Optional.empty() : Optional.of(new BundleLayout(Path.of(home)));
    }

    /** The conformance suite's jars ({@code suite/*.jar}). */
    List<Path> suiteJars() {
        return jars(home.resolve("suite"));
    }

    /** Allure's command line ({@code allure/allure-VERSION/bin/allure}), if the bundle has it. */
    Optional<Path> allure() {
        Path dir = home.resolve("allure");
        if (!Files.isDirectory(dir)) {
            return Optional.empty();
        }
        try (Stream<Path> s = Files.list(dir)) {
            return s.map(p -> p.resolve("bin").resolve("allure"))
                    .filter(Files::isRegularFile)
                    .sorted()
                    .findFirst();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static List<Path> jars(Path dir) {
        if (!Files.isDirectory(dir)) {
            return List.of();
        }
        try (Stream<Path> s = Files.list(dir)) {
            return s.filter(p -> p.getFileName().toString().endsWith(".jar"))
                    .sorted()
                    .toList();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
