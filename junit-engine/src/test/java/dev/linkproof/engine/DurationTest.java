package dev.linkproof.engine;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.platform.engine.discovery.DiscoverySelectors.selectClass;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.linkproof.engine.config.Constants;
import dev.linkproof.engine.fixtures.DurationFixture;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.platform.testkit.engine.EngineTestKit;

/**
 * {@code linkproof.duration}: a point of 20 iterations (a millisecond here) run for about a second
 * measures many more, and its timed loop is of the order of the time asked for. The bounds (a tenth
 * to ten times) check that the duration shaped the run, not how closely: in a fresh JVM a short
 * pace run is still warming up (a loop of a quarter of the time was seen in CI), and how close a
 * soak of tens of seconds comes is measured by hand (see TimedRun's commit and the session notes).
 * Without the key, the 20 written.
 */
class DurationTest {
    @TempDir
    Path dir;

    private JsonNode run(String... config) throws Exception {
        Path results = dir.resolve("r" + System.nanoTime() + ".jsonl");
        var kit = EngineTestKit.engine(Constants.ENGINE_ID)
                .selectors(selectClass(DurationFixture.class))
                .configurationParameter(Constants.PROGRESS, "false")
                .configurationParameter(Constants.RESULTS, results.toString());
        for (int i = 0; i < config.length; i += 2) {
            kit = kit.configurationParameter(config[i], config[i + 1]);
        }
        kit.execute().testEvents().assertStatistics(s -> s.started(1).succeeded(1));
        return new ObjectMapper().readTree(Files.readAllLines(results).getFirst());
    }

    @Test
    void aPointRunsForAboutTheDurationInsteadOfItsIterations() throws Exception {
        assertThat(run().path("iterations").asInt()).isEqualTo(20);

        JsonNode timed = run(Constants.DURATION, "1s");
        int iterations = timed.path("iterations").asInt();
        double loopMillis = iterations * timed.path("avgLatencyUs").asDouble() / 1000;
        assertThat(iterations).isGreaterThan(20);
        assertThat(loopMillis).as("the timed loop of %d iterations", iterations).isBetween(100.0, 10_000.0);
    }
}
