package dev.linkproof.fleet.rendezvous;

import dev.linkproof.fleet.FleetConfigurationException;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A Slurm hostlist expanded as {@code scontrol show hostnames} expands it (Slurm's {@code src/common/hostlist.c},
 * checked against 22.05's scontrol): entries separated by commas or whitespace outside brackets; {@code [1-4,7]} a
 * list of numbers and ranges, each padded to the width of the range's low end as written ({@code [08-10]}: 08 09 10,
 * {@code [9-10]}: 9 10); several groups give every combination, the first turning slowest, and text after the last
 * is a suffix for all (Slurm 23.11 on); order and repeats kept. Stricter where Slurm guesses: an unclosed {@code [},
 * a stray {@code ]} and {@code [1-]} (Slurm's {@code [1]}) are errors. Slurm's limit of 65,536 hosts in a range
 * applies to the whole list; hostlist functions ({@code {...}}), which slurmctld expands, are refused.
 */
public final class SlurmHostlist {
    /** Slurm's MAX_SLURM_NODES, its limit on one range. */
    static final int MAX_HOSTS = 64 * 1024;

    private static final String SEPARATORS = ", \t\n";
    private static final Pattern RANGE = Pattern.compile("(\\d{1,18})(?:-(\\d{1,18}))?");

    private SlurmHostlist() {}

    /** The host names, in order; an error names the list and what is wrong with it. */
    public static List<String> expand(String hostlist) {
        if (hostlist == null || hostlist.isBlank()) {
            throw new FleetConfigurationException("the Slurm hostlist is empty");
        }
        List<String> hosts = new ArrayList<>();
        try {
            for (String entry : entries(hostlist)) {
                hosts.addAll(expandEntry(entry, MAX_HOSTS - hosts.size()));
            }
        } catch (IllegalArgumentException e) {
            throw new FleetConfigurationException("'" + hostlist + "' is not a Slurm hostlist: " + e.getMessage());
        }
        return hosts;
    }

    /** The entries between separators outside brackets; brackets checked for balance on the way. */
    private static List<String> entries(String hostlist) {
        if (hostlist.indexOf('{') >= 0) {
            throw new IllegalArgumentException("hostlist functions ({...}) are expanded by slurmctld, not here");
        }
        List<String> entries = new ArrayList<>();
        StringBuilder entry = new StringBuilder();
        boolean inBracket = false;
        for (char c : hostlist.toCharArray()) {
            if (c == '[') {
                if (inBracket) {
                    throw new IllegalArgumentException("'[' inside brackets");
                }
                inBracket = true;
            } else if (c == ']') {
                if (!inBracket) {
                    throw new IllegalArgumentException("']' without '['");
                }
                inBracket = false;
            } else if (!inBracket && SEPARATORS.indexOf(c) >= 0) {
                if (!entry.isEmpty()) {
                    entries.add(entry.toString());
                    entry.setLength(0);
                }
                continue;
            }
            entry.append(c);
        }
        if (inBracket) {
            throw new IllegalArgumentException("'[' without ']'");
        }
        if (!entry.isEmpty()) {
            entries.add(entry.toString());
        }
        return entries;
    }

    /** One entry's names: literal text and bracket groups, combined first group outermost. */
    private static List<String> expandEntry(String entry, int room) {
        List<String> names = List.of("");
        int i = 0;
        while (i < entry.length()) {
            int open = entry.indexOf('[', i);
            List<String> part;
            if (open < 0 || open > i) {
                int end = open < 0 ? entry.length() : open;
                part = List.of(entry.substring(i, end));
                i = end;
            } else {
                int close = entry.indexOf(']', open);
                part = numbers(entry.substring(open + 1, close));
                i = close + 1;
            }
            if ((long) names.size() * part.size() > room) {
                throw new IllegalArgumentException("'" + entry + "' makes more than " + MAX_HOSTS + " hosts");
            }
            List<String> combined = new ArrayList<>(names.size() * part.size());
            for (String n : names) {
                for (String p : part) {
                    combined.add(n + p);
                }
            }
            names = combined;
        }
        return names;
    }

    /** The numbers of one bracket group, {@code 1-4,7} or {@code 01-03}, each padded to its range's low end. */
    private static List<String> numbers(String group) {
        List<String> numbers = new ArrayList<>();
        for (String range : group.split(",", -1)) {
            Matcher m = RANGE.matcher(range);
            if (!m.matches()) {
                throw new IllegalArgumentException("invalid range '" + range + "' in [" + group + "]");
            }
            long lo = Long.parseLong(m.group(1));
            long hi = m.group(2) == null ? lo : Long.parseLong(m.group(2));
            if (lo > hi) {
                throw new IllegalArgumentException("range '" + range + "' runs backwards");
            }
            if (hi - lo + 1 > MAX_HOSTS - numbers.size()) {
                throw new IllegalArgumentException(
                        "too many hosts in range '" + range + "' (Slurm's limit is " + MAX_HOSTS + ")");
            }
            int width = m.group(1).length();
            for (long n = lo; n <= hi; n++) {
                String digits = Long.toString(n);
                numbers.add(digits.length() >= width ? digits : "0".repeat(width - digits.length()) + digits);
            }
        }
        return numbers;
    }
}
