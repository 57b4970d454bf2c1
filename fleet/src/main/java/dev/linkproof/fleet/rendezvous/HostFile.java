package dev.linkproof.fleet.rendezvous;

import dev.linkproof.fleet.FleetConfigurationException;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalInt;

/**
 * A host file: one host per line, in order; {@code #} starts a comment; blank lines are skipped.
 * Read by the coordinator only (agents need not see it: no shared file system is assumed). Every
 * bad line is reported with its number: a line with more than one word, a host listed twice.
 */
public final class HostFile {
    private HostFile() {}

    public static Roster read(Path file) {
        try {
            return parse(Files.readString(file, StandardCharsets.UTF_8), file.toString());
        } catch (IOException e) {
            throw new FleetConfigurationException("cannot read the host file " + file + ": " + e, e);
        }
    }

    /** The roster of a host file's text; {@code source} names it in messages. */
    public static Roster parse(String text, String source) {
        List<String> hosts = new ArrayList<>();
        Map<String, Integer> firstLine = new HashMap<>();
        List<String> problems = new ArrayList<>();
        String[] lines = text.split("\\R", -1);
        for (int i = 0; i < lines.length; i++) {
            int hash = lines[i].indexOf('#');
            String line = (hash < 0 ? lines[i] : lines[i].substring(0, hash)).strip();
            if (line.isEmpty()) {
                continue;
            }
            if (line.split("\\s+").length > 1) {
                problems.add(source + ":" + (i + 1) + ": '" + line + "' is not one host (one host per line)");
                continue;
            }
            Integer earlier = firstLine.putIfAbsent(line, i + 1);
            if (earlier != null) {
                problems.add(source + ":" + (i + 1) + ": host " + line + " is already on line " + earlier);
                continue;
            }
            hosts.add(line);
        }
        if (problems.isEmpty() && hosts.isEmpty()) {
            problems.add(source + ": no hosts, only comments and blank lines");
        }
        if (!problems.isEmpty()) {
            throw new FleetConfigurationException(problems);
        }
        return new Roster(
                Launcher.HOST_FILE,
                "host file " + source,
                hosts,
                Optional.empty(),
                OptionalInt.empty(),
                Optional.empty(),
                Optional.empty());
    }
}
