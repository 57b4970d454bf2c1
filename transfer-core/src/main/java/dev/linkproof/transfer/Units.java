package dev.linkproof.transfer;

import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/** Parsing and printing of byte sizes ("4KiB", "1 MiB", "1000003") and rates. */
public final class Units {
    private static final Pattern SIZE =
            Pattern.compile("\\s*(\\d+)\\s*(B|KiB|MiB|GiB|K|M|G|KB|MB|GB)?\\s*", Pattern.CASE_INSENSITIVE);

    private Units() {}

    /**
     * Parses a size. Binary suffixes only: {@code K}, {@code KB} and {@code KiB} all mean 1024, so
     * a sweep written either way lands on the same points.
     */
    public static long parseSize(String text) {
        Matcher m = SIZE.matcher(text);
        if (!m.matches()) {
            throw new IllegalArgumentException("bad size '" + text + "' (expected e.g. 4096, 4KiB, 1MiB)");
        }
        long value;
        try {
            value = Long.parseLong(m.group(1));
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException("size '" + text + "' is too large");
        }
        String unit = m.group(2) == null ? "B" : m.group(2).toUpperCase(Locale.ROOT);
        int shift = switch (unit.charAt(0)) {
            case 'K' -> 10;
            case 'M' -> 20;
            case 'G' -> 30;
            default -> 0;
        };
        if (value > (Long.MAX_VALUE >> shift)) {
            throw new IllegalArgumentException("size '" + text + "' is too large");
        }
        return value << shift;
    }

    /** "4 KiB", "1 MiB", "4097 B": a binary unit only where the size is a whole multiple of it. */
    public static String formatSize(long bytes) {
        if (bytes >= (1L << 30) && bytes % (1L << 30) == 0) {
            return (bytes >> 30) + " GiB";
        }
        if (bytes >= (1L << 20) && bytes % (1L << 20) == 0) {
            return (bytes >> 20) + " MiB";
        }
        if (bytes >= 1024 && bytes % 1024 == 0) {
            return (bytes >> 10) + " KiB";
        }
        return bytes + " B";
    }

    /**
     * "64 KiB", "1.5 GiB", "1000 B": the largest binary unit, one decimal where it is not whole. Two
     * significant places are enough for a limit or a free space; {@link #formatSize} is exact.
     */
    public static String formatApproxSize(long bytes) {
        String[] units = {"B", "KiB", "MiB", "GiB", "TiB"};
        double v = bytes;
        int u = 0;
        while (v >= 1024 && u < units.length - 1) {
            v /= 1024;
            u++;
        }
        return (v == Math.rint(v) ? String.format(Locale.ROOT, "%d", (long) v) : String.format(Locale.ROOT, "%.1f", v))
                + " " + units[u];
    }

    /** Bandwidth in GB/s with GB = 10^9 bytes, as nixlbench and MORI-IO print it. */
    public static String formatGBps(double gbps) {
        if (gbps < 0.01) {
            // tiny messages: GB/s with four decimals would read 0.0000; three significant digits in MB/s say more
            return String.format(Locale.ROOT, "%.3g MB/s", gbps * 1000);
        }
        return String.format(Locale.ROOT, gbps >= 10 ? "%.1f GB/s" : gbps >= 0.1 ? "%.2f GB/s" : "%.4f GB/s", gbps);
    }

    /** Operations per second, three significant digits: "12.3 Mops/s", "851 kops/s", "97.0 ops/s". */
    public static String formatOps(double perSecond) {
        if (perSecond >= 1e6) {
            return String.format(Locale.ROOT, "%.3g Mops/s", perSecond / 1e6);
        }
        if (perSecond >= 1e3) {
            return String.format(Locale.ROOT, "%.3g kops/s", perSecond / 1e3);
        }
        return String.format(Locale.ROOT, "%.3g ops/s", perSecond);
    }

    public static String formatMicros(double micros) {
        if (micros < 0.1) {
            return String.format(Locale.ROOT, "%.0f ns", micros * 1e3);
        }
        return String.format(Locale.ROOT, micros >= 100 ? "%.0f µs" : micros >= 10 ? "%.1f µs" : "%.2f µs", micros);
    }

    /**
     * A deadline as its settings read it back (the engine's {@code linkproof.timeout.*} keys and the
     * command line's options take the same forms): {@code 500ms}, {@code 30s}, {@code 2m}, else ISO-8601.
     */
    public static String formatDuration(java.time.Duration d) {
        if (d.getNano() % 1_000_000 != 0) {
            return d.toString();
        }
        long ms = d.toMillis();
        if (ms % 1000 != 0) {
            return ms + "ms";
        }
        long s = ms / 1000;
        return s % 60 == 0 ? s / 60 + "m" : s + "s";
    }

    /**
     * The one duration grammar of the engine's keys and the command line: {@code 500ms} (whole
     * milliseconds), {@code 10s} or {@code 1.5s}, {@code 2m} (whole minutes), a bare number of
     * seconds ({@code 7}), or ISO-8601 ({@code PT1M}, {@code pt0.25s}); case and spaces before the unit
     * do not matter. Zero and negative durations are not durations here: every use is a deadline or a
     * length of run.
     *
     * @throws IllegalArgumentException when {@code text} is none of these
     */
    public static java.time.Duration parseDuration(String text) {
        String s = text == null ? "" : text.trim().toLowerCase(java.util.Locale.ROOT);
        java.time.Duration d;
        try {
            if (s.startsWith("pt")) {
                d = java.time.Duration.parse(s.toUpperCase(java.util.Locale.ROOT));
            } else if (s.endsWith("ms")) {
                d = java.time.Duration.ofMillis(
                        Long.parseLong(s.substring(0, s.length() - 2).trim()));
            } else if (s.endsWith("s")) {
                d = java.time.Duration.ofMillis(Math.round(
                        Double.parseDouble(s.substring(0, s.length() - 1).trim()) * 1000));
            } else if (s.endsWith("m")) {
                d = java.time.Duration.ofMinutes(
                        Long.parseLong(s.substring(0, s.length() - 1).trim()));
            } else {
                d = java.time.Duration.ofSeconds(Long.parseLong(s));
            }
        } catch (RuntimeException e) {
            throw new IllegalArgumentException("'" + text + "' is not a duration (e.g. 10s, 1.5s, 500ms, 2m, PT1M)", e);
        }
        if (d.isNegative() || d.isZero()) {
            throw new IllegalArgumentException("'" + text + "' is not a duration: it must be more than zero");
        }
        return d;
    }
}
