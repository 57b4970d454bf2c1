package dev.linkproof.transfer.probe;

import java.util.ArrayList;
import java.util.List;
import java.util.regex.Pattern;

/** The kernel's cpu-list notation ({@code 0-47,96-143}), as in {@code cpulist} files and {@code taskset -c}. */
public final class CpuList {
    private static final Pattern SYNTAX = Pattern.compile("\\d+(-\\d+)?(,\\d+(-\\d+)?)*");
    private static final int MAX_CPUS = 65_536;

    private CpuList() {}

    /**
     * The cpus a list names, in the order written.
     *
     * @throws IllegalArgumentException on bad syntax or a descending range
     */
    public static List<Integer> parse(String list) {
        String t = list.strip().replace(" ", "");
        if (t.isEmpty()) {
            return List.of();
        }
        if (!SYNTAX.matcher(t).matches()) {
            throw new IllegalArgumentException("bad cpu list '" + list + "' (expected e.g. 0-47,96-143)");
        }
        List<Integer> out = new ArrayList<>();
        for (String part : t.split(",")) {
            int dash = part.indexOf('-');
            int lo;
            int hi;
            try {
                lo = Integer.parseInt(dash < 0 ? part : part.substring(0, dash));
                hi = dash < 0 ? lo : Integer.parseInt(part.substring(dash + 1));
            } catch (NumberFormatException e) {
                throw new IllegalArgumentException("cpu number too large in '" + list + "'");
            }
            if (hi < lo) {
                throw new IllegalArgumentException("descending cpu range '" + part + "' in '" + list + "'");
            }
            if (hi >= MAX_CPUS) {
                throw new IllegalArgumentException("cpu " + hi + " beyond " + (MAX_CPUS - 1) + " in '" + list + "'");
            }
            for (int c = lo; c <= hi; c++) {
                out.add(c);
            }
        }
        return List.copyOf(out);
    }

    /** Like {@link #parse} but empty for a list the kernel should never have written. */
    static List<Integer> parseLenient(String list) {
        try {
            return parse(list);
        } catch (IllegalArgumentException e) {
            return List.of();
        }
    }
}
