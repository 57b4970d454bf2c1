package dev.linkproof.engine;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.platform.engine.discovery.DiscoverySelectors.selectClass;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.linkproof.engine.fixtures.DurationFixture;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.platform.testkit.engine.EngineTestKit;

/**
 * {@code linkproof.duration}: a point of 20 iterations (milliseconds here) run for about 600 ms
 * measures many more, and its timed loop lasts a good part of the time asked for (the bound is loose:
 * the pace of the first run is what sizes the second, and a shared machine's pace drifts).
 * Without the key, the 20 written.
 */
class DurationTest {
    @TempDir
    Path dir;

    private JsonNode run(String... config) throws Exception {
        Path results = dir.resolve("r" + System.nanoTime() + ".jsonl");
        var kit = EngineTestKit.engine(Constants.ENGINE_ID).selectors(selectClass(DurationFixture.class))
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

        JsonNode timed = run(Constants.DURATION, "600ms");
        int iterations = timed.path("iterations").asInt();
        double loopMillis = iterations * timed.path("avgLatencyUs").asDouble() / 1000;
        assertThat(iterations).isGreaterThan(20);
        assertThat(loopMillis).as("the timed loop of %d iterations", iterations).isBetween(150.0, 6000.0);
    }
}
