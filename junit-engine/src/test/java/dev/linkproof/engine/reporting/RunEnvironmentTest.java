package dev.linkproof.engine.reporting;

import static org.assertj.core.api.Assertions.assertThat;

import dev.linkproof.engine.MapParameters;
import dev.linkproof.engine.config.LinkproofConfiguration;
import dev.linkproof.engine.judging.RunProfile;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The run's Allure environment describes the host the profile was matched against: with
 * {@code linkproof.probe.root} naming a fake sysfs tree, that tree, not the machine the test runs on.
 */
class RunEnvironmentTest {
    @TempDir
    Path dir;

    private RunReporter reporter(String host, RunProfile profile) {
        return new RunReporter(
                LinkproofConfiguration.from(new MapParameters(Map.of(
                        "linkproof.results", dir.resolve("r.jsonl").toString(),
                        "linkproof.probe.root", dev.linkproof.engine.judging.RunProfileTest.host(host)))),
                profile);
    }

    @Test
    void theEnvironmentIsTheProbedTreeTheProfileWasMatchedAgainst() {
        RunProfile judge = RunProfile.load(LinkproofConfiguration.from(new MapParameters(
                Map.of("linkproof.probe.root", dev.linkproof.engine.judging.RunProfileTest.host("cx7-host")))));
        try (RunReporter reporter = reporter("cx7-host", judge)) {
            Map<String, String> env = reporter.environment();
            assertThat(env.get("profile")).isEqualTo(judge.describe());
            assertThat(env)
                    .containsEntry("host", "cx7-node1")
                    .containsKeys("rdma.mlx5_0", "rdma.mlx5_1")
                    .doesNotContainKey("rdma")
                    .doesNotContainKey("probe");
            assertThat(env).containsAllEntriesOf(judge.probe().environment());
        }
    }
}
