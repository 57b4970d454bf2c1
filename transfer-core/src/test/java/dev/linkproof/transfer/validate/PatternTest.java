package dev.linkproof.transfer.validate;

import static org.assertj.core.api.Assertions.assertThat;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.util.HashSet;
import java.util.Set;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class PatternTest {
    private final Arena arena = Arena.ofConfined();

    @AfterEach
    void free() {
        arena.close();
    }

    private MemorySegment filled(long length, long offset, long seed) {
        MemorySegment s = arena.allocate(offset + length + 16);
        Pattern.fill(s, offset, length, seed);
        return s;
    }

    private static byte[] bytes(MemorySegment s, long offset, long length) {
        return s.asSlice(offset, length).toArray(ValueLayout.JAVA_BYTE);
    }

    @Test
    void sameSeedSameBytes() {
        long seed = Pattern.seed(0, Pattern.pointHash("p"), 3, 0);
        assertThat(bytes(filled(4099, 0, seed), 0, 4099)).isEqualTo(bytes(filled(4099, 0, seed), 0, 4099));
        assertThat(Pattern.seed(1, 42, 7, 2)).isEqualTo(Pattern.seed(1, 42, 7, 2));
        assertThat(Pattern.pointHash("Class#m[op=write]")).isEqualTo(Pattern.pointHash("Class#m[op=write]"));
    }

    @Test
    void eachSeedInputChangesTheSeedAndTheBytes() {
        long hash = Pattern.pointHash("point-a");
        long base = Pattern.seed(0, hash, 0, 0);
        long[] others = {
            Pattern.seed(1, hash, 0, 0), // rank
            Pattern.seed(0, Pattern.pointHash("point-b"), 0, 0), // point
            Pattern.seed(0, hash, 1, 0), // slot
            Pattern.seed(0, hash, 0, 1), // generation
        };
        byte[] baseBytes = bytes(filled(64, 0, base), 0, 64);
        for (long other : others) {
            assertThat(other).isNotEqualTo(base);
            assertThat(bytes(filled(64, 0, other), 0, 64)).isNotEqualTo(baseBytes);
        }
        Set<Long> all = new HashSet<>();
        for (int rank = 0; rank < 2; rank++) {
            for (int slot = 0; slot < 64; slot++) {
                for (int gen = 0; gen < 4; gen++) {
                    all.add(Pattern.seed(rank, hash, slot, gen));
                }
            }
        }
        assertThat(all).hasSize(2 * 64 * 4);
    }

    @Test
    void pointHashesOfDifferentIdsDiffer() {
        Set<Long> hashes = new HashSet<>();
        for (int i = 0; i < 1000; i++) {
            hashes.add(Pattern.pointHash("C#m[op=write,size=" + i + "]"));
        }
        assertThat(hashes).hasSize(1000);
    }

    @Test
    void isNotAConstantFill() {
        MemorySegment s = filled(4096, 0, Pattern.seed(0, 1, 0, 0));
        byte[] b = bytes(s, 0, 4096);
        Set<Byte> distinct = new HashSet<>();
        for (byte x : b) {
            distinct.add(x);
        }
        assertThat(distinct.size()).isGreaterThan(200);
        Set<Long> words = new HashSet<>();
        for (long w = 0; w < 512; w++) {
            words.add(s.get(ValueLayout.JAVA_LONG_UNALIGNED, w * 8));
        }
        assertThat(words).hasSize(512);
    }

    @ParameterizedTest(name = "length {0}")
    @ValueSource(longs = {0, 1, 2, 7, 8, 9, 15, 16, 17, 4095, 4097})
    void byteAtAgreesWithFillAtEveryOffsetAndAlignment(long length) {
        long seed = Pattern.seed(1, Pattern.pointHash("x"), 2, 3);
        for (long offset = 0; offset < 8; offset++) {
            MemorySegment s = filled(length, offset, seed);
            for (long i = 0; i < length; i++) {
                assertThat(s.get(ValueLayout.JAVA_BYTE, offset + i))
                        .as("offset %d, byte %d", offset, i)
                        .isEqualTo(Pattern.byteAt(seed, i));
            }
            assertThat(Pattern.firstMismatch(s, offset, length, seed)).isEqualTo(-1);
        }
    }

    @Test
    void patternDoesNotDependOnWhereTheSlotStarts() {
        long seed = Pattern.seed(0, 5, 0, 0);
        byte[] aligned = bytes(filled(100, 0, seed), 0, 100);
        byte[] shifted = bytes(filled(100, 3, seed), 3, 100);
        assertThat(shifted).isEqualTo(aligned);
    }

    @Test
    void fillStaysInsideItsRange() {
        MemorySegment s = arena.allocate(64);
        s.fill((byte) 0x5A);
        Pattern.fill(s, 5, 13, Pattern.seed(0, 9, 0, 0));
        for (int i = 0; i < 5; i++) {
            assertThat(s.get(ValueLayout.JAVA_BYTE, i)).isEqualTo((byte) 0x5A);
        }
        for (int i = 18; i < 64; i++) {
            assertThat(s.get(ValueLayout.JAVA_BYTE, i)).as("byte %d", i).isEqualTo((byte) 0x5A);
        }
    }

    @Test
    void wordsAreLittleEndian() {
        long seed = Pattern.seed(0, 11, 0, 0);
        MemorySegment s = filled(16, 0, seed);
        long word = s.get(ValueLayout.JAVA_LONG_UNALIGNED.withOrder(java.nio.ByteOrder.LITTLE_ENDIAN), 8);
        for (int k = 0; k < 8; k++) {
            assertThat((byte) (word >>> (k * 8))).isEqualTo(Pattern.byteAt(seed, 8 + k));
        }
    }

    @ParameterizedTest(name = "length {0}")
    @ValueSource(longs = {1, 5, 8, 13, 64, 4099})
    void firstMismatchFindsAFlippedByteAtItsExactOffset(long length) {
        long seed = Pattern.seed(0, Pattern.pointHash("flip"), 1, 1);
        for (long offset : new long[] {0, 1, 3, 7, 8}) {
            MemorySegment s = filled(length, offset, seed);
            long step = Math.max(1, length / 37);
            for (long i = 0; i < length; i += step) {
                flip(s, offset + i, 0xFF);
                assertThat(Pattern.firstMismatch(s, offset, length, seed))
                        .as("offset %d, flipped %d", offset, i)
                        .isEqualTo(i);
                flip(s, offset + i, 0xFF);
            }
            // the very last byte, which for most lengths is a tail byte
            flip(s, offset + length - 1, 0x01);
            assertThat(Pattern.firstMismatch(s, offset, length, seed)).isEqualTo(length - 1);
            flip(s, offset + length - 1, 0x01);
            assertThat(Pattern.firstMismatch(s, offset, length, seed)).isEqualTo(-1);
        }
    }

    @Test
    void singleBitFlipsInEveryPositionOfAWordAreFound() {
        long seed = Pattern.seed(1, 77, 0, 0);
        MemorySegment s = filled(24, 3, seed);
        for (int i = 0; i < 24; i++) {
            for (int bit = 0; bit < 8; bit++) {
                flip(s, 3 + i, 1 << bit);
                assertThat(Pattern.firstMismatch(s, 3, 24, seed)).isEqualTo(i);
                flip(s, 3 + i, 1 << bit);
            }
        }
    }

    @Test
    void firstOfSeveralCorruptionsIsReported() {
        long seed = Pattern.seed(0, 3, 0, 0);
        MemorySegment s = filled(4101, 1, seed);
        flip(s, 1 + 4100, 0x10);
        flip(s, 1 + 2049, 0x10);
        flip(s, 1 + 2050, 0x10);
        assertThat(Pattern.firstMismatch(s, 1, 4101, seed)).isEqualTo(2049);
    }

    @Test
    void bytesOutsideTheRangeDoNotCount() {
        long seed = Pattern.seed(0, 3, 0, 0);
        MemorySegment s = filled(20, 4, seed);
        flip(s, 3, 0xFF);
        flip(s, 24, 0xFF);
        assertThat(Pattern.firstMismatch(s, 4, 20, seed)).isEqualTo(-1);
    }

    @Test
    void aDifferentSeedMismatchesAtOnce() {
        MemorySegment s = filled(64, 0, Pattern.seed(0, 3, 0, 0));
        assertThat(Pattern.firstMismatch(s, 0, 64, Pattern.seed(0, 3, 0, 1))).isBetween(0L, 7L);
    }

    private static void flip(MemorySegment s, long at, int mask) {
        s.set(ValueLayout.JAVA_BYTE, at, (byte) (s.get(ValueLayout.JAVA_BYTE, at) ^ mask));
    }
}
