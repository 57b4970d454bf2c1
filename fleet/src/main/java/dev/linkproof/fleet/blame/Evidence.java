package dev.linkproof.fleet.blame;

import dev.linkproof.fleet.plan.Pair;
import java.util.Locale;

/**
 * One (pair, point) a verdict rests on: its fault, its figures (NaN where not measured), the
 * fleet's reference it was held to (the median bandwidth or lowest latency for an outlier, NaN
 * otherwise), and whether it came from a retest.
 */
public record Evidence(Pair pair, Point point, PairFault fault, double bandwidthGBps, double latencyUs, double fleetReference,
        boolean retest) {

    /** "lpn1->lpn2 @ write 1MiB: SLOW 3.10 GB/s (fleet 10.00) [retest]". */
    public String describe() {
        StringBuilder s = new StringBuilder(pair.label()).append(" @ ").append(point.name()).append(": ").append(fault);
        if (!Double.isNaN(bandwidthGBps)) {
            s.append(String.format(Locale.ROOT, " %.2f GB/s", bandwidthGBps));
        }
        if (!Double.isNaN(latencyUs)) {
            s.append(String.format(Locale.ROOT, " %.1f µs", latencyUs));
        }
        if (!Double.isNaN(fleetReference)) {
            s.append(String.format(Locale.ROOT, " (fleet %.2f)", fleetReference));
        }
        return retest ? s.append(" [retest]").toString() : s.toString();
    }
}
