package dev.linkproof.engine;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Consumer;

/** A results file written again with one edit to every record: a faster baseline, another point's id. */
final class ResultsLines {
    private static final ObjectMapper JSON = new ObjectMapper();

    private ResultsLines() {}

    /** Reads {@code from}, applies {@code edit} to each record, writes {@code to} (which may be {@code from}). */
    static Path rewrite(Path from, Path to, Consumer<ObjectNode> edit) throws IOException {
        List<String> lines = new ArrayList<>();
        for (String l : Files.readAllLines(from)) {
            ObjectNode n = (ObjectNode) JSON.readTree(l);
            edit.accept(n);
            lines.add(JSON.writeValueAsString(n));
        }
        return Files.write(to, lines);
    }
}
