package dev.linkproof.conformance.e2e;

import static org.assertj.core.api.Assertions.assertThat;

import dev.linkproof.conformance.e2e.fixtures.PartitionedMidSweep;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.function.Predicate;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * The fault matrix's partition: the engine in one network namespace runs a sweep against an agent in
 * another ({@link TwoNamespaces}); while the second, long point moves data, the target's end of the
 * veth link goes down — no RST, no FIN, both sides simply stop hearing each other. That point fails
 * as a peer failure within the progress deadline; the link comes back up, and the remaining points
 * pass against the same agent, the session re-provisioned. Needs root and iproute2 (skips otherwise).
 */
@Tag("e2e")
class PartitionTest {
    static final String TARGET_ADDR = "198.51.100.17";
    static final String INITIATOR_ADDR = "198.51.100.18";
    /** The progress deadline of the run (and, through HELLO, of the agent's side). */
    static final Duration PROGRESS = Duration.ofSeconds(5);
    /** What the failure may take beyond the deadline: the data path's poll interval, the report. */
    static final Duration SLACK = Duration.ofSeconds(3);

    private record Line(String text, long nanos) {}

    @Test
    void aPartitionMidPointFailsItWithinTheProgressDeadlineAndTheRunRecoversOnceTheLinkIsBack() throws Exception {
        try (TwoNamespaces hosts = TwoNamespaces.create("lp-part", TARGET_ADDR, INITIATOR_ADDR)) {
            String token = "partition-" + Long.toHexString(System.nanoTime()) + "-token";
            try (TwoNamespaces.Agent agent = hosts.startAgent(token, Path.of("target", "partition-agent.log"))) {
                String peer = TARGET_ADDR + ":" + agent.port();
                Process initiator = new ProcessBuilder(hosts.initiatorCommand(
                                PartitionedMidSweep.class,
                                List.of(
                                        "-Dlinkproof.peer=" + peer,
                                        "-Dlinkproof.token=" + token,
                                        "-Dlinkproof.profile=" + E2e.VALIDATION_ONLY,
                                        "-Dlinkproof.timeout.progress=" + PROGRESS.toSeconds() + "s",
                                        // The link comes back before the next point connects, not when this test gets
                                        // round to it;
                                        // and the neighbour caches forget the partition: an ARP entry that went FAILED
                                        // while the link
                                        // was down answers "No route to host" for a while after it is up again (seen on
                                        // a loaded host).
                                        "-D" + RemoteSweepMain.AFTER_FAILURE + "=ip -n " + hosts.targetNs()
                                                + " link set " + hosts.targetLink() + " up && ip -n "
                                                + hosts.initiatorNs() + " neigh flush all && ip -n " + hosts.targetNs()
                                                + " neigh flush all",
                                        "-Dlinkproof.results="
                                                + Path.of("target", "partition-results.jsonl")
                                                        .toAbsolutePath(),
                                        "-Dallure.results.directory="
                                                + Path.of("target", "partition-allure-results")
                                                        .toAbsolutePath())))
                        .redirectErrorStream(true)
                        .start();
                List<Line> lines = new CopyOnWriteArrayList<>();
                Path log = Path.of("target", "partition-initiator.log");
                long logStart = System.nanoTime();
                Thread reader = Thread.ofPlatform().daemon().start(() -> copy(initiator, lines, log, logStart));
                try {
                    Line started = await(
                            lines,
                            l -> l.startsWith(RemoteSweepMain.STARTED + "write 64 MiB"),
                            Duration.ofSeconds(120),
                            log);
                    Thread.sleep(1000); // into the timed loop of 64 MiB × 1000
                    // From when the command returns: ip waits for the kernel's RTNL lock, which a namespace
                    // being deleted elsewhere on the host can hold for seconds; once it returns, the link is down.
                    long asked = System.nanoTime();
                    hosts.targetLink(false);
                    long down = System.nanoTime();
                    Predicate<String> failedLine = l -> l.startsWith(RemoteSweepMain.FINISHED + "write 64 MiB");
                    // The initiator's sockets while the link is down, for whoever reads a slow failure.
                    StringBuilder sockets = new StringBuilder();
                    while (System.nanoTime() - down < PROGRESS.plusSeconds(1).toNanos()
                            && lines.stream().map(Line::text).noneMatch(failedLine)) {
                        sockets.append(String.format(
                                        java.util.Locale.ROOT,
                                        "%.3f s after down:%n",
                                        (System.nanoTime() - down) / 1e9))
                                .append(TwoNamespaces.sh("ip netns exec " + hosts.initiatorNs() + " ss -tnmi")
                                        .output());
                        Thread.sleep(250);
                    }
                    Files.writeString(Path.of("target", "partition-initiator-sockets.txt"), sockets);
                    if (lines.stream().map(Line::text).noneMatch(failedLine)) {
                        // Later than it should be: where the initiator is, for whoever reads the failure.
                        Path dump = Path.of("target", "partition-initiator-threads.txt");
                        new ProcessBuilder(
                                        Path.of(System.getProperty("java.home"), "bin", "jstack")
                                                .toString(),
                                        Long.toString(initiator.pid()))
                                .redirectErrorStream(true)
                                .redirectOutput(dump.toFile())
                                .start()
                                .waitFor(20, TimeUnit.SECONDS);
                    }
                    Line finished =
                            await(lines, failedLine, PROGRESS.plus(SLACK).plusSeconds(30), log);
                    hosts.targetLink(true); // again, should the initiator not have
                    double secondsToFail = (finished.nanos() - down) / 1e9;
                    assertThat(initiator.waitFor(120, TimeUnit.SECONDS))
                            .as("the initiator finished; see %s", log)
                            .isTrue();
                    reader.join(5000);
                    String out = Files.readString(log);
                    assertThat(finished.text()).as(out).endsWith(" FAILED PEER_FAILURE");
                    assertThat(secondsToFail)
                            .as(
                                    "seconds from the link going down (%.3f s in the log, %.1f s into the point; "
                                            + "ip took %.3f s) to the point's failure; output:%n%s",
                                    (down - logStart) / 1e9, (down - started.nanos()) / 1e9, (down - asked) / 1e9, out)
                            .isLessThan(PROGRESS.plus(SLACK).toMillis() / 1000.0);
                    System.out.printf(
                            "partition: the point failed %.2f s after the link went down (progress deadline %d s; "
                                    + "ip link set down took %.3f s)%n",
                            secondsToFail, PROGRESS.toSeconds(), (down - asked) / 1e9);
                    assertThat(out).contains("peer failure").contains("[deadline: linkproof.timeout.progress=5s");
                    for (String size : new String[] {"4 KiB", "16 KiB", "32 KiB"}) {
                        assertThat(lines.stream()
                                        .map(Line::text)
                                        .filter(l -> l.startsWith(RemoteSweepMain.FINISHED + "write " + size + " ")))
                                .as("write %s; output:%n%s", size, out)
                                .singleElement()
                                .asString()
                                .endsWith(" SUCCESSFUL -");
                    }
                    assertThat(out).contains("remote-sweep: 3 passed, 1 failed, 0 skipped");
                    assertThat(agent.process().isAlive())
                            .as("the agent served on")
                            .isTrue();
                } finally {
                    initiator.destroyForcibly().waitFor(5, TimeUnit.SECONDS);
                }
            }
        }
    }

    /** Copies the initiator's output to {@code log}, each line after its seconds since {@code start}, and keeps it with when it came. */
    private static void copy(Process p, List<Line> lines, Path log, long start) {
        try (BufferedReader r = new BufferedReader(new InputStreamReader(p.getInputStream(), StandardCharsets.UTF_8));
                var w = Files.newBufferedWriter(log)) {
            String line;
            while ((line = r.readLine()) != null) {
                long now = System.nanoTime();
                lines.add(new Line(line, now));
                w.write(String.format(java.util.Locale.ROOT, "%8.3f ", (now - start) / 1e9) + line + "\n");
                w.flush();
            }
        } catch (IOException ignored) {
            // the process ended
        }
    }

    private static Line await(List<Line> lines, Predicate<String> which, Duration within, Path log) throws Exception {
        long end = System.nanoTime() + within.toNanos();
        while (System.nanoTime() < end) {
            for (Line l : lines) {
                if (which.test(l.text())) {
                    return l;
                }
            }
            Thread.sleep(10);
        }
        throw new AssertionError(
                "no such line within " + within.toSeconds() + " s; output so far:\n" + Files.readString(log));
    }
}
