package dev.linkproof.profiles;

import dev.linkproof.transfer.Units;

/**
 * A closed range of positive whole numbers, for message sizes (bytes) and batch sizes. Written in a
 * profile as {@code any}, {@code 4KiB}, {@code 4KiB..8MiB} (both ends included), {@code 1MiB..<8MiB}
 * (upper end excluded), {@code 64KiB..} (no upper end) or {@code ..4KiB}.
 */
public record Range(long min, long max) {
    public static final Range ANY = new Range(1, Long.MAX_VALUE);

    public Range {
        if (min < 1 || max < min) {
            throw new IllegalArgumentException("empty range " + min + ".." + max);
        }
    }

    public boolean contains(long v) {
        return v >= min && v <= max;
    }

    public boolean overlaps(Range o) {
        return min <= o.max && o.min <= max;
    }

    public Range intersect(Range o) {
        return new Range(Math.max(min, o.min), Math.min(max, o.max));
    }

    public boolean isAny() {
        return min == 1 && max == Long.MAX_VALUE;
    }

    /** "4 KiB..8 MiB", "64 KiB..", "1 MiB", "any". */
    public String describeSizes() {
        return describe(true);
    }

    /** "1..128", "128..", "1", "any". */
    public String describeCounts() {
        return describe(false);
    }

    /** 8388607 → "<8 MiB", as written with "..<"; 4194304 → "4 MiB". */
    private static String upper(long max) {
        String inclusive = Units.formatSize(max);
        String next = Units.formatSize(max + 1);
        return inclusive.endsWith(" B") && !next.endsWith(" B") ? "<" + next : inclusive;
    }

    private String describe(boolean sizes) {
        if (isAny()) {
            return "any";
        }
        String lo = sizes ? Units.formatSize(min) : String.valueOf(min);
        if (min == max) {
            return lo;
        }
        String hi = max == Long.MAX_VALUE ? "" : sizes ? upper(max) : String.valueOf(max);
        return (min == 1 ? "" : lo) + ".." + hi;
    }
}
