package dev.linkproof.transfer.measure;

import dev.linkproof.transfer.TransferSpec;
import dev.linkproof.transfer.Units;
import dev.linkproof.transfer.validate.Validation;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;

/**
 * What one sweep point measured: the exact spec it ran, the timing, the validation, both ranks' stack.
 *
 * @param bytes       bytes moved in the timed loop (size × batch × iterations); a GB is 10^9 of them
 * @param targetHost  how busy other processes kept the target's host, as its agent measured it (empty
 *                    where it could not); on a local pair that is this host, the initiator an "other"
 * @param rails       each rail's own result, in rail order, for a point that ran several at once; this
 *                    measurement is then their aggregate ({@link #ofRails}). Empty for one pair
 */
public record Measurement(
        TransferSpec spec,
        long bytes,
        long totalNanos,
        double bandwidthGBps,
        LatencyStats latency,
        Validation validation,
        Map<String, String> environment,
        java.util.List<Phases.Phase> phases,
        Optional<HostContention> targetHost,
        java.util.List<RailResult> rails) {

    public Measurement {
        rails = java.util.List.copyOf(rails);
    }

    public Measurement(
            TransferSpec spec,
            long bytes,
            long totalNanos,
            double bandwidthGBps,
            LatencyStats latency,
            Validation validation,
            Map<String, String> environment,
            java.util.List<Phases.Phase> phases,
            Optional<HostContention> targetHost) {
        this(
                spec,
                bytes,
                totalNanos,
                bandwidthGBps,
                latency,
                validation,
                environment,
                phases,
                targetHost,
                java.util.List.of());
    }

    public Measurement(
            TransferSpec spec,
            long bytes,
            long totalNanos,
            double bandwidthGBps,
            LatencyStats latency,
            Validation validation,
            Map<String, String> environment,
            java.util.List<Phases.Phase> phases) {
        this(spec, bytes, totalNanos, bandwidthGBps, latency, validation, environment, phases, Optional.empty());
    }

    /** This measurement with the target host's load the agent reported on release. */
    public Measurement withTargetHost(Optional<HostContention> host) {
        return new Measurement(
                spec, bytes, totalNanos, bandwidthGBps, latency, validation, environment, phases, host, rails);
    }

    public static Measurement of(
            TransferSpec spec,
            dev.linkproof.transfer.measure.Timing timing,
            Validation validation,
            Map<String, String> environment) {
        return of(spec, timing, validation, environment, java.util.List.of());
    }

    public static Measurement of(
            TransferSpec spec,
            dev.linkproof.transfer.measure.Timing timing,
            Validation validation,
            Map<String, String> environment,
            java.util.List<Phases.Phase> phases) {
        long bytes = spec.bytesPerIteration() * timing.iterations();
        double gbps = timing.totalNanos() == 0 ? 0 : bytes / (double) timing.totalNanos();
        return new Measurement(
                spec,
                bytes,
                timing.totalNanos(),
                gbps,
                timing.latency(),
                validation,
                Map.copyOf(environment),
                java.util.List.copyOf(phases));
    }

    /**
     * The aggregate of rails that ran at once: all their bytes over the wall time from the first
     * rail's timed-loop start to the last one's end (not a sum of rates, which may not have
     * overlapped); the latency of the slowest rail (highest average); a validation that names the
     * rails that failed; the first rail's environment and phases, with {@code rails} and each rail's
     * label added to the environment; the target host's load as the first rail that has one saw it.
     *
     * @param spec the point's spec as its rails share it (its point id)
     */
    public static Measurement ofRails(TransferSpec spec, java.util.List<RailResult> rails) {
        if (rails.isEmpty()) {
            throw new IllegalArgumentException("a point of rails needs at least one");
        }
        long bytes = 0;
        long first = Long.MAX_VALUE;
        long last = Long.MIN_VALUE;
        RailResult slowest = rails.get(0);
        java.util.List<String> labels = new java.util.ArrayList<>();
        java.util.List<Validation> validations = new java.util.ArrayList<>();
        Map<String, String> env =
                new java.util.LinkedHashMap<>(rails.get(0).measurement().environment());
        env.put("rails", Integer.toString(rails.size()));
        Optional<HostContention> host = Optional.empty();
        for (RailResult r : rails) {
            Measurement m = r.measurement();
            bytes += m.bytes();
            first = Math.min(first, r.loopStartNanos());
            last = Math.max(last, r.loopEndNanos());
            if (m.latency().averageNanos() > slowest.measurement().latency().averageNanos()) {
                slowest = r;
            }
            labels.add(r.name());
            validations.add(m.validation());
            env.put("rail." + r.index(), r.label());
            host = host.isPresent() ? host : m.targetHost();
        }
        long window = Math.max(0, last - first);
        double gbps = window == 0 ? 0 : bytes / (double) window;
        return new Measurement(
                spec,
                bytes,
                window,
                gbps,
                slowest.measurement().latency(),
                Validation.ofRails(labels, validations),
                Map.copyOf(env),
                rails.get(0).measurement().phases(),
                host,
                rails);
    }

    /** The rail with the lowest bandwidth, where the point ran several. */
    public Optional<RailResult> slowestRail() {
        return rails.stream()
                .min(java.util.Comparator.comparingDouble(r -> r.measurement().bandwidthGBps()));
    }

    /**
     * Operations (messages) per second over the timed loop, for every op: iterations × batch transfers
     * of {@code size} bytes over the loop's time, as perftest's Mpps, ib_atomic_bw and ucx_perftest
     * count them. Connections share a batch, so they do not multiply it; a transport that merges,
     * chunks or stripes transfers into other work requests still counts the transfers the spec names.
     * For a point of rails it is the aggregate's: all rails' transfers over the first start to the last
     * end. It is an atomic point's figure, where bandwidth (8 bytes an op) says little, and the one a
     * NIC's vendor publishes for small messages.
     */
    public double opsPerSecond() {
        return totalNanos == 0 ? 0 : (double) bytes / spec.size() / totalNanos * 1e9;
    }

    public boolean isValid() {
        return validation.passed();
    }

    /**
     * "3.21 GB/s · 784 kops/s · 20.4 µs" (bandwidth, message rate, latency per transfer) or, in
     * latency mode, "p50 12.1 µs · p99 30.2 µs · max 81.0 µs"; an atomic point gives its operations
     * per second instead of bandwidth ("4.12 Mops/s · 0.243 µs"), and in latency mode both. A
     * latency-mode point of another op gives no rate: stop-and-wait, its rate is one over its average
     * latency, and the results record has it.
     */
    public String summary() {
        if (spec.op().atomic() && latency.hasPercentiles()) {
            return String.format(
                    Locale.ROOT,
                    "%s · p50 %s · p99 %s · max %s",
                    Units.formatOps(opsPerSecond()),
                    Units.formatMicros(latency.p50Nanos() / 1e3),
                    Units.formatMicros(latency.p99Nanos() / 1e3),
                    Units.formatMicros(latency.maxNanos() / 1e3));
        }
        if (spec.op().atomic()) {
            return Units.formatOps(opsPerSecond()) + " · " + Units.formatMicros(latency.averageNanos() / 1e3);
        }
        if (latency.hasPercentiles()) {
            return String.format(
                    Locale.ROOT,
                    "p50 %s · p99 %s · max %s",
                    Units.formatMicros(latency.p50Nanos() / 1e3),
                    Units.formatMicros(latency.p99Nanos() / 1e3),
                    Units.formatMicros(latency.maxNanos() / 1e3));
        }
        return Units.formatGBps(bandwidthGBps) + " · " + Units.formatOps(opsPerSecond()) + " · "
                + Units.formatMicros(latency.averageNanos() / 1e3);
    }
}
