package dev.linkproof.transfer;

import java.util.Map;
import java.util.TreeMap;

/**
 * Everything both ranks need to run one sweep point: the initiator builds it and sends it to the
 * target, which validates it again, so the two never run different parameters. {@code connections}
 * counts queue pairs, connections or endpoints; each transfer of a batch has its own slot.
 *
 * @param pointId  stable identity of the point; it seeds the validation pattern
 * @param size     bytes per transfer; for an atomic op 8, the counter's width
 * @param offset   misalignment of every slot's start, in bytes (0..4095)
 */
public record TransferSpec(
        String pointId,
        String transport,
        Op op,
        Mode mode,
        long size,
        int batch,
        int connections,
        int pipelineDepth,
        int iterations,
        int warmup,
        Layout layout,
        long offset,
        MemoryPlacement initiatorMemory,
        MemoryPlacement targetMemory,
        Map<String, String> settings) {

    public static final long MAX_SIZE = 1L << 30;
    public static final long MAX_REGION = Integer.MAX_VALUE;
    public static final int MAX_BATCH = 65_536;
    public static final int MAX_CONNECTIONS = 256;
    public static final int MAX_PIPELINE = 1024;

    public TransferSpec {
        require(pointId != null && !pointId.isBlank(), "pointId is required");
        require(transport != null && !transport.isBlank(), "transport is required");
        require(op != null, "op is required");
        require(mode != null, "mode is required");
        require(layout != null, "layout is required");
        require(initiatorMemory != null && targetMemory != null, "memory placement is required on both sides");
        range("size", size, 1, MAX_SIZE);
        range("batch", batch, 1, MAX_BATCH);
        range("connections", connections, 1, MAX_CONNECTIONS);
        range("pipeline depth", pipelineDepth, 1, MAX_PIPELINE);
        range("iterations", iterations, 1, 1_000_000_000L);
        range("warmup", warmup, 0, 1_000_000_000L);
        range("offset", offset, 0, 4095);
        if (op.atomic()) {
            // An atomic works on one 8-byte counter: there is no size to sweep, and hardware and UCX
            // alike refuse a counter that is not naturally aligned.
            require(
                    size == Op.ATOMIC_BYTES,
                    op.label() + " is an 8-byte atomic: size must be 8, was " + size
                            + " (a slot is one counter; sweep batch for more counters)");
            require(
                    offset % Op.ATOMIC_BYTES == 0,
                    op.label() + " needs 8-byte aligned counters: offset must be a multiple of 8, was " + offset);
        }
        require(
                mode != Mode.LATENCY || pipelineDepth == 1,
                "latency mode is stop-and-wait: pipeline depth must be 1, was " + pipelineDepth);
        settings = settings == null ? Map.of() : java.util.Collections.unmodifiableMap(new TreeMap<>(settings));
        long region = new SlotLayout(layout, size, batch, offset).regionBytes();
        require(
                region <= MAX_REGION,
                "region of " + region + " bytes (size " + size + " × batch " + batch + ") exceeds the limit of "
                        + MAX_REGION + " bytes");
    }

    public SlotLayout slots() {
        return new SlotLayout(layout, size, batch, offset);
    }

    /** Bytes moved by one iteration. */
    public long bytesPerIteration() {
        return size * batch;
    }

    public TransferSpec withPointId(String id) {
        return new TransferSpec(
                id,
                transport,
                op,
                mode,
                size,
                batch,
                connections,
                pipelineDepth,
                iterations,
                warmup,
                layout,
                offset,
                initiatorMemory,
                targetMemory,
                settings);
    }

    public TransferSpec withTransport(String id) {
        return new TransferSpec(
                pointId,
                id,
                op,
                mode,
                size,
                batch,
                connections,
                pipelineDepth,
                iterations,
                warmup,
                layout,
                offset,
                initiatorMemory,
                targetMemory,
                settings);
    }

    /** This spec with {@code defaults} under its own settings: its own keys win. */
    public TransferSpec withDefaultSettings(Map<String, String> defaults) {
        if (defaults.isEmpty()) {
            return this;
        }
        Map<String, String> merged = new TreeMap<>(defaults);
        merged.putAll(settings);
        return new TransferSpec(
                pointId,
                transport,
                op,
                mode,
                size,
                batch,
                connections,
                pipelineDepth,
                iterations,
                warmup,
                layout,
                offset,
                initiatorMemory,
                targetMemory,
                merged);
    }

    /** This spec with {@code overrides} in its settings, replacing what it had for their keys (a rail's device or addresses). */
    public TransferSpec withSettings(Map<String, String> overrides) {
        if (overrides.isEmpty()) {
            return this;
        }
        Map<String, String> merged = new TreeMap<>(settings);
        merged.putAll(overrides);
        return new TransferSpec(
                pointId,
                transport,
                op,
                mode,
                size,
                batch,
                connections,
                pipelineDepth,
                iterations,
                warmup,
                layout,
                offset,
                initiatorMemory,
                targetMemory,
                merged);
    }

    /** This spec with other memory placements (the engine maps a point's {@code gpu:k} to the GPU a profile provides). */
    public TransferSpec withMemory(MemoryPlacement initiator, MemoryPlacement target) {
        return new TransferSpec(
                pointId,
                transport,
                op,
                mode,
                size,
                batch,
                connections,
                pipelineDepth,
                iterations,
                warmup,
                layout,
                offset,
                initiator,
                target,
                settings);
    }

    public TransferSpec withIterations(int newIterations, int newWarmup) {
        return new TransferSpec(
                pointId,
                transport,
                op,
                mode,
                size,
                batch,
                connections,
                pipelineDepth,
                newIterations,
                newWarmup,
                layout,
                offset,
                initiatorMemory,
                targetMemory,
                settings);
    }

    /** A builder with the defaults a user would expect: write, 1 transfer, 1 connection, stop-and-wait. */
    public static Builder builder() {
        return new Builder();
    }

    private static void require(boolean ok, String message) {
        if (!ok) {
            throw new IllegalArgumentException(message);
        }
    }

    private static void range(String what, long value, long min, long max) {
        if (value < min || value > max) {
            throw new IllegalArgumentException(what + " " + value + " out of range " + min + ".." + max);
        }
    }

    public static final class Builder {
        private String pointId = "adhoc";
        private String transport = "tcp";
        private Op op = Op.WRITE;
        private Mode mode = Mode.BANDWIDTH;
        private long size = 65536;
        private int batch = 1;
        private int connections = 1;
        private int pipelineDepth = 1;
        private int iterations = 100;
        private int warmup = 10;
        private Layout layout = Layout.CONTIGUOUS;
        private long offset;
        private MemoryPlacement initiatorMemory = MemoryPlacement.HOST;
        private MemoryPlacement targetMemory = MemoryPlacement.HOST;
        private Map<String, String> settings = Map.of();

        public Builder pointId(String v) {
            pointId = v;
            return this;
        }

        public Builder transport(String v) {
            transport = v;
            return this;
        }

        public Builder op(Op v) {
            op = v;
            return this;
        }

        public Builder mode(Mode v) {
            mode = v;
            return this;
        }

        public Builder size(long v) {
            size = v;
            return this;
        }

        public Builder batch(int v) {
            batch = v;
            return this;
        }

        public Builder connections(int v) {
            connections = v;
            return this;
        }

        public Builder pipelineDepth(int v) {
            pipelineDepth = v;
            return this;
        }

        public Builder iterations(int v) {
            iterations = v;
            return this;
        }

        public Builder warmup(int v) {
            warmup = v;
            return this;
        }

        public Builder layout(Layout v) {
            layout = v;
            return this;
        }

        public Builder offset(long v) {
            offset = v;
            return this;
        }

        public Builder initiatorMemory(MemoryPlacement v) {
            initiatorMemory = v;
            return this;
        }

        public Builder targetMemory(MemoryPlacement v) {
            targetMemory = v;
            return this;
        }

        public Builder settings(Map<String, String> v) {
            settings = v;
            return this;
        }

        public TransferSpec build() {
            return new TransferSpec(
                    pointId,
                    transport,
                    op,
                    mode,
                    size,
                    batch,
                    connections,
                    pipelineDepth,
                    iterations,
                    warmup,
                    layout,
                    offset,
                    initiatorMemory,
                    targetMemory,
                    settings);
        }
    }
}
