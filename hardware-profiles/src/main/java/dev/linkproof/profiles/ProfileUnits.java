package dev.linkproof.profiles;

import dev.linkproof.transfer.Units;
import java.time.Duration;
import java.util.Locale;
import java.util.OptionalDouble;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/** The unit-bearing values of a profile, parsed strictly: a number without its unit is an error. */
final class ProfileUnits {
    private static final String NUMBER = "(\\d+(?:\\.\\d+)?)";
    private static final Pattern FRACTION = Pattern.compile(NUMBER + "\\s*(?:×|x|\\*)\\s*(link|memcpy)");
    private static final Pattern PERCENT_OF = Pattern.compile(NUMBER + "\\s*%\\s*of\\s*(?:the\\s+)?(link|memcpy)");
    private static final Pattern LINKS = Pattern.compile(NUMBER + "\\s*(?:×|x|\\*)\\s*links");
    private static final Pattern PERCENT_OF_LINKS = Pattern.compile(NUMBER + "\\s*%\\s*of\\s*(?:the\\s+)?links");
    private static final Pattern MEDIAN =
            Pattern.compile(NUMBER + "\\s*(?:×|x|\\*)\\s*(?:the\\s+)?median(?:\\s+rail)?");
    private static final Pattern PERCENT_OF_MEDIAN =
            Pattern.compile(NUMBER + "\\s*%\\s*of\\s*(?:the\\s+)?median(?:\\s+rail)?");
    private static final Pattern RATE = Pattern.compile(NUMBER + "\\s*([A-Za-z]+/s|[A-Za-z]+ps)");
    private static final Pattern DURATION = Pattern.compile(NUMBER + "\\s*(ns|us|µs|μs|ms|s)");
    private static final Pattern PERCENT = Pattern.compile(NUMBER + "\\s*%");
    private static final Pattern PCI_ID = Pattern.compile("0x[0-9a-fA-F]{4}");
    private static final Pattern FIRMWARE = Pattern.compile("\\d+(\\.\\d+)*");

    private ProfileUnits() {}

    static BandwidthFloor bandwidth(String text, Location at) {
        return bandwidth(text, at, "min-bandwidth");
    }

    /** A floor, {@code key} naming it in messages; see {@link #bandwidth(String, Location)}. */
    private static BandwidthFloor bandwidth(String text, Location at, String key) {
        String t = text.strip();
        negative(t, text, at, key);
        if (LINKS.matcher(t).matches() || PERCENT_OF_LINKS.matcher(t).matches()) {
            throw new ProfileException(
                    at,
                    key + " '" + text + "': '× links' (the rails' link rates summed) is for "
                            + "min-aggregate-bandwidth; " + key
                            + " judges one pair, or each rail of a rails point, so write a "
                            + "fraction of one link (e.g. 0.90 × link)");
        }
        Matcher m = FRACTION.matcher(t);
        if (m.matches()) {
            return fractionOf(Double.parseDouble(m.group(1)), m.group(2), text, at);
        }
        m = PERCENT_OF.matcher(t);
        if (m.matches()) {
            return fractionOf(Double.parseDouble(m.group(1)) / 100, m.group(2), text, at);
        }
        m = RATE.matcher(t);
        if (m.matches()) {
            double v = Double.parseDouble(m.group(1));
            double gbps = switch (m.group(2)) {
                case "GB/s" -> v;
                case "MB/s" -> v / 1e3;
                case "Gb/s", "Gbps" -> v / 8;
                case "Mb/s", "Mbps" -> v / 8e3;
                case "GiB/s" -> v * (1L << 30) / 1e9;
                case "MiB/s" -> v * (1L << 20) / 1e9;
                default -> throw badRate(text, m.group(2), at);
            };
            if (!(gbps > 0)) {
                throw new ProfileException(at, key + " '" + text + "' must be above zero");
            }
            return new BandwidthFloor.Absolute(gbps);
        }
        throw new ProfileException(
                at,
                "bad bandwidth '" + text + "' (expected e.g. 45 GB/s, 360 Gb/s, 0.90 × link, "
                        + "90% of link, 0.10 × memcpy)");
    }

