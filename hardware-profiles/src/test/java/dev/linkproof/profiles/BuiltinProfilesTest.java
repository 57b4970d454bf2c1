package dev.linkproof.profiles;

import static dev.linkproof.profiles.CriteriaEvaluatorTest.point;
import static org.assertj.core.api.Assertions.assertThat;

import dev.linkproof.profiles.Verdict.Kind;
import dev.linkproof.transfer.MemoryPlacement;
import dev.linkproof.transfer.Mode;
import dev.linkproof.transfer.Op;
import dev.linkproof.transfer.TransferSpec;
import dev.linkproof.transfer.measure.Measurement;
import dev.linkproof.transfer.measure.RailResult;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The shipped profiles parse, cite their figures, and pass the figures they were built from. */
class BuiltinProfilesTest {
    static final BuiltinProfiles BUILTINS = BuiltinProfiles.standard();
    static final MemoryPlacement HOST = MemoryPlacement.HOST;
    static final MemoryPlacement GPU = MemoryPlacement.parse("gpu");

    @Test
    void everyBuiltinParsesAndCitesItsSources() {
        assertThat(BUILTINS.ids())
                .containsExactly(
                        "cx7-400g",
                        "thor2-400g",
                        "cx6dx-100g",
                        "mi300x-thor2-gpu",
                        "h100-cx7-gpu",
                        "aws-p5-efa",
                        "aws-p5en-efa",
                        "aws-p6-b200-efa",
                        "libfabric",
                        "softroce",
                        "loopback");
        for (String id : BUILTINS.ids()) {
            HardwareProfile p = BUILTINS.profile(id);
            assertThat(p.id()).isEqualTo(id);
            assertThat(p.sources()).as(id).isNotEmpty();
            assertThat(p.description()).as(id).isNotBlank();
            assertThat(BUILTINS.text(id).orElseThrow())
                    .as(id)
                    .contains("# Where the figures come from")
                    .contains("threshold");
        }
        assertThat(BUILTINS.profile("loopback").match().fallback()).isTrue();
        assertThat(BUILTINS.profile("loopback").needsMemoryCopyBaseline()).isTrue();
        assertThat(BUILTINS.profile("cx7-400g").needsMemoryCopyBaseline()).isFalse();
        assertThat(BUILTINS.profile("softroce").criteria()).isEmpty();
        assertThat(BUILTINS.profile("cx7-400g").linkRateGbps()).hasValue(400);
    }

    @Test
    void gpuProfilesExtendTheirNicProfile() {
        HardwareProfile h100 = BUILTINS.profile("h100-cx7-gpu");
        assertThat(h100.layers()).containsExactly("built-in cx7-400g", "built-in h100-cx7-gpu");
        assertThat(h100.match().nic().orElseThrow().pciDevices()).containsExactly(0x1021);
        assertThat(h100.match().gpu().orElseThrow().models()).containsExactly("H100", "H200");
        assertThat(h100.criteria())
                .extracting(Criterion::name)
                .contains("write-large", "curve", "gpu-large", "gpu-batched");
        assertThat(h100.transport().environment()).containsEntry("UCX_TLS", "rc_x,cuda_copy,cuda_ipc,gdr_copy,self");
        assertThat(h100.resources().gpusAuto()).isTrue();
        HardwareProfile amd = BUILTINS.profile("mi300x-thor2-gpu");
        assertThat(amd.defaults().batch()).hasValue(128);
        assertThat(amd.criteria())
                .extracting(Criterion::name)
                .contains("write-batched-large", "gpu-write-batched-large");
    }

    /** NIC profiles require verbs and ucx, GPU profiles gpu-ipc too, softroce verbs; loopback nothing. */
    @Test
    void hardwareProfilesRequireTheTransportsTheirHostsMustHave() {
        for (String nic : List.of("cx7-400g", "cx6dx-100g", "thor2-400g")) {
            assertThat(BUILTINS.profile(nic).transport().required()).as(nic).containsExactly("ucx", "verbs");
        }
        for (String gpu : List.of("h100-cx7-gpu", "mi300x-thor2-gpu")) {
            assertThat(BUILTINS.profile(gpu).transport().required()).as(gpu).containsExactly("gpu-ipc", "ucx", "verbs");
        }
        assertThat(BUILTINS.profile("softroce").transport().required()).containsExactly("verbs");
        assertThat(BUILTINS.profile("loopback").transport().required()).isEmpty();
    }

