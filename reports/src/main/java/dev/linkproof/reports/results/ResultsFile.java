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

/** The JSON-lines results file: one {@link PointRecord} per line, appended as points finish. */
public final class ResultsFile implements AutoCloseable {
    static final ObjectMapper JSON = new ObjectMapper()
            .configure(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES, false);

    private final Path path;
    private final BufferedWriter out;

    private ResultsFile(Path path, BufferedWriter out) {
        this.path = path;
        this.out = out;
    }

    /** Starts a new file at {@code path}, replacing an older one (each run writes its own). */
    public static ResultsFile create(Path path) {
        try {
            Path parent = path.toAbsolutePath().getParent();
            Files.createDirectories(parent);
            return new ResultsFile(path, Files.newBufferedWriter(path, StandardCharsets.UTF_8,
                    StandardOpenOption.CREATE, StandardOpenOption.TRUNCATE_EXISTING, StandardOpenOption.WRITE));
        } catch (IOException e) {
            throw new UncheckedIOException("cannot create results file " + path, e);
        }
    }

    public Path path() {
        return path;
    }

    public synchronized void append(PointRecord record) {
        try {
            out.write(JSON.writeValueAsString(record));
            out.write('\n');
            out.flush();
        } catch (IOException e) {
            throw new UncheckedIOException("cannot write results file " + path, e);
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
     * Reads a results file, or every {@code *.jsonl} file in a folder. A line of another schema
     * major version, or one that does not parse, fails with the file and line number.
     */
    public static List<PointRecord> read(Path fileOrFolder) {
        List<Path> files = new ArrayList<>();
        try {
            if (Files.isDirectory(fileOrFolder)) {
                try (Stream<Path> s = Files.list(fileOrFolder)) {
                    s.filter(p -> p.getFileName().toString().endsWith(".jsonl")).sorted().forEach(files::add);
                }
                if (files.isEmpty()) {
                    throw new IllegalArgumentException("no *.jsonl results file in " + fileOrFolder);
                }
            } else if (Files.isRegularFile(fileOrFolder)) {
                files.add(fileOrFolder);
            } else {
                throw new IllegalArgumentException("results file " + fileOrFolder + " does not exist");
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
                        throw new IllegalArgumentException(f + ":" + n + ": not a results line: " + e.getOriginalMessage());
                    }
                    if (r.schema() == null || !r.schema().startsWith("linkproof.results/1")) {
                        throw new IllegalArgumentException(f + ":" + n + ": schema '" + r.schema() + "' is not "
                                + PointRecord.SCHEMA);
                    }
                    records.add(r);
                }
            }
            return records;
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read results " + fileOrFolder, e);
        }
    }
}