    /**
     * The floor of a rails point's aggregate ({@code min-aggregate-bandwidth}): an absolute rate, as
     * {@link #bandwidth(String, Location)} reads it, or {@code 0.90 × links} / {@code 90% of links}, a
     * fraction of the rails' link rates summed. {@code × link} is refused rather than guessed at (one
     * link, or each?), and so is {@code × memcpy} (one host's copy baseline says nothing of 8 NICs).
     */
    static BandwidthFloor aggregateBandwidth(String text, Location at) {
        String key = "min-aggregate-bandwidth";
        String t = text.strip();
        negative(t, text, at, key);
        Matcher m = LINKS.matcher(t);
        Matcher p = PERCENT_OF_LINKS.matcher(t);
        if (m.matches() || p.matches()) {
            double f = m.matches() ? Double.parseDouble(m.group(1)) : Double.parseDouble(p.group(1)) / 100;
            if (!(f > 0) || f > 1) {
                throw new ProfileException(
                        at,
                        key + ": fraction in '" + text + "' must be above 0 and at most 1 "
                                + "(no rails beat their links)");
            }
            return new BandwidthFloor.OfLinks(f);
        }
        if (FRACTION.matcher(t).matches() || PERCENT_OF.matcher(t).matches()) {
            throw new ProfileException(
                    at,
                    key + " '" + text + "' must be an absolute rate (e.g. 360 GB/s) or a fraction "
                            + "of the rails' link rates summed (e.g. 0.90 × links, 90% of links)");
        }
        if (!RATE.matcher(t).matches()) {
            throw new ProfileException(
                    at,
                    "bad " + key + " '" + text + "' (expected e.g. 360 GB/s, 2880 Gb/s, "
                            + "0.90 × links, 90% of links)");
        }
        return bandwidth(text, at, key);
    }

    /**
     * {@code min-rail-balance}: the slowest rail's bandwidth as a fraction of the median rail's,
     * {@code 0.90 × median} or {@code 90% of median}, above 0 and at most 1.
     */
    static double railBalance(String text, Location at) {
        String key = "min-rail-balance";
        String t = text.strip();
        negative(t, text, at, key);
        Matcher m = MEDIAN.matcher(t);
        Matcher p = PERCENT_OF_MEDIAN.matcher(t);
        if (!m.matches() && !p.matches()) {
            throw new ProfileException(
                    at,
                    "bad " + key + " '" + text + "' (expected e.g. 0.90 × median or 90% of "
                            + "median: the slowest rail's bandwidth as a fraction of the median rail's)");
        }
        double f = m.matches() ? Double.parseDouble(m.group(1)) : Double.parseDouble(p.group(1)) / 100;
        if (!(f > 0) || f > 1) {
            throw new ProfileException(
                    at,
                    key + ": fraction in '" + text + "' must be above 0 and at most 1 "
                            + "(the slowest rail is never above the median)");
        }
        return f;
    }

    /** "-5 GB/s", "-0.5 × median": a clearer message than "bad bandwidth". */
    private static void negative(String t, String text, Location at, String key) {
        if (t.startsWith("-") && t.length() > 1 && Character.isDigit(t.charAt(1))) {
            throw new ProfileException(at, key + " '" + text + "' must be above zero (it is negative)");
        }
    }

    private static BandwidthFloor fractionOf(double f, String of, String text, Location at) {
        double max = of.equals("link") ? 1 : 4;
        if (!(f > 0) || f > max) {
            throw new ProfileException(
                    at,
                    "fraction in '" + text + "' must be above 0 and at most " + (int) max
                            + (of.equals("link") ? " (no transfer beats its link)" : ""));
        }
        return of.equals("link") ? new BandwidthFloor.OfLink(f) : new BandwidthFloor.OfMemcpy(f);
    }

    private static ProfileException badRate(String text, String unit, Location at) {
        String lower = unit.toLowerCase(Locale.ROOT);
        if (lower.equals("gb/s") || lower.equals("mb/s")) {
            return new ProfileException(
                    at,
                    "ambiguous unit '" + unit + "' in '" + text
                            + "': write GB/s for bytes (10^9 per second) or Gb/s for bits");
        }
        return new ProfileException(
                at, "bad unit '" + unit + "' in '" + text + "' (expected GB/s, MB/s, GiB/s, MiB/s, Gb/s or Mb/s)");
    }

