package dev.linkproof.transfer.tcp;

import static org.assertj.core.api.Assertions.assertThat;

import dev.linkproof.transfer.agent.AgentMain;
import dev.linkproof.transfer.session.LocalAgent;
import dev.linkproof.transfer.testing.Procs;
import dev.linkproof.transfer.testing.RailsNetns;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * Two tcp rails of one point, each over a link of its own: the namespaces and veth pairs of
 * {@link RailsNetns}, rail k being {@code 10.77.k.1 -> 10.77.k.2}. The agent runs in the target's
 * namespace on rail 0's address; {@link RailsInitiatorMain} runs in the initiator's and drives both
 * rails at once, rail k pinned by {@code tcp.address} and {@code tcp.source}. The links' byte
 * counters and the initiator's socket table show where each rail's bytes went; a tbf on rail 1's
 * link shows that its rail, and only its rail, is the one slowed. Needs root and iproute2; skips
 * otherwise.
 */
@Timeout(120)
class TcpRailsNetnsTest {
    private static final int RAILS = 2;
    private static final long SIZE = 1 << 20;
    /** How long one initiator run may take, its JVM's start included. */
    private static final Duration RUN_DEADLINE = Duration.ofSeconds(60);

    private static final String THROTTLE = "50mbit";
    private static final double THROTTLE_GBPS = 50e6 / 8 / 1e9;

    @TempDir
    static Path dir;

    private static RailsNetns net;
    private static LocalAgent agent;

    @BeforeAll
    static void upTheRailsAndTheAgent() throws Exception {
        net = RailsNetns.up(RAILS);
        // The agent listens on rail 0's address only: every rail's control connection shares that link,
        // so a rail's data reaches its own link only through its tcp.address.
        agent = LocalAgent.start(
                net.inTargetNs(),
                RailsNetns.targetAddress(0),
                List.of("-Xmx128m"),
                Map.of(),
                dir.resolve("agent.log"),
                Duration.ofSeconds(30));
    }

    @AfterAll
    static void downTheAgentAndTheRails() throws Exception {
        try {
            if (agent != null) {
                agent.close();
                assertThat(Procs.gone(agent.pid()))
                        .as("the agent %d is gone", agent.pid())
                        .isTrue();
            }
        } finally {
            if (net != null) {
                net.close();
            }
        }
    }

    /** Rail k's settings: its own pair of addresses. */
    private static String pinned(int rail) {
        return TcpSettings.ADDRESS + "=" + RailsNetns.targetAddress(rail) + "," + TcpSettings.SOURCE + "="
                + RailsNetns.initiatorAddress(rail);
    }

    @Test
    void twoRailsRunAtOnceEachOverItsOwnLink() throws Exception {
        Map<Integer, RailsNetns.LinkStats> before = net.stats();
        Run run = initiate(64, pinned(0), pinned(1));
        Map<Integer, RailsNetns.LinkStats> after = net.stats();

        assertThat(run.rails())
                .as(run.output())
                .hasSize(RAILS)
                .allSatisfy(r ->
                        assertThat(r.valid()).as("rail %d valid", r.index()).isTrue());
        for (RailLine x : run.rails()) {
            for (RailLine y : run.rails()) {
                assertThat(x.start())
                        .as("rail %d started before rail %d ended; %s", x.index(), y.index(), run.output())
                        .isLessThan(y.end());
            }
        }
        assertEachRailOnItsOwnLink(run, before, after);
    }

    @Test
    void aThrottledRailIsTheSlowestAndItsLinkIsTheOneThatSlowedIt() throws Exception {
        Map<Integer, RailsNetns.LinkStats> before = net.stats();
        net.throttle(1, THROTTLE);
        Run run;
        try {
            assertThat(net.stats().get(1).throttled()).isTrue();
            // 16 MiB and the warmup and verification through 50 mbit: about 3 s.
            run = initiate(16, pinned(0), pinned(1));
        } finally {
            net.unthrottle(1);
        }
        Map<Integer, RailsNetns.LinkStats> after = net.stats();

        assertThat(run.rails())
                .as(run.output())
                .hasSize(RAILS)
                .allSatisfy(r -> assertThat(r.valid()).isTrue());
        RailLine fast = run.rails().get(0);
        RailLine slow = run.rails().get(1);
        System.out.printf(
                "rails over veth: rail 0 %.4f GB/s, rail 1 (tbf %s) %.4f GB/s%n", fast.gbps(), THROTTLE, slow.gbps());
        assertThat(slow.gbps())
                .as("rail 1 (throttled to %s) against rail 0; %s", THROTTLE, run.output())
                .isLessThan(0.5 * fast.gbps());
        // The tbf set rail 1's pace: it ran at about the link's rate, not at some other slowness.
        assertThat(slow.gbps())
                .as("rail 1's GB/s against the tbf's %.5f", THROTTLE_GBPS)
                .isBetween(0.5 * THROTTLE_GBPS, 1.5 * THROTTLE_GBPS);
        assertEachRailOnItsOwnLink(run, before, after);
    }

