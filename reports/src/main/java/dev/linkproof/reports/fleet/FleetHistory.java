package dev.linkproof.reports.fleet;

import dev.linkproof.fleet.act.History;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.stream.Collectors;
import java.util.stream.Stream;

/**
 * A directory of earlier fleet-verdict.json documents ({@code linkproof.fleet.history}): read into
 * the {@link History} acting weighs a verdict against, and this run's document added once it is
 * written. Each run's document is its own file ({@code fleet-verdict-<finished>-<id>.json}), so
 * runs never overwrite each other; files that are not verdict documents are an error naming them,
 * not a history silently shorter than it is.
 */
public final class FleetHistory {
    /** The verdicts that take a node out, as documents name them. */
    private static final Set<String> TAKES_OUT = Set.of("bad-node", "corrupting-node", "unreachable-node");

    private FleetHistory() {}

    /** The runs in {@code dir}, oldest first; empty when the directory does not exist yet. */
    public static History read(Path dir) {
        if (!Files.isDirectory(dir)) {
            return History.EMPTY;
        }
        List<History.PastRun> runs = new ArrayList<>();
        try (Stream<Path> files = Files.list(dir)) {
            for (Path f : files.filter(p -> p.getFileName().toString().endsWith(".json"))
                    .sorted()
                    .toList()) {
                FleetVerdictDocument d;
                try {
                    d = FleetVerdictFile.read(f);
                } catch (RuntimeException e) {
                    throw new IllegalArgumentException(
                            "fleet history " + dir + ": " + f.getFileName() + " is not a verdict document: "
                                    + e.getMessage(),
                            e);
                }
                Set<String> blamed = d.verdicts().stream()
                        .filter(v -> TAKES_OUT.contains(v.kind()))
                        .flatMap(v -> v.nodes().stream())
                        .collect(Collectors.toSet());
                runs.add(new History.PastRun(d.run().id(), Instant.parse(d.run().finished()), blamed));
            }
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read the fleet history " + dir + ": " + e.getMessage(), e);
        }
        return new History(runs);
    }

    /** Adds a run's document to the history, as its own file; returns where. */
    public static Path keep(Path dir, FleetVerdictDocument document) {
        String stamp = document.run().finished().replace(":", "").replace("-", "");
        return FleetVerdictFile.writeFile(
                dir.resolve("fleet-verdict-" + stamp + "-" + document.run().id() + ".json"), document);
    }
}
