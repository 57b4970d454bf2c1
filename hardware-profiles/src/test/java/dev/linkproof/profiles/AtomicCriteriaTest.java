package dev.linkproof.profiles;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.linkproof.transfer.MemoryPlacement;
import dev.linkproof.transfer.Op;
import dev.linkproof.transfer.measure.Measurement;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * min-ops-per-second judges atomic points by their rate, both ways; a criterion that names no op
 * (or "any") covers the ops that move bytes, never an 8-byte atomic by GB/s.
 */
class AtomicCriteriaTest {
    static final HardwareProfile LAB = CriteriaEvaluatorTest.profile("""
        id: lab
        vendor: Lab
        match: {fallback: true}
        criteria:
          - name: atomics-rate
            op: [fetch-add, compare-swap]
            min-ops-per-second: 2.5M
          - name: everything-small
            sizes: ..64KiB
            min-bandwidth: 1 GB/s
        """);

    /** 8 bytes × batch 1 × 100 iterations in 100 / rate seconds: {@code rate} ops/s. */
    private static Measurement atomic(Op op, double opsPerSecond) {
        return CriteriaEvaluatorTest.point(op, 8, 1, 8 * opsPerSecond / 1e9, 1e6 / opsPerSecond, MemoryPlacement.HOST);
    }

    private static List<Verdict> judge(Measurement m) {
        return new CriteriaEvaluator(LAB, EvaluationContext.none())
                .evaluate(m).stream()
                        .filter(v -> v.kind() != Verdict.Kind.VALIDATION)
                        .toList();
    }

    @Test
    void anAtomicPointIsJudgedByItsRateBothWays() {
        List<Verdict> fast = judge(atomic(Op.FETCH_ADD, 3e6));
        assertThat(fast).singleElement().satisfies(v -> {
            assertThat(v.kind()).isEqualTo(Verdict.Kind.MIN_OPS_PER_SECOND);
            assertThat(v.failed()).isFalse();
            assertThat(v.unit()).isEqualTo("ops/s");
            assertThat(v.text()).contains("3.00 Mops/s ≥ criterion 2.50 Mops/s (atomics-rate)");
        });
        List<Verdict> slow = judge(atomic(Op.COMPARE_SWAP, 1e6));
        assertThat(slow).singleElement().satisfies(v -> {
            assertThat(v.failed()).isTrue();
            assertThat(v.text()).contains("1.00 Mops/s < criterion 2.50 Mops/s (atomics-rate)");
        });
    }

    @Test
    void aCriterionWithoutOpDoesNotJudgeAtomicsByBandwidth() {
        Measurement write = CriteriaEvaluatorTest.point(Op.WRITE, 4096, 1, 0.5, 8, MemoryPlacement.HOST);
        assertThat(judge(write))
                .singleElement()
                .satisfies(v -> assertThat(v.criterion()).isEqualTo("everything-small"));
        assertThat(judge(atomic(Op.FETCH_ADD, 3e6)))
                .extracting(Verdict::criterion)
                .containsExactly("atomics-rate");
    }

    @Test
    void aBadRateIsRefusedWhereItIsWritten() {
        assertThatThrownBy(() -> CriteriaEvaluatorTest.profile("""
            id: lab
            vendor: Lab
            match: {fallback: true}
            criteria:
              - name: a
                op: fetch-add
                min-ops-per-second: fast
            """))
                .hasMessageContaining("bad min-ops-per-second 'fast' (expected e.g. 2.5M, 800k or 1200000");
        assertThat(ProfileUnits.opsPerSecond("2.5 Mops/s", null)).isEqualTo(2.5e6);
        assertThat(ProfileUnits.opsPerSecond("800k", null)).isEqualTo(8e5);
    }
}
