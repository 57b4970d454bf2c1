package dev.linkproof.transfer.probe;

import dev.linkproof.transfer.Units;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.util.Arrays;
import java.util.Locale;

/**
 * How fast this host copies memory to memory, counted as a transfer's bytes are (GB = 10^9).
 * Loopback profiles state their bandwidth criteria as fractions of it, so a criterion means the same
 * on a quiet workstation and on a shared CI runner: a slow machine slows both alike.
 *
 * @param bytes   bytes copied per round
 * @param rounds  timed rounds (one untimed round before them faults every page in)
 */
public record MemoryCopyBaseline(long bytes, int rounds, double bestGBps, double medianGBps) {
    public static final long DEFAULT_BYTES = 64L << 20;
    public static final int DEFAULT_ROUNDS = 5;

    public MemoryCopyBaseline {
        if (bytes <= 0 || rounds <= 0 || !(bestGBps > 0) || !(medianGBps > 0)) {
            throw new IllegalArgumentException("a memory-copy baseline needs positive bytes, rounds and rates");
        }
    }

    /** 64 MiB, best of 5: about 50 ms on a laptop, a few hundred on a loaded runner. */
    public static MemoryCopyBaseline measure() {
        return measure(DEFAULT_BYTES, DEFAULT_ROUNDS);
    }

    /** Copies {@code bytes} between two page-aligned off-heap segments with {@link MemorySegment#copy}. */
    public static MemoryCopyBaseline measure(long bytes, int rounds) {
        if (bytes < 4096 || rounds < 1) {
            throw new IllegalArgumentException(
                    "baseline needs at least 4096 bytes and 1 round, got " + bytes + " and " + rounds);
        }
        long[] nanos = new long[rounds];
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment src = arena.allocate(bytes, 4096);
            MemorySegment dst = arena.allocate(bytes, 4096);
            src.fill((byte) 0x5a);
            dst.fill((byte) 0);
            MemorySegment.copy(src, 0, dst, 0, bytes);
            for (int i = 0; i < rounds; i++) {
                src.set(ValueLayout.JAVA_BYTE, i % bytes, (byte) i);
                long t0 = System.nanoTime();
                MemorySegment.copy(src, 0, dst, 0, bytes);
                nanos[i] = Math.max(1, System.nanoTime() - t0);
                if (dst.get(ValueLayout.JAVA_BYTE, i % bytes) != (byte) i) {
                    throw new IllegalStateException("memory copy baseline: copy did not land");
                }
            }
        }
        Arrays.sort(nanos);
        return new MemoryCopyBaseline(bytes, rounds, bytes / (double) nanos[0], bytes / (double) nanos[rounds / 2]);
    }

    /** "9.81 GB/s (best of 5 × 64 MiB MemorySegment.copy, median 9.20 GB/s)". */
    public String describe() {
        return String.format(
                Locale.ROOT,
                "%s (best of %d × %s MemorySegment.copy, median %s)",
                Units.formatGBps(bestGBps),
                rounds,
                Units.formatSize(bytes),
                Units.formatGBps(medianGBps));
    }
}
