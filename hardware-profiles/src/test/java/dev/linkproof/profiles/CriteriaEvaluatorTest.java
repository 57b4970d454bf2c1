package dev.linkproof.profiles;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.linkproof.profiles.Verdict.Kind;
import dev.linkproof.profiles.Verdict.Outcome;
import dev.linkproof.transfer.MemoryPlacement;
import dev.linkproof.transfer.Mode;
import dev.linkproof.transfer.Op;
import dev.linkproof.transfer.TransferSpec;
import dev.linkproof.transfer.measure.LatencyStats;
import dev.linkproof.transfer.measure.Measurement;
import dev.linkproof.transfer.probe.MemoryCopyBaseline;
import dev.linkproof.transfer.validate.Mismatch;
import dev.linkproof.transfer.validate.Validation;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/** Every criterion kind can pass and can fail, and the verdicts read as "measured vs criterion". */
class CriteriaEvaluatorTest {
    static final MemoryPlacement HOST = MemoryPlacement.HOST;
    static final MemoryPlacement GPU = MemoryPlacement.parse("gpu");

    static final HardwareProfile LAB = profile("""
        id: lab
        vendor: Lab
        match:
          nic:
            driver: mlx5_core
            link-rate: 400 Gb/s
        criteria:
          - name: write-link
            op: write
            memory: host
            sizes: 1MiB..64MiB
            batch: 1
            min-bandwidth: 0.90 × link
          - name: read-absolute
            op: read
            sizes: 1MiB..
            min-bandwidth: 40 GB/s
          - name: gpu-write
            op: write
            memory: gpu
            sizes: 1MiB..
            min-bandwidth: 42.5 GB/s
          - name: small-latency
            op: [write, read]
            memory: host
            sizes: ..4KiB
            batch: 1
            max-avg-latency: 7.5 µs
            max-p99-latency: 15 µs
          - name: curve
            op: write
            memory: host
            mode: bandwidth
            sizes: 64KiB..
            batch: 1
            max-drop: 5%
        """);

    static final HardwareProfile LOOPBACK = profile("""
        id: loop
        vendor: any
        match: {fallback: true}
        criteria:
          - name: bulk
            op: any
            sizes: 1MiB..
            min-bandwidth: 0.10 × memcpy
        """);

    static HardwareProfile profile(String yaml) {
        return BuiltinProfiles.of(Map.of("p", yaml)).profile("p");
    }

    static Measurement point(Op op, long size, int batch, double gbps, double avgMicros, MemoryPlacement mem) {
        return measurement(op, size, batch, gbps, avgMicros, -1, true, mem);
    }

    static Measurement measurement(
            Op op,
            long size,
            int batch,
            double gbps,
            double avgMicros,
            double p99Micros,
            boolean valid,
            MemoryPlacement mem) {
        TransferSpec spec = TransferSpec.builder()
                .pointId(op.label() + "-" + size + "-" + batch)
                .op(op)
                .size(size)
                .batch(batch)
                .mode(p99Micros >= 0 ? Mode.LATENCY : Mode.BANDWIDTH)
                .initiatorMemory(mem)
                .targetMemory(mem)
                .build();
        LatencyStats latency = p99Micros >= 0
                ? new LatencyStats(
                        avgMicros * 1e3,
                        100,
                        1000,
                        Math.round(avgMicros * 1e3),
                        Math.round(p99Micros * 1e3),
                        Math.round(p99Micros * 1e3),
                        Math.round(p99Micros * 1e3))
                : LatencyStats.averageOnly(avgMicros * 1e3);
        Validation validation = valid
                ? new Validation(batch, size * batch, 0, Optional.empty())
                : new Validation(batch, size * batch, 1, Optional.of(new Mismatch(0, 17, 0x5a, 0x00)));
        long bytes = size * batch * 100;
        return new Measurement(spec, bytes, Math.round(bytes / gbps), gbps, latency, validation, Map.of(), List.of());
    }

    static List<Verdict> judged(List<Verdict> verdicts) {
        return verdicts.stream().filter(v -> v.kind() != Kind.VALIDATION).toList();
    }

    final CriteriaEvaluator lab = new CriteriaEvaluator(LAB, EvaluationContext.none());

