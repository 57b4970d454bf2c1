package dev.linkproof.reports.results;

import java.time.Instant;
import java.time.LocalDateTime;
import java.time.ZoneOffset;

/**
 * {@link Instant#toString()}'s text ({@code 2026-12-05T05:21:58.550599676Z}: the fraction in groups of
 * three digits, none when whole seconds), made without {@code DateTimeFormatter}: a results line's
 * timestamp took 2.5 % of the points' thread's samples warm (bench/engine-overhead.sh, JFR), as much
 * as the rest of the record. Years outside 0000-9999 (whose ISO text takes a sign) go to
 * {@code Instant.toString()}. IsoInstantTest holds the two to the same text.
 */
final class IsoInstant {
    private IsoInstant() {}

    static String of(Instant t) {
        LocalDateTime d = LocalDateTime.ofEpochSecond(t.getEpochSecond(), 0, ZoneOffset.UTC);
        int year = d.getYear();
        if (year < 0 || year > 9999) {
            return t.toString();
        }
        StringBuilder b = new StringBuilder(30);
        digits(b, year, 4).append('-');
        digits(b, d.getMonthValue(), 2).append('-');
        digits(b, d.getDayOfMonth(), 2).append('T');
        digits(b, d.getHour(), 2).append(':');
        digits(b, d.getMinute(), 2).append(':');
        digits(b, d.getSecond(), 2);
        int nano = t.getNano();
        if (nano != 0) {
            b.append('.');
            if (nano % 1_000_000 == 0) {
                digits(b, nano / 1_000_000, 3);
            } else if (nano % 1_000 == 0) {
                digits(b, nano / 1_000, 6);
            } else {
                digits(b, nano, 9);
            }
        }
        return b.append('Z').toString();
    }

    /** {@code value} (not negative) in {@code width} digits, leading zeros added. */
    private static StringBuilder digits(StringBuilder b, int value, int width) {
        String s = Integer.toString(value);
        for (int i = s.length(); i < width; i++) {
            b.append('0');
        }
        return b.append(s);
    }
}