    /** A link rate in Gb/s: {@code 400 Gb/s}, {@code 400Gbps}, {@code 25000 Mb/s}. */
    static double linkRate(String text, Location at) {
        Matcher m = RATE.matcher(text.strip());
        if (m.matches()) {
            double v = Double.parseDouble(m.group(1));
            double g = switch (m.group(2)) {
                case "Gb/s", "Gbps" -> v;
                case "Mb/s", "Mbps" -> v / 1e3;
                default -> -1;
            };
            if (g > 0) {
                return g;
            }
            throw new ProfileException(
                    at,
                    "bad unit '" + m.group(2) + "' in link rate '" + text + "' (a link rate is in bits: Gb/s or Mb/s)");
        }
        throw new ProfileException(at, "bad link rate '" + text + "' (expected e.g. 400 Gb/s)");
    }

    static Duration duration(String text, Location at) {
        Matcher m = DURATION.matcher(text.strip());
        if (!m.matches()) {
            throw new ProfileException(at, "bad duration '" + text + "' (expected e.g. 7.5 µs, 7.5 us, 200 ns, 2 ms)");
        }
        double v = Double.parseDouble(m.group(1));
        double nanos = switch (m.group(2)) {
            case "ns" -> v;
            case "us", "µs", "μs" -> v * 1e3;
            case "ms" -> v * 1e6;
            default -> v * 1e9;
        };
        if (nanos < 1) {
            throw new ProfileException(at, "duration '" + text + "' must be at least 1 ns");
        }
        return Duration.ofNanos(Math.round(nanos));
    }

    static double percent(String text, Location at) {
        Matcher m = PERCENT.matcher(text.strip());
        if (!m.matches()) {
            throw new ProfileException(at, "bad percentage '" + text + "' (expected e.g. 10%)");
        }
        double v = Double.parseDouble(m.group(1));
        if (!(v > 0) || v >= 100) {
            throw new ProfileException(at, "percentage '" + text + "' must be above 0% and below 100%");
        }
        return v;
    }

    /** An allowed regression, as a profile's {@code baseline.tolerance}; see {@link #tolerance(String)}. */
    static double tolerance(String text, Location at) {
        return tolerance(text)
                .orElseThrow(() -> new ProfileException(
                        at, "bad tolerance '" + text + "' (expected " + BaselineSettings.TOLERANCE_FORMS + ")"));
    }

    /**
     * An allowed regression as a fraction in [0, 1): {@code 0.08} or {@code 8%}; empty when the text
     * is neither, or out of that range. A bare number of 1 or more is refused rather than guessed at
     * (is {@code 5} five percent, or 500 %?).
     */
    static OptionalDouble tolerance(String text) {
        String t = text.strip();
        double v;
        try {
            v = t.endsWith("%")
                    ? Double.parseDouble(t.substring(0, t.length() - 1).strip()) / 100
                    : Double.parseDouble(t);
        } catch (NumberFormatException e) {
            v = Double.NaN;
        }
        return v >= 0 && v < 1 ? OptionalDouble.of(v) : OptionalDouble.empty();
    }

    /** A byte size: {@code 4096}, {@code 4KiB}, {@code 1 MiB}; never zero. */
    static long size(String text, Location at) {
        long v;
        try {
            v = Units.parseSize(text);
        } catch (IllegalArgumentException e) {
            throw new ProfileException(at, "bad size '" + text.strip() + "' (expected e.g. 4096, 4KiB, 1MiB, 1GiB)");
        }
        if (v < 1) {
            throw new ProfileException(at, "size '" + text.strip() + "' must be at least 1 byte");
        }
        return v;
    }

    static long count(String text, Location at, String what) {
        try {
            long v = Long.parseLong(text.strip());
            if (v < 1) {
                throw new ProfileException(at, what + " '" + text.strip() + "' must be at least 1");
            }
            return v;
        } catch (NumberFormatException e) {
            throw new ProfileException(at, "bad " + what + " '" + text.strip() + "' (expected a whole number)");
        }
    }

    /**
     * {@code any}, {@code X}, {@code X..Y} (inclusive), {@code X..<Y} (Y excluded), {@code X..}, {@code ..Y}.
     * {@code sizes} says whether the bounds are byte sizes or plain counts.
     */
    static Range range(String text, Location at, boolean sizes) {
        return range(text, at, sizes, sizes ? "size" : "batch");
    }