    /**
     * Every byte rail k sent left on link k, and little else did: the link's transmit counter moved by
     * at least the rail's payload and by less than 10% (headers, acknowledgements' replies, control)
     * and 1 MiB more — far less than two rails' payload. And every data connection the initiator made
     * to rail k's target address came from rail k's own address.
     */
    private static void assertEachRailOnItsOwnLink(
            Run run, Map<Integer, RailsNetns.LinkStats> before, Map<Integer, RailsNetns.LinkStats> after)
            throws Exception {
        for (RailLine r : run.rails()) {
            long sent = after.get(r.index()).txBytes() - before.get(r.index()).txBytes();
            System.out.printf(
                    "rail %d: %d bytes of payload, %d bytes sent on lpri%d%n", r.index(), r.moved(), sent, r.index());
            assertThat(sent)
                    .as(
                            "bytes sent on rail %d's link (lpri%d) for its %d bytes of payload; links before %s, after"
                                    + " %s",
                            r.index(), r.index(), r.moved(), before, after)
                    .isGreaterThanOrEqualTo(r.moved())
                    .isLessThan((long) (r.moved() * 1.10) + (1 << 20));
        }
        List<Procs.TcpSocket> sockets = net.initiatorSockets();
        for (int rail = 0; rail < RAILS; rail++) {
            String target = RailsNetns.targetAddress(rail);
            String source = RailsNetns.initiatorAddress(rail);
            List<Procs.TcpSocket> data = sockets.stream()
                    .filter(s -> s.remote().getAddress().getHostAddress().equals(target)
                            && s.remote().getPort() != agent.port())
                    .toList();
            assertThat(data)
                    .as("the initiator's data connections to %s (its sockets: %s)", target, sockets)
                    .hasSizeGreaterThanOrEqualTo(RailsInitiatorMain.CONNECTIONS)
                    .allSatisfy(s -> assertThat(s.local().getAddress().getHostAddress())
                            .as(s.toString())
                            .isEqualTo(source));
        }
    }

    private record RailLine(int index, boolean valid, double gbps, long start, long end, long moved) {}

    private record Run(List<RailLine> rails, String output) {}

    private static final Pattern RAIL = Pattern.compile(
            "rail index=(\\d+) label=\\S+ valid=(\\w+) GBps=([0-9.]+) start=(-?\\d+) end=(-?\\d+) moved=(\\d+)");

    /** Runs {@link RailsInitiatorMain} in the initiator's namespace, one rail per settings argument; within {@link #RUN_DEADLINE}. */
    private static Run initiate(int iterations, String... railSettings) throws Exception {
        List<String> cmd = new ArrayList<>(net.inInitiatorNs());
        cmd.addAll(List.of(
                Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "--enable-native-access=ALL-UNNAMED",
                "-Xmx256m",
                "-XX:+UseSerialGC",
                "-cp",
                System.getProperty("java.class.path"),
                RailsInitiatorMain.class.getName(),
                RailsNetns.targetAddress(0),
                Integer.toString(agent.port()),
                Long.toString(SIZE),
                Integer.toString(iterations)));
        cmd.addAll(List.of(railSettings));
        Path out = Files.createTempFile(dir, "initiator", ".log");
        ProcessBuilder pb = new ProcessBuilder(cmd).redirectErrorStream(true).redirectOutput(out.toFile());
        pb.environment().put(AgentMain.TOKEN_ENV, agent.token());
        Process p = pb.start();
        try {
            boolean ended = p.waitFor(RUN_DEADLINE.toMillis(), TimeUnit.MILLISECONDS);
            String output = Files.readString(out);
            assertThat(ended)
                    .as(
                            "the initiator ended within %s; its output so far:%n%s%nagent log:%n%s",
                            RUN_DEADLINE, output, agentLog())
                    .isTrue();
            assertThat(p.exitValue())
                    .as("the initiator's exit; its output:%n%s%nagent log:%n%s", output, agentLog())
                    .isZero();
            assertThat(output).contains(RailsInitiatorMain.DONE);
            List<RailLine> rails = new ArrayList<>();
            for (String line : output.split("\n")) {
                Matcher m = RAIL.matcher(line.trim());
                if (m.matches()) {
                    rails.add(new RailLine(
                            Integer.parseInt(m.group(1)),
                            Boolean.parseBoolean(m.group(2)),
                            Double.parseDouble(m.group(3)),
                            Long.parseLong(m.group(4)),
                            Long.parseLong(m.group(5)),
                            Long.parseLong(m.group(6))));
                }
            }
            return new Run(rails, output);
        } finally {
            p.destroyForcibly().waitFor(5, TimeUnit.SECONDS);
        }
    }

    private static String agentLog() {
        try {
            return Files.readString(agent.log());
        } catch (IOException e) {
            return "(unreadable: " + e + ")";
        }
    }
}
