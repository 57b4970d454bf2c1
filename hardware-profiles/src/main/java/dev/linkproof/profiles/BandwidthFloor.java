package dev.linkproof.profiles;

import dev.linkproof.transfer.Units;
import java.math.BigDecimal;
import java.util.Locale;

/**
 * A minimum bandwidth: an absolute figure ({@code 45 GB/s}), a fraction of the profile's link rate
 * ({@code 0.90 × link}), a fraction of the host memory-copy baseline measured at the start of the
 * run ({@code 0.10 × memcpy}), or, for the aggregate of a point that ran several rails, a fraction
 * of its rails' link rates summed ({@code 0.90 × links}).
 */
public sealed interface BandwidthFloor {
    /** The floor in GB/s (10^9 bytes per second). */
    double resolve(Context context);

    /** Why the floor is what it is, for a verdict: "0.90 × 400 Gb/s link"; empty for an absolute one. */
    String explain(Context context);

    /** How it was written, normalised: "45.0 GB/s", "0.90 × link", "0.10 × memcpy", "0.90 × links". */
    String written();

    /**
     * What a floor is resolved against.
     *
     * @param linkGbps   the profile's link rate ({@code match.nic.link-rate}), NaN when it states none
     * @param memcpyGBps the memory-copy baseline, NaN when it was not measured
     * @param rails      how many rails the judged point ran (1 for one pair); {@code × links} multiplies by it
     */
    record Context(double linkGbps, double memcpyGBps, int rails) {
        public Context(double linkGbps, double memcpyGBps) {
            this(linkGbps, memcpyGBps, 1);
        }

        /** The same, for a point of {@code n} rails. */
        public Context withRails(int n) {
            return new Context(linkGbps, memcpyGBps, n);
        }
    }

    record Absolute(double gbps) implements BandwidthFloor {
        @Override
        public double resolve(Context c) {
            return gbps;
        }

        @Override
        public String explain(Context c) {
            return "";
        }

        @Override
        public String written() {
            return Units.formatGBps(gbps);
        }
    }

    /** {@code fraction} of the link's bit rate, converted to bytes: 0.90 × 400 Gb/s = 45.0 GB/s. */
    record OfLink(double fraction) implements BandwidthFloor {
        @Override
        public double resolve(Context c) {
            return fraction * c.linkGbps() / 8;
        }

        @Override
        public String explain(Context c) {
            return formatFraction(fraction) + " × " + gbits(c.linkGbps()) + " link";
        }

        @Override
        public String written() {
            return formatFraction(fraction) + " × link";
        }
    }

    /**
     * {@code fraction} of the link rates of a point's rails, summed: every rail runs on a NIC of the
     * profile's kind at its {@code link-rate} (the resource plan admits no other), so 8 rails at 0.90 ×
     * links = 0.90 × 8 × 400 Gb/s = 360 GB/s.
     */
    record OfLinks(double fraction) implements BandwidthFloor {
        @Override
        public double resolve(Context c) {
            return fraction * c.rails() * c.linkGbps() / 8;
        }

        @Override
        public String explain(Context c) {
            return formatFraction(fraction) + " × " + c.rails() + " × " + gbits(c.linkGbps()) + " links";
        }

        @Override
        public String written() {
            return formatFraction(fraction) + " × links";
        }
    }

    record OfMemcpy(double fraction) implements BandwidthFloor {
        @Override
        public double resolve(Context c) {
            return fraction * c.memcpyGBps();
        }

        @Override
        public String explain(Context c) {
            return formatFraction(fraction) + " × memcpy baseline " + Units.formatGBps(c.memcpyGBps());
        }

        @Override
        public String written() {
            return formatFraction(fraction) + " × memcpy";
        }
    }

    /** 0.9 → "0.90", 0.925 → "0.925". */
    static String formatFraction(double f) {
        BigDecimal d = BigDecimal.valueOf(f).stripTrailingZeros();
        return d.scale() <= 2 ? String.format(Locale.ROOT, "%.2f", f) : d.toPlainString();
    }

    /** 400 → "400 Gb/s", 2.5 → "2.5 Gb/s". */
    static String gbits(double gbps) {
        return BigDecimal.valueOf(gbps).stripTrailingZeros().toPlainString() + " Gb/s";
    }
}