    /** {@link #range(String, Location, boolean)}, {@code what} naming a bound in messages ("rails '0' must be at least 1"). */
    static Range range(String text, Location at, boolean sizes, String what) {
        String t = text.strip();
        if (t.equalsIgnoreCase("any")) {
            return Range.ANY;
        }
        int dots = t.indexOf("..");
        long lo;
        long hi;
        if (dots < 0) {
            lo = bound(t, at, sizes, what);
            hi = lo;
        } else {
            String left = t.substring(0, dots).strip();
            String right = t.substring(dots + 2).strip();
            boolean exclusive = right.startsWith("<");
            if (exclusive) {
                right = right.substring(1).strip();
            }
            lo = left.isEmpty() ? 1 : bound(left, at, sizes, what);
            if (right.isEmpty()) {
                if (exclusive) {
                    throw new ProfileException(at, "range '" + text + "' has '..<' but no upper bound");
                }
                hi = Long.MAX_VALUE;
            } else {
                hi = bound(right, at, sizes, what);
                if (exclusive) {
                    hi--;
                }
            }
            if (hi < lo) {
                throw new ProfileException(
                        at,
                        "empty range '" + text + "': nothing is "
                                + (lo == 1 ? "" : "at least " + fmt(lo, sizes) + " and ")
                                + (exclusive ? "below " + fmt(hi + 1, sizes) : "at most " + fmt(hi, sizes)));
            }
        }
        return new Range(lo, hi);
    }

    private static long bound(String s, Location at, boolean sizes, String what) {
        return sizes ? size(s, at) : count(s, at, what);
    }

    private static String fmt(long v, boolean sizes) {
        return sizes ? Units.formatSize(v) : String.valueOf(v);
    }

    static int pciId(String text, Location at) {
        String t = text.strip();
        if (!PCI_ID.matcher(t).matches()) {
            throw new ProfileException(at, "bad PCI id '" + text + "' (expected 0x and four hex digits, e.g. 0x15b3)");
        }
        return Integer.parseInt(t.substring(2), 16);
    }

    static String firmware(String text, Location at) {
        String t = text.strip();
        if (!FIRMWARE.matcher(t).matches()) {
            throw new ProfileException(
                    at, "bad firmware version '" + text + "' (expected numbers and dots, e.g. 28.39.1002)");
        }
        return t;
    }

    /** Compares dotted versions number by number: 22.43.2566 &lt; 22.100.0. Non-numeric parts compare as 0. */
    static int compareVersions(String a, String b) {
        String[] x = a.strip().split("[.\\-_]");
        String[] y = b.strip().split("[.\\-_]");
        for (int i = 0; i < Math.max(x.length, y.length); i++) {
            long p = i < x.length ? num(x[i]) : 0;
            long q = i < y.length ? num(y[i]) : 0;
            if (p != q) {
                return Long.compare(p, q);
            }
        }
        return 0;
    }

    private static long num(String s) {
        try {
            return Long.parseLong(s.replaceAll("\\D.*$", ""));
        } catch (NumberFormatException e) {
            return 0;
        }
    }

    /**
     * A rate of operations: "2.5M", "800k", "1200000", optionally followed by "ops/s"
     * ("2.5 Mops/s"). Positive.
     */
    static double opsPerSecond(String text, Location at) {
        String t = text.strip().replaceFirst("(?i)\\s*ops/s$", "").strip();
        double scale = 1;
        if (t.endsWith("M") || t.endsWith("m")) {
            scale = 1e6;
            t = t.substring(0, t.length() - 1).strip();
        } else if (t.endsWith("k") || t.endsWith("K")) {
            scale = 1e3;
            t = t.substring(0, t.length() - 1).strip();
        }
        double v;
        try {
            v = Double.parseDouble(t) * scale;
        } catch (NumberFormatException e) {
            throw new ProfileException(
                    at,
                    "bad min-ops-per-second '" + text + "' (expected e.g. 2.5M, 800k or 1200000, "
                            + "optionally with ops/s)");
        }
        if (!(v > 0) || Double.isInfinite(v)) {
            throw new ProfileException(at, "min-ops-per-second '" + text + "' must be positive");
        }
        return v;
    }
}