    /**
     * The EFA instance families: libfabric's efa provider required, their device count and link rate
     * in the match (32 x 100, 16 x 200, 8 x 400 Gb/s: 3,200 Gb/s each), and floors that a healthy
     * device clears and half its link does not. The generic libfabric profile requires the transport
     * and judges nothing.
     */
    @Test
    void efaProfilesRequireLibfabricsEfaProviderAndJudgeAgainstTheirLink() {
        record Family(String id, int devices, int gbps) {}
        for (Family f : List.of(
                new Family("aws-p5-efa", 32, 100),
                new Family("aws-p5en-efa", 16, 200),
                new Family("aws-p6-b200-efa", 8, 400))) {
            HardwareProfile p = BUILTINS.profile(f.id());
            assertThat(p.transport().required()).as(f.id()).containsExactly("libfabric");
            assertThat(p.transport().settings()).as(f.id()).containsEntry("libfabric.provider", "efa");
            assertThat(p.linkRateGbps()).as(f.id()).hasValue(f.gbps());
            assertThat(p.match().nic().orElseThrow().minCount()).as(f.id()).isEqualTo(f.devices());
            assertThat(f.devices() * f.gbps())
                    .as(f.id() + ": the instance's published 3,200 Gb/s")
                    .isEqualTo(3200);
            double link = f.gbps() / 8.0;
            assertThat(passes(f.id(), libfabric(point(Op.WRITE, 16 << 20, 1, 0.85 * link, 100, HOST))))
                    .as(f.id())
                    .isTrue();
            assertThat(passes(f.id(), libfabric(point(Op.WRITE, 16 << 20, 1, 0.5 * link, 100, HOST))))
                    .as(f.id())
                    .isFalse();
            assertThat(passes(f.id(), libfabric(point(Op.READ, 16 << 20, 1, 0.5 * link, 100, HOST))))
                    .as(f.id())
                    .isFalse();
        }
        HardwareProfile generic = BUILTINS.profile("libfabric");
        assertThat(generic.transport().required()).containsExactly("libfabric");
        assertThat(generic.criteria()).isEmpty();
        assertThat(generic.match().explicit()).isTrue();
    }

    /** {@code m} as a libfabric point. */
    private static Measurement libfabric(Measurement m) {
        return new Measurement(
                m.spec().withTransport("libfabric"),
                m.bytes(),
                m.totalNanos(),
                m.bandwidthGBps(),
                m.latency(),
                m.validation(),
                m.environment(),
                m.phases(),
                m.targetHost(),
                m.rails());
    }

    static boolean passes(String profile, Measurement m) {
        CriteriaEvaluator e = new CriteriaEvaluator(BUILTINS.profile(profile), EvaluationContext.none());
        List<Verdict> v = e.evaluate(m);
        return CriteriaEvaluator.passed(v)
                && v.stream()
                        .anyMatch(x ->
                                x.kind() == Verdict.Kind.MIN_BANDWIDTH || x.kind() == Verdict.Kind.MAX_AVG_LATENCY);
    }

    @Test
    void publishedFiguresPassAndHalfOfThemFail() {
        // Thor2 (MORI-IO): write 1 MiB ×128 at 48.32 GB/s average, 64 KiB ×128 at 41.39; read 256 KiB ×256 at 45.08.
        assertThat(passes("thor2-400g", point(Op.WRITE, 1 << 20, 128, 48.32, 21.7, HOST)))
                .isTrue();
        assertThat(passes("thor2-400g", point(Op.WRITE, 64 << 10, 128, 41.39, 1.6, HOST)))
                .isTrue();
        assertThat(passes("thor2-400g", point(Op.READ, 256 << 10, 256, 45.08, 5.8, HOST)))
                .isTrue();
        assertThat(passes("thor2-400g", point(Op.WRITE, 1024, 1, 0.09, 11.10, HOST)))
                .isTrue();
        assertThat(passes("thor2-400g", point(Op.WRITE, 1 << 20, 128, 24.2, 43, HOST)))
                .isFalse();
        // ConnectX-6 Dx (stride-perf): 97.43 Gb/s at 4 KiB, 97.99 Gb/s at 1 MiB, with 128 in flight.
        assertThat(passes("cx6dx-100g", point(Op.WRITE, 4096, 128, 97.43 / 8, 0.34, HOST)))
                .isTrue();
        assertThat(passes("cx6dx-100g", point(Op.WRITE, 1 << 20, 128, 97.99 / 8, 85.6, HOST)))
                .isTrue();
        assertThat(passes("cx6dx-100g", point(Op.WRITE, 2048, 128, 94.92 / 8, 0.17, HOST)))
                .isTrue();
        assertThat(passes("cx6dx-100g", point(Op.WRITE, 4096, 128, 48.7 / 8, 0.67, HOST)))
                .isFalse();
        // H100 + CX7 (DLSlime GDRDMA): 128 MiB ×1 at 48.2 GB/s, 1 MiB ×64 at 46.5 GB/s, 1 MiB ×1 in 62 µs.
        assertThat(passes("h100-cx7-gpu", point(Op.WRITE, 128 << 20, 1, 48.235, 2783, GPU)))
                .isTrue();
        assertThat(passes("h100-cx7-gpu", point(Op.READ, 1 << 20, 64, 46.51, 22.5, GPU)))
                .isTrue();
        assertThat(passes("h100-cx7-gpu", point(Op.WRITE, 1 << 20, 1, 17.0, 62, GPU)))
                .isTrue();
        assertThat(passes("h100-cx7-gpu", point(Op.WRITE, 128 << 20, 1, 24.1, 5566, GPU)))
                .isFalse();
        // MI300X + Thor2: the Thor2 write figure on GPU memory.
        assertThat(passes("mi300x-thor2-gpu", point(Op.WRITE, 1 << 20, 128, 48.32, 21.7, GPU)))
                .isTrue();
        assertThat(passes("mi300x-thor2-gpu", point(Op.WRITE, 1 << 20, 128, 24.2, 43, GPU)))
                .isFalse();
    }

