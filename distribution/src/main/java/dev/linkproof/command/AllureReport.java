package dev.linkproof.command;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

/**
 * The HTML report from a run's Allure results, by Allure's own command line on this runtime, as
 * scripts/allure-report.sh makes it for the Maven run: the previous report's history is carried
 * into the results first, so the trend charts span runs; a single-file copy goes beside it.
 */
final class AllureReport {
    /** A report of a few hundred points takes seconds; a stuck one must not hold the run. */
    private static final long DEADLINE_SECONDS = 300;

    private AllureReport() {}

    /** Generates {@code report} from {@code results}; returns why not, or null when it was written. */
    static String generate(Path allure, Path results, Path report) throws IOException, InterruptedException {
        Path history = report.resolve("history");
        if (Files.isDirectory(history)) {
            copyTree(history, results.resolve("history"));
        }
        String why = allure(allure, List.of("generate", "--clean", results.toString(), "-o", report.toString()));
        if (why == null) {
            why = allure(
                    allure,
                    List.of(
                            "generate",
                            "--clean",
                            "--single-file",
                            results.toString(),
                            "-o",
                            report.resolve("single").toString()));
        }
        return why;
    }

    private static String allure(Path allure, List<String> args) throws IOException, InterruptedException {
        List<String> cmd = new java.util.ArrayList<>(List.of("bash", allure.toString()));
        cmd.addAll(args);
        ProcessBuilder pb = new ProcessBuilder(cmd).redirectErrorStream(true);
        // Allure's script runs "$JAVA_HOME/bin/java", else java from the PATH: this runtime, not
        // whatever the machine has (or lacks).
        pb.environment().put("JAVA_HOME", System.getProperty("java.home"));
        Path log = Files.createTempFile("linkproof-allure", ".log");
        pb.redirectOutput(log.toFile());
        Process p = pb.start();
        try {
            if (!p.waitFor(DEADLINE_SECONDS, TimeUnit.SECONDS)) {
                p.destroyForcibly();
                return "Allure's command line did not finish within " + DEADLINE_SECONDS + " s";
            }
            if (p.exitValue() != 0) {
                return "Allure's command line failed with status " + p.exitValue() + ": "
                        + String.join(
                                " | ", Files.readAllLines(log).stream().limit(5).toList());
            }
            return null;
        } finally {
            Files.deleteIfExists(log);
        }
    }

    private static void copyTree(Path from, Path to) throws IOException {
        try (Stream<Path> s = Files.walk(from)) {
            for (Path p : s.toList()) {
                Path t = to.resolve(from.relativize(p).toString());
                if (Files.isDirectory(p)) {
                    Files.createDirectories(t);
                } else {
                    Files.copy(p, t, StandardCopyOption.REPLACE_EXISTING);
                }
            }
        }
    }
}
