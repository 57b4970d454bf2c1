package dev.linkproof.transfer.session;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.linkproof.transfer.Availability;
import dev.linkproof.transfer.measure.Measurement;
import dev.linkproof.transfer.spi.Transports;
import dev.linkproof.transfer.testing.Procs;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * An initiator JVM that dies in the middle of a point, by SIGTERM or SIGKILL, leaves nothing
 * behind: the agent it started exits within 2 s and its port no longer listens; an agent it did
 * not start (a remote one, {@code linkproof.peer}) frees everything of that session and serves the
 * next initiator. The initiator is {@link InitiatorMain}, the point one that would run for minutes.
 */
@Timeout(180)
class InitiatorDeathTest {
    /** How long after the initiator's death its agent may still be there. */
    private static final Duration AGENT_EXIT = Duration.ofSeconds(2);

    @TempDir
    Path dir;

    @ParameterizedTest(name = "{0}, initiator {1}")
    @CsvSource({"tcp, SIGTERM", "tcp, SIGKILL", "ucx, SIGTERM", "ucx, SIGKILL"})
    void theLocalAgentExitsWithItsInitiator(String transport, String signal) throws Exception {
        assumeAvailable(transport);
        InitiatorDeathCheck.localAgentExitsWithItsInitiator(dir, transport, signal, List.of(), AGENT_EXIT);
    }

    /**
     * A remote agent's initiator is SIGKILLed mid-point: the agent stays up, frees the session
     * (its sockets and descriptors back to what it held idle), and runs the next initiator's point.
     */
    @ParameterizedTest(name = "{0}")
    @ValueSource(strings = {"tcp", "ucx"})
    void aRemoteAgentFreesAVanishedInitiatorsSessionAndServesTheNext(String transport) throws Exception {
        assumeAvailable(transport);
        Path agentLog = dir.resolve("remote-agent.log");
        try (LocalAgent agent = LocalAgent.start(List.of("-Xmx128m"), agentLog, Duration.ofSeconds(60))) {
            // What the agent holds idle, once the transport's libraries are loaded and its first session is over.
            run(agent, transport, "warm-up");
            List<String> idle = awaitSettled(agent.pid(), Duration.ofSeconds(5));

            InitiatorDeathCheck.Initiator initiator = InitiatorDeathCheck.Initiator.start(
                    dir,
                    List.of(),
                    List.of("peer", transport, agent.host(), Integer.toString(agent.port()), agent.token()));
            try {
                initiator.awaitLine("point started", Duration.ofSeconds(60));
                Thread.sleep(InitiatorDeathCheck.INTO_THE_POINT_MILLIS);
                assertThat(Procs.fds(agent.pid()).size())
                        .as("the agent holds the point's resources")
                        .isGreaterThan(idle.size());
                initiator.kill("SIGKILL");
            } finally {
                initiator.process().destroyForcibly();
            }
            long deadline = System.nanoTime() + Duration.ofSeconds(10).toNanos();
            List<String> now = Procs.fds(agent.pid());
            while (!now.equals(idle) && System.nanoTime() < deadline) {
                Thread.sleep(50);
                now = Procs.fds(agent.pid());
            }
            assertThat(agent.alive())
                    .as("the agent outlives a vanished initiator")
                    .isTrue();
            assertThat(now)
                    .as(
                            "the agent's descriptors 10 s after its initiator vanished, against those it held idle;"
                                    + " log:%n%s",
                            read(agentLog))
                    .isEqualTo(idle);
            String released = "the session from /127.0.0.1:\\d+ ended holding 1 point\\(s\\): released";
            while (!java.util.regex.Pattern.compile(released)
                            .matcher(read(agentLog))
                            .find()
                    && System.nanoTime() < deadline) {
                Thread.sleep(50); // logged after the release, then through the pipe into the log
            }
            assertThat(read(agentLog)).containsPattern(released);
            assertThat(run(agent, transport, "after").isValid())
                    .as("the next initiator's point")
                    .isTrue();
        }
    }

    private static Measurement run(LocalAgent agent, String transport, String name) throws Exception {
        try (Session s = Session.open(agent.host(), agent.port(), agent.token(), Timeouts.DEFAULT)) {
            Measurement m = s.run(InitiatorMain.shortPoint(transport, "InitiatorDeathTest#" + name));
            assertThat(m.isValid()).as(name).isTrue();
            return m;
        }
    }

    /** The agent's descriptors once they stop changing (its session's sockets close after BYE). */
    private static List<String> awaitSettled(long pid, Duration max) throws InterruptedException {
        long deadline = System.nanoTime() + max.toNanos();
        List<String> last = Procs.fds(pid);
        while (System.nanoTime() < deadline) {
            Thread.sleep(300);
            List<String> now = Procs.fds(pid);
            if (now.equals(last)) {
                return now;
            }
            last = now;
        }
        return last;
    }

    private static void assumeAvailable(String transport) {
        Availability a = Transports.discover().require(transport).availability();
        assumeTrue(a.available(), () -> transport + " unavailable: " + a.reason());
    }

    private static String read(Path log) {
        try {
            return Files.exists(log) ? Files.readString(log) : "(no log)";
        } catch (IOException e) {
            return "(unreadable: " + e + ")";
        }
    }
}