    @Test
    void minBandwidthAsFractionOfLink() {
        List<Verdict> pass = lab.evaluate(point(Op.WRITE, 1 << 20, 1, 47.9, 21.9, HOST));
        assertThat(pass).hasSize(2);
        assertThat(pass.get(0).kind()).isEqualTo(Kind.VALIDATION);
        assertThat(pass.get(0).outcome()).isEqualTo(Outcome.PASS);
        Verdict v = pass.get(1);
        assertThat(v.text())
                .isEqualTo("write 1 MiB ×1: 47.9 GB/s ≥ criterion 45.0 GB/s (write-link: 0.90 × 400 Gb/s link)");
        assertThat(v)
                .extracting(Verdict::kind, Verdict::outcome, Verdict::criterion, Verdict::threshold, Verdict::unit)
                .containsExactly(Kind.MIN_BANDWIDTH, Outcome.PASS, "write-link", 45.0, "GB/s");
        assertThat(CriteriaEvaluator.passed(pass)).isTrue();

        List<Verdict> fail = lab.evaluate(point(Op.WRITE, 1 << 20, 1, 38.9, 26.9, HOST));
        assertThat(fail.get(1).text())
                .isEqualTo("write 1 MiB ×1: 38.9 GB/s < criterion 45.0 GB/s (write-link: 0.90 × 400 Gb/s link)");
        assertThat(fail.get(1).failed()).isTrue();
        assertThat(CriteriaEvaluator.failures(fail)).containsExactly(fail.get(1));
    }

    @Test
    void minBandwidthAbsoluteAndGpuMemory() {
        assertThat(judged(lab.evaluate(point(Op.READ, 8 << 20, 4, 43.4, 0, HOST))))
                .singleElement()
                .extracting(Verdict::text, Verdict::outcome)
                .containsExactly("read 8 MiB ×4: 43.4 GB/s ≥ criterion 40.0 GB/s (read-absolute)", Outcome.PASS);
        assertThat(judged(lab.evaluate(point(Op.READ, 8 << 20, 4, 39.99, 0, HOST))))
                .singleElement()
                .extracting(Verdict::text, Verdict::outcome)
                .containsExactly("read 8 MiB ×4: 39.990 GB/s < criterion 40.000 GB/s (read-absolute)", Outcome.FAIL);
        assertThat(judged(lab.evaluate(point(Op.WRITE, 4 << 20, 64, 41.0, 0, GPU))))
                .singleElement()
                .extracting(Verdict::text, Verdict::outcome)
                .containsExactly(
                        "write 4 MiB ×64 · gpu→gpu: 41.0 GB/s < criterion 42.5 GB/s (gpu-write)", Outcome.FAIL);
    }

    @Test
    void minBandwidthAsFractionOfTheMemcpyBaseline() {
        MemoryCopyBaseline baseline = new MemoryCopyBaseline(64 << 20, 5, 10.0, 9.5);
        CriteriaEvaluator loop = new CriteriaEvaluator(LOOPBACK, EvaluationContext.of(baseline));
        assertThat(judged(loop.evaluate(point(Op.WRITE, 4 << 20, 1, 3.2, 1300, HOST))))
                .singleElement()
                .extracting(Verdict::text, Verdict::outcome)
                .containsExactly(
                        "write 4 MiB ×1: 3.20 GB/s ≥ criterion 1.00 GB/s (bulk: 0.10 × memcpy baseline 10.0 GB/s)",
                        Outcome.PASS);
        assertThat(judged(loop.evaluate(point(Op.READ, 4 << 20, 1, 0.4, 10000, HOST))))
                .singleElement()
                .extracting(Verdict::text, Verdict::outcome)
                .containsExactly(
                        "read 4 MiB ×1: 0.40 GB/s < criterion 1.00 GB/s (bulk: 0.10 × memcpy baseline 10.0 GB/s)",
                        Outcome.FAIL);

        assertThat(LOOPBACK.needsMemoryCopyBaseline()).isTrue();
        assertThatThrownBy(() -> new CriteriaEvaluator(LOOPBACK, EvaluationContext.none()))
                .hasMessageContaining("relative to the memory-copy baseline");
    }

