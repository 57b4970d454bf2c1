package dev.linkproof.conformance.e2e;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.linkproof.conformance.e2e.fixtures.TwoTcpRails;
import dev.linkproof.transfer.session.LocalAgent;
import dev.linkproof.transfer.testing.RailsNetns;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * Two tcp rails through the engine, each over a link of its own: an initiator's and a target's
 * network namespace joined by two veth pairs (scripts/lib/rails-netns.sh), the agent in the target's,
 * the engine (RemoteSweepMain) in the initiator's with {@code linkproof.tcp.rails} naming the links and
 * a profile whose only rule is the balance (the slowest rail at least half the median). With rail 1
 * throttled by {@code tc tbf} to 50 Mbit/s the point fails below that criterion naming rail 1 and its
 * link; without the throttle the same point passes, so the failure was the link's.
 */
@Tag("e2e")
@Timeout(300)
class TcpRailsThrottleTest {
    static final String PROFILE = Path.of("src", "test", "resources", "profiles", "rails-balance.yaml")
            .toAbsolutePath()
            .toString();

    @TempDir
    Path dir;

    @Test
    void aThrottledRailFailsThePointNamedAndTheSamePointPassesWithoutIt() throws Exception {
        try (RailsNetns net = RailsNetns.up(2);
                LocalAgent agent = LocalAgent.start(
                        net.inTargetNs(),
                        RailsNetns.targetAddress(0),
                        List.of("-Xmx256m"),
                        java.util.Map.of(),
                        dir.resolve("agent.log"),
                        Duration.ofSeconds(60))) {
            JsonNode clear = run(net, agent, "clear");
            if (!clear.path("status").asText().equals("passed")) {
                // The control is a timing judgement over 8 batches on 2 shared CPUs: a neighbour's burst
                // can leave one clear rail short once (seen once in a full build). It gets one more
                // run; the throttled case below, what this test is for, gets none.
                clear = run(net, agent, "clear-again");
            }
            assertThat(clear.path("status").asText()).as(clear.toString()).isEqualTo("passed");
            assertThat(clear.path("rails")).hasSize(2);
            assertThat(clear.path("rails").get(1).path("label").asText()).isEqualTo("10.77.1.1->10.77.1.2");
            // The rails ran together: each one's timed loop started before the other's ended.
            JsonNode r0 = clear.path("rails").get(0);
            JsonNode r1 = clear.path("rails").get(1);
            assertThat(r0.path("startMs").asDouble())
                    .isLessThan(r1.path("startMs").asDouble()
                            + r1.path("durationMs").asDouble());
            assertThat(r1.path("startMs").asDouble())
                    .isLessThan(r0.path("startMs").asDouble()
                            + r0.path("durationMs").asDouble());

            net.throttle(1, "50mbit");
            JsonNode slow = run(net, agent, "throttled");
            assertThat(slow.path("status").asText()).as(slow.toString()).isEqualTo("failed");
            // Busy-host reruns may turn the kind into "short on a busy host"; the finding is the rail either way.
            assertThat(slow.path("failureKind").asText()).isIn("BELOW_CRITERION", "SHORT_ON_BUSY_HOST");
            assertThat(slow.path("message").asText())
                    .contains("rail 1 (10.77.1.1->10.77.1.2)")
                    .contains("is below 0.50 × the median rail")
                    .doesNotContain("rail 0 (");
            assertThat(net.stats().get(1).throttled()).isTrue();
        }
    }

    /** The fixture's point in the initiator's namespace, against the agent; its results record. */
    private JsonNode run(RailsNetns net, LocalAgent agent, String name) throws Exception {
        Path results = dir.resolve(name + ".jsonl");
        List<String> cmd = new ArrayList<>(net.inInitiatorNs());
        cmd.addAll(List.of(
                Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "--enable-native-access=ALL-UNNAMED",
                "-Xmx256m",
                "-Dlinkproof.peer=" + RailsNetns.targetAddress(0) + ":" + agent.port(),
                "-Dlinkproof.token=" + agent.token(),
                "-Dlinkproof.tcp.rails=" + RailsNetns.initiatorAddress(0) + "->" + RailsNetns.targetAddress(0) + ","
                        + RailsNetns.initiatorAddress(1) + "->" + RailsNetns.targetAddress(1),
                "-Dlinkproof.profile=" + PROFILE,
                "-Dlinkproof.results=" + results,
                "-Dallure.results.directory=" + dir.resolve(name + "-allure"),
                "-cp",
                System.getProperty("java.class.path"),
                RemoteSweepMain.class.getName(),
                TwoTcpRails.class.getName()));
        Path log = dir.resolve(name + ".log");
        Process p = new ProcessBuilder(cmd)
                .redirectErrorStream(true)
                .redirectOutput(log.toFile())
                .start();
        boolean done = p.waitFor(120, TimeUnit.SECONDS);
        if (!done) {
            p.destroyForcibly().waitFor(5, TimeUnit.SECONDS);
        }
        String out = Files.readString(log);
        assertThat(done).as("the run ended within 120 s; output:%n%s", out).isTrue();
        assertThat(results).as("results file; output:%n%s", out).exists();
        List<String> lines = Files.readAllLines(results).stream()
                .filter(l -> l.contains("\"status\""))
                .toList();
        assertThat(lines).as("one point's record; output:%n%s", out).hasSize(1);
        return new ObjectMapper().readTree(lines.getFirst());
    }
}
