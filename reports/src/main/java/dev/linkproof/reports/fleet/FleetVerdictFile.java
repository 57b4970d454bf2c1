package dev.linkproof.reports.fleet;

import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import dev.linkproof.fleet.blame.Blame;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;

/**
 * fleet-verdict.json: the verdicts of a fleet run for automation (a pipeline that drains, pages or
 * blocks a job on them). Written whole, to a temporary file moved into place, so a reader polling
 * for it never sees half a document.
 */
public final class FleetVerdictFile {
    public static final String NAME = "fleet-verdict.json";
    private static final ObjectMapper JSON = new ObjectMapper()
            .enable(SerializationFeature.INDENT_OUTPUT)
            .configure(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES, false);

    private FleetVerdictFile() {}

    /** Writes {@link #NAME} into {@code folder} and returns its path. */
    public static Path write(Path folder, FleetRunInfo run, Blame blame) {
        return writeFile(folder.resolve(NAME), FleetVerdictDocument.of(run, blame));
    }

    /** The document as the file holds it (indented JSON): for a report that shows it beside the file. */
    public static String json(FleetVerdictDocument document) {
        try {
            return JSON.writeValueAsString(document);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot write a fleet verdict document: " + e.getMessage(), e);
        }
    }

    /** Writes {@code document} to {@code file} (replacing it whole: a reader never sees half of one) and returns it. */
    public static Path writeFile(Path file, FleetVerdictDocument document) {
        Path folder = file.toAbsolutePath().getParent();
        try {
            Files.createDirectories(folder);
            Path tmp = Files.createTempFile(folder, file.getFileName().toString(), ".tmp");
            JSON.writeValue(tmp.toFile(), document);
            return Files.move(tmp, file, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot write " + file + ": " + e.getMessage(), e);
        }
    }

    /** Reads one back; a document of another schema major version is refused. */
    public static FleetVerdictDocument read(Path file) {
        try {
            FleetVerdictDocument d = JSON.readValue(file.toFile(), FleetVerdictDocument.class);
            if (d.schema() == null
                    || !(d.schema().equals(FleetVerdictDocument.SCHEMA)
                            || d.schema().startsWith(FleetVerdictDocument.SCHEMA + "."))) {
                throw new IllegalArgumentException(
                        file + ": schema '" + d.schema() + "' is not " + FleetVerdictDocument.SCHEMA
                                + " or one of its minor versions (" + FleetVerdictDocument.SCHEMA + ".x)");
            }
            return d;
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read " + file + ": " + e.getMessage(), e);
        }
    }
}