    @Test
    void maxAverageLatency() {
        assertThat(judged(lab.evaluate(point(Op.WRITE, 1024, 1, 0.17, 5.87, HOST))))
                .first()
                .extracting(Verdict::kind, Verdict::text, Verdict::outcome)
                .containsExactly(
                        Kind.MAX_AVG_LATENCY,
                        "write 1 KiB ×1: avg latency 5.87 µs ≤ criterion 7.50 µs (small-latency)",
                        Outcome.PASS);
        assertThat(judged(lab.evaluate(point(Op.READ, 4096, 1, 0.4, 9.6, HOST))))
                .first()
                .extracting(Verdict::text, Verdict::outcome)
                .containsExactly(
                        "read 4 KiB ×1: avg latency 9.60 µs > criterion 7.50 µs (small-latency)", Outcome.FAIL);
    }

    @Test
    void maxP99LatencyInLatencyModeAndNotApplicableInBandwidthMode() {
        List<Verdict> pass = judged(lab.evaluate(measurement(Op.WRITE, 8, 1, 0.001, 5.0, 12.0, true, HOST)));
        assertThat(pass)
                .extracting(Verdict::text)
                .containsExactly(
                        "write 8 B ×1: avg latency 5.00 µs ≤ criterion 7.50 µs (small-latency)",
                        "write 8 B ×1: p99 latency 12.0 µs ≤ criterion 15.0 µs (small-latency)");
        List<Verdict> fail = judged(lab.evaluate(measurement(Op.WRITE, 8, 1, 0.001, 5.0, 31.5, true, HOST)));
        assertThat(fail.get(1))
                .extracting(Verdict::kind, Verdict::outcome, Verdict::text)
                .containsExactly(
                        Kind.MAX_P99_LATENCY,
                        Outcome.FAIL,
                        "write 8 B ×1: p99 latency 31.5 µs > criterion 15.0 µs (small-latency)");

        List<Verdict> bw = judged(lab.evaluate(point(Op.WRITE, 8, 1, 0.001, 5.0, HOST)));
        assertThat(bw.get(1))
                .extracting(Verdict::outcome, Verdict::text)
                .containsExactly(
                        Outcome.NOT_APPLICABLE,
                        "write 8 B ×1: p99 latency is not measured in bandwidth mode; criterion 15.0 µs"
                                + " (small-latency) judges latency-mode points only");
        assertThat(bw.get(1).failed()).isFalse();
    }

    @Test
    void aPointWithNoCriterionPassesOnValidationAlone() {
        List<Verdict> v = lab.evaluate(point(Op.SEND, 64 << 10, 1, 9.0, 7.0, HOST));
        assertThat(v).extracting(Verdict::kind).containsExactly(Kind.VALIDATION, Kind.NO_CRITERION);
        assertThat(v.get(1).text())
                .isEqualTo("send 64 KiB ×1: no criterion of profile 'lab' judges this point; "
                        + "it passes on data validation alone");
        assertThat(v.get(1).outcome()).isEqualTo(Outcome.PASS);

        List<Verdict> corrupt = lab.evaluate(measurement(Op.SEND, 64 << 10, 1, 9.0, 7.0, -1, false, HOST));
        assertThat(corrupt).extracting(Verdict::outcome).containsExactly(Outcome.FAIL, Outcome.FAIL);
        assertThat(corrupt.get(0).text()).startsWith("send 64 KiB ×1: data corruption: 1 of 1 slot(s) differ");
        assertThat(corrupt.get(1).text()).endsWith("judged on data validation alone, which failed");

        CriteriaEvaluator soft =
                new CriteriaEvaluator(BuiltinProfiles.standard().profile("softroce"), EvaluationContext.none());
        assertThat(soft.evaluate(point(Op.WRITE, 1 << 20, 1, 1.0, 1000, HOST))
                        .get(1)
                        .kind())
                .isEqualTo(Kind.NO_CRITERION);
    }

