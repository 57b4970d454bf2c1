package dev.linkproof.transfer.validate;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;

/**
 * The validation pattern: every 8-byte word is a function of (rank, point, slot, generation) and
 * of its own index, so no two slots, points or passes carry the same bytes, a stale or misplaced
 * slot is caught, and any byte can be regenerated on its own to find the first bad offset.
 * Words are written little-endian, so the byte at offset i is byte (i mod 8) of word i / 8 on
 * every host.
 */
public final class Pattern {
    private static final ValueLayout.OfLong WORD = ValueLayout.JAVA_LONG_UNALIGNED.withOrder(ByteOrder.LITTLE_ENDIAN);
    private static final long GOLDEN = 0x9E3779B97F4A7C15L;

    private Pattern() {}

    /** Seed of one slot's pattern. */
    public static long seed(int rank, long pointHash, int slot, int generation) {
        long s = mix(pointHash ^ GOLDEN);
        s = mix(s ^ ((long) rank << 56) ^ ((long) generation << 32) ^ (slot & 0xFFFFFFFFL));
        return s;
    }

    /** A 64-bit hash of a point id, stable across JVMs and hosts. */
    public static long pointHash(String pointId) {
        long h = 0xCBF29CE484222325L;
        for (byte b : pointId.getBytes(StandardCharsets.UTF_8)) {
            h = (h ^ (b & 0xFF)) * 0x100000001B3L;
        }
        return mix(h);
    }

    /** Fills {@code length} bytes at {@code offset} of {@code segment} with the pattern of {@code seed}. */
    public static void fill(MemorySegment segment, long offset, long length, long seed) {
        long words = length >>> 3;
        for (long w = 0; w < words; w++) {
            segment.set(WORD, offset + (w << 3), word(seed, w));
        }
        long tail = length & 7;
        if (tail != 0) {
            long last = word(seed, words);
            long base = offset + (words << 3);
            for (int i = 0; i < tail; i++) {
                segment.set(ValueLayout.JAVA_BYTE, base + i, (byte) (last >>> (i << 3)));
            }
        }
    }

    /** The expected byte at {@code index} of a slot filled with {@code seed}. */
    public static byte byteAt(long seed, long index) {
        return (byte) (word(seed, index >>> 3) >>> ((index & 7) << 3));
    }

    /**
     * Index of the first byte of {@code segment[offset, offset+length)} that differs from the pattern,
     * or -1 when the whole range matches.
     */
    public static long firstMismatch(MemorySegment segment, long offset, long length, long seed) {
        long words = length >>> 3;
        for (long w = 0; w < words; w++) {
            long expected = word(seed, w);
            long actual = segment.get(WORD, offset + (w << 3));
            if (expected != actual) {
                return (w << 3) + (Long.numberOfTrailingZeros(expected ^ actual) >>> 3);
            }
        }
        for (long i = words << 3; i < length; i++) {
            if (segment.get(ValueLayout.JAVA_BYTE, offset + i) != byteAt(seed, i)) {
                return i;
            }
        }
        return -1;
    }

    private static long word(long seed, long index) {
        return mix(seed + index * GOLDEN);
    }

    /** SplitMix64's finaliser: a cheap bijection with full avalanche. */
    public static long mix(long z) {
        z = (z ^ (z >>> 30)) * 0xBF58476D1CE4E5B9L;
        z = (z ^ (z >>> 27)) * 0x94D049BB133111EBL;
        return z ^ (z >>> 31);
    }
}
