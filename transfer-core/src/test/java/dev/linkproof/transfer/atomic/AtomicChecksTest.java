package dev.linkproof.transfer.atomic;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.linkproof.transfer.Op;
import dev.linkproof.transfer.TransferSpec;
import dev.linkproof.transfer.validate.AtomicCheck;
import dev.linkproof.transfer.validate.AtomicMismatch.Check;
import org.junit.jupiter.api.Test;

/** The counter checks against hand-made outcomes: exact, one op lost, one doubled, fetched values swapped in order. */
class AtomicChecksTest {
    private static final int WARMUP = 3;
    private static final int ITERATIONS = 10;

    private static AtomicPlan plan(Op op) {
        return new AtomicPlan(
                TransferSpec.builder()
                        .pointId("AtomicChecksTest")
                        .transport("ucx")
                        .op(op)
                        .size(8)
                        .batch(3)
                        .iterations(ITERATIONS)
                        .warmup(WARMUP)
                        .build(),
                0);
    }

    /** What a perfect run leaves, with {@code extra} ops on counter 1 before the verification batches. */
    private static long[][] fetched(AtomicPlan plan, int counters, int extra) {
        long[][] f = new long[counters][AtomicPlan.VERIFY_BATCHES];
        for (int s = 0; s < counters; s++) {
            for (int v = 0; v < AtomicPlan.VERIFY_BATCHES; v++) {
                f[s][v] = plan.after(s, plan.opsBeforeVerification() + v + (s == 1 ? extra : 0));
            }
        }
        return f;
    }

    private static long[] finals(AtomicPlan plan, int counters, int extra) {
        long[] f = new long[counters];
        for (int s = 0; s < counters; s++) {
            f[s] = plan.after(s, plan.opsPerCounter() + (s == 1 ? extra : 0));
        }
        return f;
    }

    @Test
    void exactCountersPass() {
        for (Op op : new Op[] {Op.FETCH_ADD, Op.COMPARE_SWAP}) {
            AtomicPlan p = plan(op);
            AtomicCheck c = AtomicChecks.check(p, finals(p, 3, 0), fetched(p, 3, 0));
            assertThat(c.passed()).as(c.describe()).isTrue();
            assertThat(c.ops()).isEqualTo(WARMUP + ITERATIONS + AtomicPlan.VERIFY_BATCHES);
        }
    }

    @Test
    void aLostFetchAddFailsBothChecksNamingTheCounter() {
        AtomicPlan p = plan(Op.FETCH_ADD);
        AtomicCheck c = AtomicChecks.check(p, finals(p, 3, -1), fetched(p, 3, -1));
        assertThat(c.bad()).isEqualTo(1);
        assertThat(c.first()).extracting(m -> m.check()).containsExactly(Check.FINAL_VALUE, Check.FETCHED);
        assertThat(c.first()).allSatisfy(m -> assertThat(m.slot()).isEqualTo(1));
        assertThat(c.describe())
                .contains("counter 1 (slot 1): final value")
                .contains("short by 1 op of step " + p.step(1));
    }

    @Test
    void aDoubledCompareSwapFailsNamingTheCounter() {
        AtomicPlan p = plan(Op.COMPARE_SWAP);
        AtomicCheck c = AtomicChecks.check(p, finals(p, 3, 1), fetched(p, 3, 1));
        assertThat(c.first()).extracting(m -> m.check()).containsExactly(Check.FINAL_VALUE, Check.SWAP_OLD_VALUE);
        assertThat(c.describe()).contains("counter 1 (slot 1)").contains("compare-and-swap 0 of the verification");
    }

    @Test
    void fetchAddValuesOutOfOrderPassButADuplicateFails() {
        AtomicPlan p = plan(Op.FETCH_ADD);
        long[][] f = fetched(p, 3, 0);
        long t = f[2][0];
        f[2][0] = f[2][5];
        f[2][5] = t;
        assertThat(AtomicChecks.check(p, finals(p, 3, 0), f).passed()).isTrue();
        f[2][5] = f[2][4]; // one value twice, one missing: the counter's final value is right, the set is not
        AtomicCheck c = AtomicChecks.check(p, finals(p, 3, 0), f);
        assertThat(c.first()).extracting(m -> m.check()).containsExactly(Check.FETCHED);
        assertThat(c.first().get(0).slot()).isEqualTo(2);
    }

    @Test
    void atomicsAreEightBytesOnAlignedSlots() {
        assertThatThrownBy(
                        () -> TransferSpec.builder().op(Op.FETCH_ADD).size(16).build())
                .hasMessageContaining("fetch-add is an 8-byte atomic: size must be 8, was 16");
        assertThatThrownBy(() -> TransferSpec.builder()
                        .op(Op.COMPARE_SWAP)
                        .size(8)
                        .offset(4)
                        .build())
                .hasMessageContaining("offset must be a multiple of 8, was 4");
    }

    @Test
    void inverseIsTheModularInverse() {
        for (long odd : new long[] {1, 3, 0xFFFF_FFFFL, 0x9E3779B97F4A7C15L}) {
            assertThat(odd * AtomicChecks.inverse(odd)).isEqualTo(1L);
        }
    }
}
