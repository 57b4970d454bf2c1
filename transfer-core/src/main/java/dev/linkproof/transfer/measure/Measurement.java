package dev.linkproof.transfer.measure;

import dev.linkproof.transfer.TransferSpec;
import dev.linkproof.transfer.Units;
import dev.linkproof.transfer.validate.Validation;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;

/**
 * What one sweep point measured: the exact spec it ran, the timing, the validation outcome, and the
 * stack it ran on (both ranks).
 *
 * @param bytes           bytes moved in the timed loop (size × batch × iterations)
 * @param totalNanos      whole-loop time of the timed iterations
 * @param bandwidthGBps   bytes / total, GB = 10^9
 * @param environment     facts about both ranks (hosts, JDK, transport details), for reports
 * @param phases          when provisioning, connecting, warmup, the timed loop and verification ran
 * @param targetHost      how busy other processes kept the target's host over the point, as its agent
 *                        measured it (empty where it could not); on a local pair it is this host, seen
 *                        from the agent, so the initiator is among the "others"
 */
public record Measurement(TransferSpec spec, long bytes, long totalNanos, double bandwidthGBps,
                          LatencyStats latency, Validation validation, Map<String, String> environment,
                          java.util.List<Phases.Phase> phases, Optional<HostContention> targetHost) {

    public Measurement(TransferSpec spec, long bytes, long totalNanos, double bandwidthGBps, LatencyStats latency,
                       Validation validation, Map<String, String> environment, java.util.List<Phases.Phase> phases) {
        this(spec, bytes, totalNanos, bandwidthGBps, latency, validation, environment, phases, Optional.empty());
    }

    /** This measurement with the target host's load the agent reported on release. */
    public Measurement withTargetHost(Optional<HostContention> host) {
        return new Measurement(spec, bytes, totalNanos, bandwidthGBps, latency, validation, environment, phases, host);
    }

    public static Measurement of(TransferSpec spec, dev.linkproof.transfer.measure.Timing timing,
                                 Validation validation, Map<String, String> environment) {
        return of(spec, timing, validation, environment, java.util.List.of());
    }

    public static Measurement of(TransferSpec spec, dev.linkproof.transfer.measure.Timing timing,
                                 Validation validation, Map<String, String> environment, java.util.List<Phases.Phase> phases) {
        long bytes = spec.bytesPerIteration() * timing.iterations();
        double gbps = timing.totalNanos() == 0 ? 0 : bytes / (double) timing.totalNanos();
        return new Measurement(spec, bytes, timing.totalNanos(), gbps, timing.latency(), validation,
                Map.copyOf(environment), java.util.List.copyOf(phases));
    }

    public boolean isValid() {
        return validation.passed();
    }

    /** "3.21 GB/s · 20.4 µs" or, in latency mode, "p50 12.1 µs · p99 30.2 µs · max 81.0 µs". */
    public String summary() {
        if (latency.hasPercentiles()) {
            return String.format(Locale.ROOT, "p50 %s · p99 %s · max %s",
                    Units.formatMicros(latency.p50Nanos() / 1e3), Units.formatMicros(latency.p99Nanos() / 1e3),
                    Units.formatMicros(latency.maxNanos() / 1e3));
        }
        return Units.formatGBps(bandwidthGBps) + " · " + Units.formatMicros(latency.averageNanos() / 1e3);
    }
}
