package dev.linkproof.engine.reporting;

import static org.assertj.core.api.Assertions.assertThat;

import dev.linkproof.transfer.FailureKind;

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
        assertThat(s.lines()).first().asString().matches(
                "12 point\\(s\\) in \\d+ s: 2 passed, 6 failed, 4 skipped; 1 rerun\\(s\\)");
        assertThat(s.lines()).containsSubsequence(
                "failed:     1 × Data corruption",
                "skipped:    3 × verbs unavailable: no RDMA device (libibverbs lists none)",
                "skipped:    1 × gpu unavailable: no NVIDIA driver");
        assertThat(s.lines()).contains("failed:     1 × Short on a busy host", "failed:     1 × Performance regression",
                "failed:     1 × Peer failure", "failed:     1 × Failed assertion of the test method", "failed:     1 × Error");
    }

    @Test
    void manyReasonsAreShownUpToALimitAndTheRestCounted() {
        RunSummary s = new RunSummary();
        for (int i = 0; i < RunSummary.REASONS_SHOWN + 2; i++) {
            s.skipped("reason " + i + " " + "x".repeat(300));
        }
        assertThat(s.lines()).hasSize(1 + RunSummary.REASONS_SHOWN + 1);
        assertThat(s.lines().get(1)).hasSize("skipped:    1 × ".length() + 160).endsWith("…");
        assertThat(s.lines().getLast()).isEqualTo("skipped:    2 × for 2 other reason(s) (the Allure report and the results file give each)");
    }

    @Test
    void aSweepFailedAsAWholeIsCountedBesideItsPoints() {
        RunSummary s = new RunSummary();
        s.passed();
        s.passed();
        s.sweepFailed();
        assertThat(s.lines()).hasSize(2);
        assertThat(s.lines().get(0)).endsWith(": 2 passed, 0 failed, 0 skipped");
        assertThat(s.lines().get(1)).isEqualTo("failed:     1 sweep(s) as a whole (curve rule; the points are counted above)");
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
        assertThat(s.lines()).containsSubsequence("device:  mlx5_1: 1 passed, 1 failed", "device:  mlx5_0: 1 passed, 0 failed",
                "device:  mlx5_2: 1 passed, 0 failed");

        RunSummary one = new RunSummary();
        one.onDevice("mlx5_0", true);
        one.passed();
        assertThat(one.lines()).noneMatch(l -> l.startsWith("device:"));
    }

    @Test
    void aRunWithoutPointsSaysNothing() {
        assertThat(new RunSummary().lines()).isEmpty();
    }
}
