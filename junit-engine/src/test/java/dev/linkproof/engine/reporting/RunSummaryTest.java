package dev.linkproof.engine.reporting;

import static org.assertj.core.api.Assertions.assertThat;

import dev.linkproof.transfer.FailureKind;
import dev.linkproof.transfer.MemoryPlacement;
import dev.linkproof.transfer.TransferSpec;
import dev.linkproof.transfer.measure.LatencyStats;
import dev.linkproof.transfer.measure.Measurement;
import dev.linkproof.transfer.measure.RailResult;
import dev.linkproof.transfer.validate.Mismatch;
import dev.linkproof.transfer.validate.Validation;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/** The end-of-run summary: outcomes, failures by their kinds' categories (the report's), skip reasons most frequent first. */
class RunSummaryTest {
    @Test
    void countsOutcomesAndGroupsFailuresByCategoryAndSkipsByReason() {
        RunSummary s = new RunSummary();
        s.passed();
        s.passed();
        s.failed(FailureKind.PERFORMANCE_REGRESSION);
        s.failed(FailureKind.DATA_CORRUPTION);
        s.failed(FailureKind.SHORT_ON_BUSY_HOST);
        s.failed(FailureKind.PEER_FAILURE);
        s.failed(FailureKind.TEST_ASSERTION);
        s.failed(FailureKind.ERROR);
        for (int i = 0; i < 3; i++) {
            s.skipped("verbs unavailable: no RDMA device (libibverbs lists none)");
        }
        s.skipped("gpu unavailable: no NVIDIA driver\n(second line)");
        s.rerun();
        assertThat(s.lines())
                .first()
                .asString()
                .matches("12 point\\(s\\) in \\d+ s: 2 passed, 6 failed, 4 skipped; 1 rerun\\(s\\)");
        assertThat(s.lines())
                .containsSubsequence(
                        "failed:     1 × Data corruption",
                        "skipped:    3 × verbs unavailable: no RDMA device (libibverbs lists none)",
                        "skipped:    1 × gpu unavailable: no NVIDIA driver");
        assertThat(s.lines())
                .contains(
                        "failed:     1 × Short on a busy host",
                        "failed:     1 × Performance regression",
                        "failed:     1 × Peer failure",
                        "failed:     1 × Failed assertion of the test method",
                        "failed:     1 × Error");
    }

    @Test
    void manyReasonsAreShownUpToALimitAndTheRestCounted() {
        RunSummary s = new RunSummary();
        for (int i = 0; i < RunSummary.REASONS_SHOWN + 2; i++) {
            s.skipped("reason " + i + " " + "x".repeat(300));
        }
        assertThat(s.lines()).hasSize(1 + RunSummary.REASONS_SHOWN + 1);
        assertThat(s.lines().get(1)).hasSize("skipped:    1 × ".length() + 160).endsWith("…");
        assertThat(s.lines().getLast())
                .isEqualTo("skipped:    2 × for 2 other reason(s) (the Allure report and the results file give each)");
    }

    @Test
    void aSweepFailedAsAWholeIsCountedBesideItsPoints() {
        RunSummary s = new RunSummary();
        s.passed();
        s.passed();
        s.sweepFailed();
        assertThat(s.lines()).hasSize(2);
        assertThat(s.lines().get(0)).endsWith(": 2 passed, 0 failed, 0 skipped");
        assertThat(s.lines().get(1))
                .isEqualTo("failed:     1 sweep(s) as a whole (curve rule; the points are counted above)");
    }

    /** Points on two or more devices (linkproof.nics=each): one line per device, the most failures first; one device, none. */
    @Test
    void pointsOnSeveralDevicesAreCountedPerDevice() {
        RunSummary s = new RunSummary();
        for (String device : new String[] {"mlx5_0", "mlx5_1", "mlx5_2"}) {
            s.onDevice(device, true);
            s.passed();
        }
        s.onDevice("mlx5_1", false);
        s.failed(FailureKind.NIC_NOT_FIT);
        s.onDevice(null, true);
        s.passed();
        assertThat(s.lines())
                .containsSubsequence(
                        "device:  mlx5_1: 1 passed, 1 failed",
                        "device:  mlx5_0: 1 passed, 0 failed",
                        "device:  mlx5_2: 1 passed, 0 failed");

        RunSummary one = new RunSummary();
        one.onDevice("mlx5_0", true);
        one.passed();
        assertThat(one.lines()).noneMatch(l -> l.startsWith("device:"));
    }

