package dev.linkproof.reports.results;

import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.BufferedWriter;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;

/**
 * The JSON-lines results file: one {@link PointRecord} per line, appended as points finish; a fleet
 * run ends it with one line of its verdicts ({@link #OTHER_SCHEMAS}: the fleet-verdict.json
 * document), which a reader of points passes over.
 */
public final class ResultsFile implements AutoCloseable {
    static final ObjectMapper JSON =
            new ObjectMapper().configure(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES, false);

    private final Path path;
    private final BufferedWriter out;

    private ResultsFile(Path path, BufferedWriter out) {
        this.path = path;
        this.out = out;
    }

    /**
     * Why {@link #create} would fail for {@code path}, found without creating or changing anything
     * (so a run can say so before it starts): a file where a folder must be, a folder where the file
     * must be, or a folder this process may not write in. Empty when it looks creatable.
     */
    public static java.util.Optional<String> whyNotCreatable(Path path) {
        return CreationObstacle.of(path, false)
                .map(o -> "cannot create results file " + path + ": "
                        + switch (o.reason()) {
                            case WRONG_KIND -> "it is a folder";
                            case NOT_WRITABLE -> "permission denied";
                            case NO_FOLDER -> "no folder to create it in";
                            case FILE_IN_THE_WAY -> "a file is in the way";
                        });
    }

    /** Starts a new file at {@code path}, replacing an older one (each run writes its own). */
    public static ResultsFile create(Path path) {
        try {
            Path parent = path.toAbsolutePath().getParent();
            Files.createDirectories(parent);
            return new ResultsFile(
                    path,
                    Files.newBufferedWriter(
                            path,
                            StandardCharsets.UTF_8,
                            StandardOpenOption.CREATE,
                            StandardOpenOption.TRUNCATE_EXISTING,
                            StandardOpenOption.WRITE));
        } catch (IOException e) {
            throw new UncheckedIOException("cannot create results file " + path + ": " + reason(e), e);
        }
    }

    public Path path() {
        return path;
    }

    /**
     * The schemas of the lines a results file may hold besides its points, by prefix: a fleet run's
     * verdicts ({@code linkproof.fleet-verdict/1}). {@link #read} passes over them.
     */
    public static final List<String> OTHER_SCHEMAS = List.of("linkproof.fleet-verdict/");

    /** Appends a line that is not a point: a document whose {@code schema} is one of {@link #OTHER_SCHEMAS}. */
    public synchronized void appendDocument(Object document) {
        String line;
        String schema;
        try {
            line = JSON.writeValueAsString(document);
            schema = JSON.readTree(line).path("schema").asText("");
        } catch (IOException e) {
            throw new UncheckedIOException("cannot write results file " + path + ": " + e.getMessage(), e);
        }
        if (OTHER_SCHEMAS.stream().noneMatch(schema::startsWith)) {
            throw new IllegalArgumentException(
                    "a results file holds points and " + OTHER_SCHEMAS + " documents, not '" + schema + "'");
        }
        try {
            out.write(line);
            out.write('\n');
            out.flush();
        } catch (IOException e) {
            throw new UncheckedIOException("cannot write results file " + path + ": " + reason(e), e);
        }
    }

    public synchronized void append(PointRecord record) {
        try {
            out.write(PointRecordJson.line(JSON, record));
            out.write('\n');
            out.flush();
        } catch (IOException e) {
            throw new UncheckedIOException("cannot write results file " + path + ": " + reason(e), e);
        }
    }

    @Override
    public synchronized void close() {
        try {
            out.close();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /**
     * Why a line of schema {@code schema} cannot be read, or null when it can: this reader reads
     * {@link PointRecord#SCHEMA} ({@code linkproof.results/1}) and its minor versions
     * ({@code linkproof.results/1.3}), not another major version ({@code linkproof.results/10} is
     * version 10, not 1).
     */
    static String refusal(String schema) {
        String name = PointRecord.SCHEMA.substring(0, PointRecord.SCHEMA.indexOf('/') + 1);
        String major = PointRecord.SCHEMA.substring(name.length());
        if (schema == null || !schema.startsWith(name)) {
            return "schema '" + schema + "' is not " + PointRecord.SCHEMA;
        }
        String version = schema.substring(name.length());
        int dot = version.indexOf('.');
        String found = dot < 0 ? version : version.substring(0, dot);
        if (found.equals(major)) {
            return null;
        }
        return "schema '" + schema + "' is major version " + (found.isEmpty() ? "(none)" : found)
                + "; this reader reads " + PointRecord.SCHEMA + " and its minor versions (" + PointRecord.SCHEMA
                + ".x) only";
    }

    /**
     * Reads a results file, or every {@code *.jsonl} file in a folder: its points, passing over the
     * lines of {@link #OTHER_SCHEMAS}. A line of another schema or major version, or one that does not
     * parse, fails with the file and line number.
     */
    public static List<PointRecord> read(Path fileOrFolder) {
        List<Path> files = new ArrayList<>();
        try {
            if (Files.isDirectory(fileOrFolder)) {
                try (Stream<Path> s = Files.list(fileOrFolder)) {
                    s.filter(p -> p.getFileName().toString().endsWith(".jsonl"))
                            .sorted()
                            .forEach(files::add);
                }
                if (files.isEmpty()) {
                    throw new IllegalArgumentException("no *.jsonl results file in " + fileOrFolder);
                }
            } else if (Files.isRegularFile(fileOrFolder)) {
                files.add(fileOrFolder);
            } else {
                throw new IllegalArgumentException(
                        "results file " + fileOrFolder + " does not exist (neither a file nor a folder)");
            }
            List<PointRecord> records = new ArrayList<>();
            for (Path f : files) {
                int n = 0;
                for (String line : Files.readAllLines(f, StandardCharsets.UTF_8)) {
                    n++;
                    if (line.isBlank()) {
                        continue;
                    }
                    PointRecord r;
                    try {
                        r = JSON.readValue(line, PointRecord.class);
                    } catch (com.fasterxml.jackson.core.JsonProcessingException e) {
                        throw new IllegalArgumentException(
                                f + ":" + n + ": not a results line: " + e.getOriginalMessage());
                    }
                    if (r.schema() != null && OTHER_SCHEMAS.stream().anyMatch(r.schema()::startsWith)) {
                        continue; // a fleet's verdicts: not a point
                    }
                    String refused = refusal(r.schema());
                    if (refused != null) {
                        throw new IllegalArgumentException(f + ":" + n + ": " + refused);
                    }
                    records.add(r);
                }
            }
            return records;
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read results " + fileOrFolder + ": " + reason(e), e);
        }
    }

    /**
     * What went wrong, in words: the JDK's file exceptions carry only the path as their message
     * ({@code NoSuchFileException: /proc/x.jsonl}), which reads as no reason at all.
     */
    static String reason(IOException e) {
        if (e instanceof java.nio.file.NoSuchFileException) {
            return "no such file or directory";
        }
        if (e instanceof java.nio.file.AccessDeniedException) {
            return "permission denied";
        }
        if (e instanceof java.nio.file.FileAlreadyExistsException) {
            return "a file is in the way";
        }
        if (e instanceof java.nio.file.FileSystemException f && f.getReason() != null) {
            return f.getReason();
        }
        return e.getMessage() != null ? e.getMessage() : e.getClass().getSimpleName();
    }
}
