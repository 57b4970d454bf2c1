package dev.linkproof.reports.results;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Instant;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

/** IsoInstant writes what Instant.toString() writes: every fraction length, the epoch's edges, and random instants. */
class IsoInstantTest {
    @Test
    void sameTextAsInstantToString() {
        long[] seconds = {
            0,
            1,
            -1,
            59,
            86_399,
            951_782_400L /* 2000-02-29 */,
            1_796_448_120L,
            253_402_300_799L /* 9999-12-31 */,
            253_402_300_800L /* 10000: a sign */,
            -62_167_219_200L /* 0000-01-01 */,
            -62_167_219_201L /* -0001 */
        };
        int[] nanos = {0, 1, 999, 1_000, 550_599_000, 550_000_000, 550_599_676, 999_999_999, 100_000_000, 10_000};
        for (long s : seconds) {
            for (int n : nanos) {
                Instant t = Instant.ofEpochSecond(s, n);
                assertThat(IsoInstant.of(t)).as("%d s %d ns", s, n).isEqualTo(t.toString());
            }
        }
        SplittableRandom random = new SplittableRandom(21);
        for (int i = 0; i < 100_000; i++) {
            Instant t = Instant.ofEpochSecond(
                    random.nextLong(-62_167_219_200L, 253_402_300_800L), random.nextInt(1_000_000_000));
            assertThat(IsoInstant.of(t)).isEqualTo(t.toString());
        }
        Instant now = Instant.now();
        assertThat(IsoInstant.of(now)).isEqualTo(now.toString());
    }
}
