package dev.linkproof.profiles;

import dev.linkproof.transfer.Mode;
import dev.linkproof.transfer.Op;
import dev.linkproof.transfer.TransferSpec;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.EnumSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalDouble;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.stream.Collectors;

/**
 * What points a criterion covers (op × memory × mode × size range × batch range × rails × transport × settings) and
 * the thresholds it sets for them (docs/profiles.md, "Criteria"); the parser rejects two criteria setting one
 * threshold for a point. On a point of several rails the per-pair thresholds judge each rail, not the aggregate: a
 * per-pair figure says what one NIC must do, and 8 rails' aggregate held to it would pass a node whose rails mostly
 * idle (docs/profiles.md, "Points that ran several rails").
 *
 * @param rails how many rails a point ran at once (1 for one pair), {@link Range#ANY} by default
 */
public record Criterion(
        String name,
        Set<Op> ops,
        List<MemoryPair> memory,
        Optional<Mode> mode,
        Range sizes,
        Range batch,
        Range rails,
        Set<String> transports,
        Map<String, SettingMatch> settings,
        Optional<BandwidthFloor> minBandwidth,
        Optional<BandwidthFloor> minAggregateBandwidth,
        OptionalDouble minRailBalance,
        Optional<Duration> maxAverageLatency,
        Optional<Duration> maxP99Latency,
        OptionalDouble maxDropPercent,
        OptionalDouble minOpsPerSecond,
        Location location) {

    /**
     * The ops a criterion without {@code op} (or with {@code op: any}) covers: those that move bytes.
     * Atomics are named to be covered, so a bandwidth floor written for writes and reads never judges
     * an 8-byte atomic by GB/s.
     */
    public static final Set<Op> DATA_OPS =
            java.util.Collections.unmodifiableSet(EnumSet.of(Op.WRITE, Op.READ, Op.SEND, Op.WRITE_WITH_IMM));

    /** The thresholds a criterion can set; two criteria overlap only if they share one. */
    public enum Threshold {
        MIN_BANDWIDTH("min-bandwidth"),
        MIN_AGGREGATE_BANDWIDTH("min-aggregate-bandwidth"),
        MIN_RAIL_BALANCE("min-rail-balance"),
        MAX_AVG_LATENCY("max-avg-latency"),
        MAX_P99_LATENCY("max-p99-latency"),
        MAX_DROP("max-drop"),
        MIN_OPS_PER_SECOND("min-ops-per-second");

        private final String key;

        Threshold(String key) {
            this.key = key;
        }

        /** The key it is written with in a profile. */
        public String key() {
            return key;
        }
    }

    public Criterion {
        ops = ops.isEmpty() ? EnumSet.noneOf(Op.class) : EnumSet.copyOf(ops);
        ops = java.util.Collections.unmodifiableSet(ops);
        memory = List.copyOf(memory);
        transports = Collections.unmodifiableSet(new TreeSet<>(transports));
        settings = Collections.unmodifiableMap(new TreeMap<>(settings));
    }

    public Set<Threshold> thresholds() {
        Set<Threshold> t = EnumSet.noneOf(Threshold.class);
        minBandwidth.ifPresent(x -> t.add(Threshold.MIN_BANDWIDTH));
        minAggregateBandwidth.ifPresent(x -> t.add(Threshold.MIN_AGGREGATE_BANDWIDTH));
        if (minRailBalance.isPresent()) {
            t.add(Threshold.MIN_RAIL_BALANCE);
        }
        maxAverageLatency.ifPresent(x -> t.add(Threshold.MAX_AVG_LATENCY));
        maxP99Latency.ifPresent(x -> t.add(Threshold.MAX_P99_LATENCY));
        if (maxDropPercent.isPresent()) {
            t.add(Threshold.MAX_DROP);
        }
        if (minOpsPerSecond.isPresent()) {
            t.add(Threshold.MIN_OPS_PER_SECOND);
        }
        return t;
    }

    /** Whether this criterion covers the point the spec describes (its size and batch included), run on one pair. */
    public boolean appliesTo(TransferSpec spec) {
        return appliesTo(spec, 1);
    }

    /**
     * Whether this criterion covers the point the spec describes (its size and batch included), run
     * on {@code railCount} rails at once (1 for one pair).
     */
    public boolean appliesTo(TransferSpec spec, int railCount) {
        return coversShape(spec, railCount) && sizes.contains(spec.size());
    }

    /**
     * Whether it covers the spec's op, memory, mode, batch, transport and settings, on one pair,
     * whatever the size (for curve rules).
     */
    public boolean coversShape(TransferSpec spec) {
        return coversShape(spec, 1);
    }

    /** {@link #coversShape(TransferSpec)} for a point of {@code railCount} rails. */
    public boolean coversShape(TransferSpec spec, int railCount) {
        return ops.contains(spec.op())
                && memory.stream().anyMatch(m -> m.matches(spec.initiatorMemory(), spec.targetMemory()))
                && mode.map(m -> m == spec.mode()).orElse(true)
                && batch.contains(spec.batch())
                && rails.contains(railCount)
                && (transports.isEmpty() || transports.contains(spec.transport()))
                && settings.entrySet().stream()
                        .allMatch(e -> e.getValue()
                                .matches(Optional.ofNullable(spec.settings().get(e.getKey()))));
    }

    /**
     * Whether some point is covered by both criteria (threshold kinds aside). Every dimension is
     * independent, so they overlap when they overlap in each: a criterion for {@code transport: tcp}
     * and one for {@code transport: ucx} never do, nor do {@code UCX_TLS: shm} and {@code UCX_TLS: {not: shm}}.
     */
    public boolean overlaps(Criterion o) {
        return ops.stream().anyMatch(o.ops::contains)
                && memory.stream().anyMatch(m -> o.memory.stream().anyMatch(m::overlaps))
                && (mode.isEmpty() || o.mode.isEmpty() || mode.equals(o.mode))
                && sizes.overlaps(o.sizes)
                && batch.overlaps(o.batch)
                && rails.overlaps(o.rails)
                && (transports.isEmpty()
                        || o.transports.isEmpty()
                        || transports.stream().anyMatch(o.transports::contains))
                && settings.entrySet().stream().allMatch(e -> {
                    SettingMatch other = o.settings.get(e.getKey());
                    return other == null || e.getValue().overlaps(other);
                });
    }

    /** "ucx · UCX_TLS=tcp", "" when it covers every transport with any settings. */
    public String describeTransport() {
        List<String> parts = new ArrayList<>();
        if (!transports.isEmpty()) {
            parts.add(String.join(", ", transports));
        }
        settings.forEach((k, v) -> parts.add(v.describe(k)));
        return String.join(" · ", parts);
    }

    /**
     * "write, read · host · sizes 8 MiB..64 MiB · batch 1", then " · rails 8" and " · transport ucx ·
     * UCX_TLS=tcp" when scoped.
     */
    public String describeSelector() {
        List<String> parts = new ArrayList<>();
        parts.add(
                ops.equals(DATA_OPS)
                        ? "any op"
                        : ops.size() == Op.values().length
                                ? "any op, atomics included"
                                : ops.stream().map(Op::label).collect(Collectors.joining(", ")));
        parts.add(memory.stream().map(MemoryPair::toString).collect(Collectors.joining(", ")));
        mode.ifPresent(m -> parts.add(m.name().toLowerCase(Locale.ROOT) + " mode"));
        parts.add("sizes " + sizes.describeSizes());
        parts.add("batch " + batch.describeCounts());
        if (!rails.isAny()) {
            parts.add("rails " + rails.describeCounts());
        }
        String transport = describeTransport();
        if (!transport.isEmpty()) {
            parts.add("transport " + transport);
        }
        return String.join(" · ", parts);
    }
}
