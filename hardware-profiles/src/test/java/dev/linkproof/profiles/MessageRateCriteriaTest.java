package dev.linkproof.profiles;

import static org.assertj.core.api.Assertions.assertThat;

import dev.linkproof.transfer.MemoryPlacement;
import dev.linkproof.transfer.Op;
import dev.linkproof.transfer.measure.Measurement;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * min-ops-per-second on points that move bytes: a message-rate floor for small messages, chosen by
 * op and sizes like any criterion, judged both ways, its verdict naming the figure.
 */
class MessageRateCriteriaTest {
    static final HardwareProfile LAB = CriteriaEvaluatorTest.profile("""
        id: lab
        vendor: Lab
        match: {fallback: true}
        criteria:
          - name: small-write-rate
            op: write
            sizes: ..4KiB
            min-ops-per-second: 30M
          - name: small-write-bandwidth
            op: write
            sizes: ..4KiB
            min-bandwidth: 0.1 GB/s
        """);

    /** {@code op} of {@code size} bytes × batch 1 at {@code opsPerSecond}: 100 transfers in 100 / rate seconds. */
    private static Measurement at(Op op, long size, double opsPerSecond) {
        return CriteriaEvaluatorTest.point(
                op, size, 1, size * opsPerSecond / 1e9, 1e6 / opsPerSecond, MemoryPlacement.HOST);
    }

    private static List<Verdict> judge(Measurement m) {
        return CriteriaEvaluatorTest.judged(new CriteriaEvaluator(LAB, EvaluationContext.none()).evaluate(m));
    }

    @Test
    void aSmallWriteIsJudgedByItsMessageRateBothWays() {
        List<Verdict> fast = judge(at(Op.WRITE, 64, 40e6));
        assertThat(fast).extracting(Verdict::criterion).containsExactly("small-write-rate", "small-write-bandwidth");
        assertThat(fast.getFirst()).satisfies(v -> {
            assertThat(v.kind()).isEqualTo(Verdict.Kind.MIN_OPS_PER_SECOND);
            assertThat(v.failed()).isFalse();
            assertThat(v.unit()).isEqualTo("ops/s");
            assertThat(v.measured()).isCloseTo(40e6, org.assertj.core.data.Percentage.withPercentage(0.01));
            assertThat(v.text()).contains("40.0 Mops/s ≥ criterion 30.0 Mops/s (small-write-rate)");
        });

        // 20 M messages of 64 B a second is 1.28 GB/s, far over the bandwidth floor: only the rate fails it
        List<Verdict> slow = judge(at(Op.WRITE, 64, 20e6));
        assertThat(slow).filteredOn(Verdict::failed).singleElement().satisfies(v -> {
            assertThat(v.criterion()).isEqualTo("small-write-rate");
            assertThat(v.threshold()).isEqualTo(30e6);
            assertThat(v.text()).contains("20.0 Mops/s < criterion 30.0 Mops/s (small-write-rate)");
        });
    }

    @Test
    void theSelectorKeepsTheRateToItsOpAndSizes() {
        assertThat(judge(at(Op.WRITE, 8192, 1e6)))
                .as("8 KiB is past ..4KiB")
                .extracting(Verdict::kind)
                .containsExactly(Verdict.Kind.NO_CRITERION);
        assertThat(judge(at(Op.READ, 64, 1e6)))
                .as("a read is not a write")
                .extracting(Verdict::kind)
                .containsExactly(Verdict.Kind.NO_CRITERION);
    }

    /** Thor2's rate, from MORI-IO's batch-128 write sweep: its slowest iteration passes, half its rate fails. */
    @Test
    void thor2sPublishedRunPassesItsRateAndHalfOfItFails() {
        CriteriaEvaluator thor2 =
                new CriteriaEvaluator(BuiltinProfilesTest.BUILTINS.profile("thor2-400g"), EvaluationContext.none());
        double published = 128 / 37.1e-6; // 3.45 M transfers a second
        List<Verdict> ok = CriteriaEvaluatorTest.judged(thor2.evaluate(CriteriaEvaluatorTest.point(
                Op.WRITE, 1024, 128, 1024 * published / 1e9, 1e6 / published, MemoryPlacement.HOST)));
        assertThat(ok).extracting(Verdict::criterion).containsExactly("write-small-rate");
        assertThat(ok).noneMatch(Verdict::failed);
        List<Verdict> half = CriteriaEvaluatorTest.judged(thor2.evaluate(CriteriaEvaluatorTest.point(
                Op.WRITE, 8, 128, 8 * published / 2e9, 2e6 / published, MemoryPlacement.HOST)));
        assertThat(half).singleElement().satisfies(v -> {
            assertThat(v.failed()).isTrue();
            assertThat(v.text()).contains("1.73 Mops/s < criterion 3.10 Mops/s (write-small-rate)");
            try {
                assertThat(java.nio.file.Files.readString(java.nio.file.Path.of("../docs/profiles.md")))
                        .as("docs/profiles.md shows the verdict as the evaluator gives it")
                        .contains(v.text());
            } catch (java.io.IOException e) {
                throw new java.io.UncheckedIOException(e);
            }
        });
    }

    /** The built-in NIC profiles' message-rate criteria parse, cover small writes and say where their figure comes from. */
    @Test
    void theBuiltinNicProfilesCarryAMessageRateCriterionOrSayWhyNot() throws Exception {
        for (String id : List.of("cx7-400g", "thor2-400g")) {
            String yaml;
            try (var in = BuiltinProfiles.class.getResourceAsStream("/dev/linkproof/profiles/" + id + ".yaml")) {
                yaml = new String(in.readAllBytes(), java.nio.charset.StandardCharsets.UTF_8);
            }
            assertThat(yaml).as(id).contains("message rate").contains("min-ops-per-second");
            // enabled here, the criterion parses with its selector and its floor
            HardwareProfile on = CriteriaEvaluatorTest.profile(
                    yaml.replace("enabled: false  # message-rate", "enabled: true  # message-rate"));
            assertThat(on.criteria())
                    .filteredOn(c -> c.minOpsPerSecond().isPresent() && c.ops().contains(Op.WRITE))
                    .as(id)
                    .singleElement()
                    .satisfies(c -> {
                        assertThat(c.sizes().contains(64)).isTrue();
                        assertThat(c.sizes().contains(1 << 20)).isFalse();
                        assertThat(c.minOpsPerSecond().getAsDouble()).isPositive();
                    });
        }
    }
}