    @Test
    void aCriterionIsJudgedEvenWhenTheDataIsBad() {
        List<Verdict> v = lab.evaluate(measurement(Op.WRITE, 1 << 20, 1, 47.9, 21.9, -1, false, HOST));
        assertThat(v)
                .extracting(Verdict::kind, Verdict::outcome)
                .containsExactly(
                        org.assertj.core.groups.Tuple.tuple(Kind.VALIDATION, Outcome.FAIL),
                        org.assertj.core.groups.Tuple.tuple(Kind.MIN_BANDWIDTH, Outcome.PASS));
        assertThat(CriteriaEvaluator.passed(v)).isFalse();
    }

    @Test
    void curveRuleOverASweep() {
        List<Measurement> sweep = List.of(
                point(Op.WRITE, 32 << 10, 1, 5.0, 6.6, HOST), // below the rule's 64 KiB: no step judged into it
                point(Op.WRITE, 64 << 10, 1, 9.1, 7.2, HOST),
                point(Op.WRITE, 128 << 10, 1, 15.4, 8.5, HOST),
                point(Op.WRITE, 256 << 10, 1, 12.0, 21.8, HOST), // the mid-size dip
                point(Op.WRITE, 512 << 10, 1, 11.8, 44.4, HOST),
                point(Op.WRITE, 256 << 10, 8, 1.0, 1, HOST), // another batch: its own group of one
                point(Op.READ, 256 << 10, 1, 1.0, 1, HOST)); // read: no curve rule
        List<Verdict> v = lab.evaluateSweep(sweep);
        assertThat(v)
                .extracting(Verdict::text)
                .containsExactly(
                        "write 64 KiB → 128 KiB ×1: 9.10 GB/s → 15.4 GB/s, +69.2% within criterion max drop 5% (curve)",
                        "write 128 KiB → 256 KiB ×1: 15.4 GB/s → 12.0 GB/s, drop 22.1% > criterion max drop 5% (curve)",
                        "write 256 KiB → 512 KiB ×1: 12.0 GB/s → 11.8 GB/s, drop 1.7% within criterion max drop 5%"
                                + " (curve)");
        assertThat(v).extracting(Verdict::outcome).containsExactly(Outcome.PASS, Outcome.FAIL, Outcome.PASS);
        assertThat(v.get(1))
                .extracting(Verdict::kind, Verdict::pointId, Verdict::criterion, Verdict::unit)
                .containsExactly(Kind.CURVE, "write-262144-1", "curve", "%");
        assertThat(v.get(1).measured()).isCloseTo(22.08, org.assertj.core.data.Offset.offset(0.01));
    }

    @Test
    void builtInCx7JudgesThePublishedFiguresAsPassing() {
        CriteriaEvaluator cx7 =
                new CriteriaEvaluator(BuiltinProfiles.standard().profile("cx7-400g"), EvaluationContext.none());
        // MORI-IO's published CX7 batch-1 averages must meet the profile built from them.
        assertThat(CriteriaEvaluator.passed(cx7.evaluate(point(Op.WRITE, 64 << 20, 1, 49.34, 1360.09, HOST))))
                .isTrue();
        assertThat(CriteriaEvaluator.passed(cx7.evaluate(point(Op.WRITE, 1 << 20, 1, 38.91, 26.95, HOST))))
                .isTrue();
        assertThat(CriteriaEvaluator.passed(cx7.evaluate(point(Op.READ, 64 << 20, 1, 44.78, 1498.58, HOST))))
                .isTrue();
        assertThat(CriteriaEvaluator.passed(cx7.evaluate(point(Op.READ, 1 << 20, 1, 34.95, 30.00, HOST))))
                .isTrue();
        assertThat(CriteriaEvaluator.passed(cx7.evaluate(point(Op.WRITE, 1024, 1, 0.17, 5.87, HOST))))
                .isTrue();
        assertThat(CriteriaEvaluator.passed(cx7.evaluate(point(Op.READ, 1024, 1, 0.15, 6.74, HOST))))
                .isTrue();
        // A CX7 in a PCIe Gen4 x16 slot tops out near 25 GB/s and fails.
        Verdict gen4 = judged(cx7.evaluate(point(Op.WRITE, 64 << 20, 1, 24.8, 2700, HOST)))
                .getFirst();
        assertThat(gen4.text())
                .isEqualTo("write 64 MiB ×1: 24.8 GB/s < criterion 45.0 GB/s (write-large: 0.90 × 400 Gb/s link)");
    }
}
