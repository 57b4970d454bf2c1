package dev.linkproof.fleet.blame;

import dev.linkproof.fleet.plan.Pair;
import java.time.Instant;
import java.util.Locale;
import java.util.Optional;

/**
 * One run a verdict rests on: the pair and point, its fault (empty: this run passed — a verdict
 * lists every run of the pairs it rests on, the good ones too, so a reader sees the majority), its
 * figures (NaN where not measured), the fleet's reference it was held to (the median bandwidth or
 * lowest latency for an outlier, NaN otherwise), which part of the run it came from and when.
 */
public record Evidence(
        Pair pair,
        Point point,
        Optional<PairFault> fault,
        double bandwidthGBps,
        double latencyUs,
        double fleetReference,
        Stage stage,
        long atMillis) {

    public boolean failed() {
        return fault.isPresent();
    }

    public boolean retest() {
        return stage == Stage.RETEST;
    }

    /** "lpn1->lpn2 @ write 1 MiB [confirmation 10:04:05Z]: SLOW 3.10 GB/s (fleet 10.00)". */
    public String describe() {
        StringBuilder s = new StringBuilder(pair.label())
                .append(" @ ")
                .append(point.name())
                .append(" [")
                .append(stage.slug());
        if (atMillis > 0) {
            s.append(' ')
                    .append(Instant.ofEpochMilli(atMillis).toString().substring(11, 19))
                    .append('Z');
        }
        s.append("]: ").append(fault.map(Enum::name).orElse("passed"));
        if (!Double.isNaN(bandwidthGBps)) {
            s.append(String.format(Locale.ROOT, " %.2f GB/s", bandwidthGBps));
        }
        if (!Double.isNaN(latencyUs)) {
            s.append(String.format(Locale.ROOT, " %.1f µs", latencyUs));
        }
        if (!Double.isNaN(fleetReference)) {
            s.append(String.format(Locale.ROOT, " (fleet %.2f)", fleetReference));
        }
        return s.toString();
    }
}
