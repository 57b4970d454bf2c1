package dev.linkproof.fleet.plan;

import dev.linkproof.fleet.FleetConfigurationException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The lines of a pair file: {@code a b} or {@code a->b} (a initiates toward b), one pair a line;
 * {@code #} starts a comment; blank lines are skipped. Every bad line is reported, each with its
 * line number, before anything runs: a wrong field count, a node outside the fleet, a node paired
 * with itself, a pair listed twice (the same direction; {@code a b} and {@code b a} are two pairs).
 */
final class PairFileParser {
    private static final String ARROW = "->";

    private PairFileParser() {}

    /** The pairs in file order; {@code source} names the file in messages. */
    static List<Pair> parse(String text, String source, List<String> nodes) {
        Set<String> known = new HashSet<>(nodes);
        Map<Pair, Integer> firstLine = new HashMap<>();
        List<Pair> pairs = new ArrayList<>();
        List<String> problems = new ArrayList<>();
        String[] lines = text.split("\\R", -1);
        for (int i = 0; i < lines.length; i++) {
            String where = source + ":" + (i + 1) + ": ";
            String line = withoutComment(lines[i]).strip();
            if (line.isEmpty()) {
                continue;
            }
            String[] ends = ends(line);
            if (ends == null) {
                problems.add(where + "'" + line + "' is not a pair: write 'a b' or 'a->b'");
                continue;
            }
            boolean unknown = false;
            for (String end : ends) {
                if (!known.contains(end)) {
                    problems.add(where + "node " + end + " is not in the fleet " + fleet(nodes));
                    unknown = true;
                }
            }
            if (unknown) {
                continue;
            }
            if (ends[0].equals(ends[1])) {
                problems.add(where + "node " + ends[0] + " is paired with itself");
                continue;
            }
            Pair pair = new Pair(ends[0], ends[1]);
            Integer earlier = firstLine.putIfAbsent(pair, i + 1);
            if (earlier != null) {
                problems.add(where + pair + " is already on line " + earlier);
                continue;
            }
            pairs.add(pair);
        }
        if (problems.isEmpty() && pairs.isEmpty()) {
            problems.add(source + ": no pairs, only comments and blank lines");
        }
        if (!problems.isEmpty()) {
            throw new FleetConfigurationException(problems);
        }
        return pairs;
    }

    private static String withoutComment(String line) {
        int hash = line.indexOf('#');
        return hash < 0 ? line : line.substring(0, hash);
    }

    /** The two node names of a pair line, or null when the line is not one. */
    private static String[] ends(String line) {
        String[] parts;
        if (line.contains(ARROW)) {
            parts = line.split(ARROW, -1);
            if (parts.length != 2) {
                return null;
            }
            parts[0] = parts[0].strip();
            parts[1] = parts[1].strip();
            if (parts[0].isEmpty() || parts[1].isEmpty() || parts[0].contains(" ") || parts[1].contains(" ")) {
                return null;
            }
        } else {
            parts = line.split("\\s+");
            if (parts.length != 2) {
                return null;
            }
        }
        return parts;
    }

    private static String fleet(List<String> nodes) {
        return nodes.size() <= 8
                ? nodes.toString()
                : "of " + nodes.size() + " nodes (" + nodes.getFirst() + " … " + nodes.getLast() + ")";
    }
}