    /**
     * A point of rails counts each rail's device, not the one its aggregate's spec names (the run's
     * default NIC): a rail out and back on one NIC once; ucx's device from UCX_NET_DEVICES; a rail of
     * GPUs under its pair; a corrupt rail's device failed and the others passed; a point failed as a
     * whole (aggregate, balance), every rail's device failed.
     */
    @Test
    void aPointOfRailsCountsEachRailsDevice() {
        RunSummary s = new RunSummary();
        s.onRails(
                List.of(rail(0, verbs("mlx5_0"), true), rail(1, verbs("mlx5_1"), true), rail(2, verbs("mlx5_0"), true)),
                true);
        s.passed();
        assertThat(s.lines())
                .containsSubsequence("device:  mlx5_0: 1 passed, 0 failed", "device:  mlx5_1: 1 passed, 0 failed");

        s.onRails(List.of(rail(0, verbs("mlx5_0"), true), rail(1, verbs("mlx5_1"), false)), false);
        s.failed(FailureKind.DATA_CORRUPTION);
        assertThat(s.lines())
                .containsSubsequence("device:  mlx5_1: 1 passed, 1 failed", "device:  mlx5_0: 2 passed, 0 failed");

        s.onRails(List.of(rail(0, verbs("mlx5_0"), true), rail(1, verbs("mlx5_1"), true)), false);
        s.failed(FailureKind.PERFORMANCE_REGRESSION);
        assertThat(s.lines())
                .containsSubsequence("device:  mlx5_1: 1 passed, 2 failed", "device:  mlx5_0: 2 passed, 1 failed");

        RunSummary gpus = new RunSummary();
        TransferSpec pair = TransferSpec.builder()
                .transport("gpu-ipc")
                .initiatorMemory(MemoryPlacement.parse("gpu"))
                .targetMemory(MemoryPlacement.parse("gpu:1"))
                .build();
        gpus.onRails(
                List.of(
                        rail(0, pair, true),
                        rail(1, pair.withMemory(pair.targetMemory(), pair.initiatorMemory()), false)),
                false);
        gpus.failed(FailureKind.DATA_CORRUPTION);
        assertThat(gpus.lines())
                .containsSubsequence(
                        "device:  GPU 1→GPU 0: 0 passed, 1 failed", "device:  GPU 0→GPU 1: 1 passed, 0 failed");

        assertThat(RunSummary.railDevice(TransferSpec.builder()
                        .transport("ucx")
                        .settings(Map.of("UCX_NET_DEVICES", "mlx5_1:1"))
                        .build()))
                .contains("mlx5_1");
        assertThat(RunSummary.railDevice(TransferSpec.builder()
                        .transport("tcp")
                        .settings(Map.of("tcp.address", "10.0.0.2"))
                        .build()))
                .as("a tcp link is no device")
                .isEmpty();
        RunSummary links = new RunSummary();
        links.onRails(List.of(rail(0, TransferSpec.builder().transport("tcp").build(), true)), true);
        links.passed();
        assertThat(links.lines()).noneMatch(l -> l.startsWith("device:"));
    }

    private static TransferSpec verbs(String device) {
        return TransferSpec.builder()
                .transport("verbs")
                .settings(Map.of("verbs.device", device))
                .build();
    }

    private static RailResult rail(int index, TransferSpec spec, boolean valid) {
        Validation v = valid
                ? new Validation(1, 4096, 0, Optional.empty())
                : new Validation(1, 4096, 1, Optional.of(new Mismatch(0, 7, 1, 2)));
        return new RailResult(
                index,
                "rail" + index,
                new Measurement(spec, 1000, 1000, 1.0, LatencyStats.averageOnly(1000), v, Map.of(), List.of()),
                0,
                1000);
    }

    @Test
    void aRunWithoutPointsSaysNothing() {
        assertThat(new RunSummary().lines()).isEmpty();
    }
}