    @Test
    void theGpuNodeProfilesPassThePublishedRunsAndFailALaggingRail() {
        CriteriaEvaluator amd = new CriteriaEvaluator(BUILTINS.profile("mi300x-thor2-gpu"), EvaluationContext.none());
        // MORI-IO Thor2 read, 8 + 8 devices, batch 256: rank 7 averaged 47.75 GB/s at 1 MiB, 45.08 at 256 KiB.
        List<Verdict> mori = amd.evaluate(gpuRails(Op.READ, 1 << 20, 256, 47.75, 8));
        assertThat(CriteriaEvaluator.passed(mori)).isTrue();
        assertThat(mori)
                .extracting(Verdict::criterion)
                .contains("gpu-read-batched-large", "gpu-node-read-1mib", "gpu-node-balance");
        assertThat(CriteriaEvaluator.passed(amd.evaluate(gpuRails(Op.READ, 256 << 10, 256, 45.08, 8))))
                .isTrue();
        // One rail at 41 GB/s still meets its 40 GB/s floor, and lags the median rail by 14 %.
        List<Verdict> lagging = amd.evaluate(gpuRails(Op.READ, 1 << 20, 256, 47.75, 8, 3, 41.0));
        assertThat(CriteriaEvaluator.failures(lagging)).singleElement().satisfies(f -> {
            assertThat(f.criterion()).isEqualTo("gpu-node-balance");
            assertThat(f.text()).contains("rail 3 (gpu3) 41.0 GB/s is below 0.90 × the median rail (47.8 GB/s)");
        });

        CriteriaEvaluator nvidia = new CriteriaEvaluator(BUILTINS.profile("h100-cx7-gpu"), EvaluationContext.none());
        // DLSlime, eight channels, batch 1: 384.6 GB/s at 128 MiB, 127.5 GB/s at 1 MiB (72 µs).
        assertThat(CriteriaEvaluator.passed(nvidia.evaluate(gpuRails(Op.READ, 128 << 20, 1, 384.630 / 8, 8))))
                .isTrue();
        List<Verdict> oneMib = nvidia.evaluate(gpuRails(Op.WRITE, 1 << 20, 1, 127.489 / 8, 8, -1, 0, 72));
        assertThat(CriteriaEvaluator.passed(oneMib)).isTrue();
        // The one-pair ceiling (75 µs) does not judge rails; gpu-node-1mib's (87 µs) does.
        assertThat(oneMib)
                .extracting(Verdict::criterion)
                .doesNotContain("gpu-1mib-latency")
                .contains("gpu-node-1mib");
        // Half the line rate on every rail: each rail, the aggregate fail; the balance holds.
        List<Verdict> half = nvidia.evaluate(gpuRails(Op.READ, 128 << 20, 1, 24, 8));
        assertThat(CriteriaEvaluator.failures(half))
                .extracting(Verdict::kind)
                .containsOnly(Kind.MIN_BANDWIDTH, Kind.MIN_AGGREGATE_BANDWIDTH)
                .hasSize(9);
    }

    /**
     * {@code n} GPU-memory rails labelled gpu0.., all at {@code gbps} over the same loop, latency as
     * the size at that rate takes; with {@code slowIndex} (not negative), that rail at {@code slowGbps}.
     */
    static Measurement gpuRails(Op op, long size, int batch, double gbps, int n) {
        return gpuRails(op, size, batch, gbps, n, -1, 0, -1);
    }

    static Measurement gpuRails(Op op, long size, int batch, double gbps, int n, int slowIndex, double slowGbps) {
        return gpuRails(op, size, batch, gbps, n, slowIndex, slowGbps, -1);
    }

    /** ... with each rail's average latency {@code avgMicros} when it is not negative. */
    static Measurement gpuRails(
            Op op, long size, int batch, double gbps, int n, int slowIndex, double slowGbps, double avgMicros) {
        MemoryPlacement gpu = MemoryPlacement.parse("gpu");
        TransferSpec s = TransferSpec.builder()
                .pointId("gpu-rails")
                .op(op)
                .size(size)
                .batch(batch)
                .mode(Mode.BANDWIDTH)
                .transport("verbs")
                .initiatorMemory(gpu)
                .targetMemory(gpu)
                .build();
        List<RailResult> rails = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            double g = i == slowIndex ? slowGbps : gbps;
            rails.add(RailsCriteriaTest.rail(
                    i, "gpu" + i, s, g, avgMicros >= 0 ? avgMicros : size / (g * 1e3), 0, 1_000_000_000L));
        }
        return Measurement.ofRails(s, rails);
    }
}
