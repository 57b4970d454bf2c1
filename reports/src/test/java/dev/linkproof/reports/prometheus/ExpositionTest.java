package dev.linkproof.reports.prometheus;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.FileSystems;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.PathMatcher;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Instant;
import java.util.List;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The textfile write: node_exporter reads *.prom in its directory, and must never see half a file. */
class ExpositionTest {
    @TempDir
    Path dir;

    /** What node_exporter's textfile collector reads: *.prom in its directory. */
    private static final PathMatcher COLLECTED = FileSystems.getDefault().getPathMatcher("glob:*.prom");

    private static String run(String status, int count) {
        return Exposition.text(
                RunMetrics.of(java.util.Collections.nCopies(count, status), Instant.parse("2026-12-06T00:00:00Z")));
    }

    @Test
    void aTextfileIsReplacedWholeAndItsTemporaryFileIsNeverCollected() throws Exception {
        Path file = dir.resolve("linkproof.prom");
        String first = run("passed", 3);
        Exposition.writeAtomically(file, first, tmp -> {});
        String second = run("failed", 7);
        AtomicReference<List<String>> seen = new AtomicReference<>();
        Exposition.writeAtomically(file, second, tmp -> {
            try (var files = Files.list(dir)) {
                seen.set(files.map(f -> f.getFileName().toString()).sorted().toList());
                // While the new text is complete in its temporary file, the collector still reads the old one whole.
                assertThat(Files.readString(file)).isEqualTo(first);
                assertThat(Files.readString(tmp)).isEqualTo(second);
                assertThat(COLLECTED.matches(tmp.getFileName()))
                        .as(tmp.getFileName().toString())
                        .isFalse();
                assertThat(tmp.getParent())
                        .as("the same directory, so the rename is atomic")
                        .isEqualTo(dir);
            } catch (java.io.IOException e) {
                throw new java.io.UncheckedIOException(e);
            }
        });
        assertThat(seen.get())
                .hasSize(2)
                .filteredOn(n -> COLLECTED.matches(Path.of(n)))
                .containsExactly("linkproof.prom");
        assertThat(seen.get())
                .anySatisfy(n -> assertThat(n).startsWith(".linkproof.prom.").endsWith(".tmp"));
        assertThat(Files.readString(file)).isEqualTo(second);
        try (var files = Files.list(dir)) {
            assertThat(files).extracting(f -> f.getFileName().toString()).containsExactly("linkproof.prom");
        }
        // node_exporter runs as a user of its own: it must be able to read the file.
        assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(file)))
                .isEqualTo("rw-r--r--");
    }

    @Test
    void aWriteThatFailsLeavesTheOldFileAndNoTemporaryOne() throws Exception {
        Path file = dir.resolve("linkproof.prom");
        String first = run("passed", 1);
        Exposition.writeAtomically(file, first, tmp -> {});
        try {
            Exposition.writeAtomically(file, run("passed", 2), tmp -> {
                throw new java.io.UncheckedIOException(new java.io.IOException("disk full"));
            });
        } catch (java.io.UncheckedIOException expected) {
            assertThat(expected).hasMessageContaining("disk full");
        }
        assertThat(Files.readString(file)).isEqualTo(first);
        try (var files = Files.list(dir)) {
            assertThat(files).extracting(f -> f.getFileName().toString()).containsExactly("linkproof.prom");
        }
    }

    @Test
    void theRunsCountsHaveEveryStatusAndTheTimestampIsInSeconds() {
        String text = run("failed", 2);
        assertThat(text.lines())
                .contains(
                        RunMetrics.POINTS + "{status=\"passed\"} 0.0",
                        RunMetrics.POINTS + "{status=\"failed\"} 2.0",
                        RunMetrics.POINTS + "{status=\"broken\"} 0.0",
                        RunMetrics.POINTS + "{status=\"skipped\"} 0.0",
                        RunMetrics.LAST_RUN + " "
                                + Instant.parse("2026-12-06T00:00:00Z").getEpochSecond() * 1.0);
    }
}
