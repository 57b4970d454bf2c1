package dev.linkproof.transfer.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.linkproof.transfer.agent.AgentServer;
import dev.linkproof.transfer.libfabric.Libfabric;
import dev.linkproof.transfer.spi.IoSettings;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import picocli.CommandLine;

/**
 * {@code linkproof-transfer --transport libfabric} against a real agent in this JVM: a point over
 * shm; two rails over tcp;ofi_rxm, one on each of this host's domains of that provider (its
 * interfaces {@code lo} and {@code eth0}), each rail's data path on its own domain on both ranks; and
 * a rail both ways.
 */
class TransferCliLibfabricTest {
    private static final String TOKEN = "cli-libfabric-test-token-01";
    private static final int SIZE = 64 * 1024;
    private static final int BATCH = 4;
    private static final int ITERS = 50;
    private static AgentServer agent;

    private record Run(int rc, String out, String err) {}

    @BeforeAll
    static void start() throws Exception {
        assumeTrue(Libfabric.unavailableReason() == null, () -> "libfabric absent: " + Libfabric.unavailableReason());
        agent = AgentServer.start("127.0.0.1", 0, TOKEN, IoSettings.DEFAULT);
    }

    @AfterAll
    static void stop() {
        if (agent != null) {
            agent.close();
        }
    }

    private static Run run(String... extra) {
        List<String> args = new ArrayList<>(List.of(
                "--peer",
                agent.host() + ":" + agent.port(),
                "--token",
                TOKEN,
                "--transport",
                "libfabric",
                "--size",
                Integer.toString(SIZE),
                "--batch",
                Integer.toString(BATCH),
                "--iters",
                Integer.toString(ITERS),
                "--warmup",
                "2",
                "--depth",
                "2",
                "--format",
                "json"));
        args.addAll(List.of(extra));
        CommandLine cl = TransferCli.commandLine();
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        cl.setOut(new PrintWriter(out, true));
        cl.setErr(new PrintWriter(err, true));
        int rc = cl.execute(args.toArray(String[]::new));
        return new Run(rc, out.toString(), err.toString());
    }

    @Test
    void aPointOverSharedMemory() throws Exception {
        Run r = run("--set", "libfabric.provider=shm", "--op", "read");
        assertThat(r.rc()).as(r.err() + r.out()).isZero();
        JsonNode point = new ObjectMapper().readTree(r.out().lines().toList().getFirst());
        assertThat(point.path("valid").asBoolean()).isTrue();
        assertThat(point.path("bytes").asLong()).isEqualTo((long) SIZE * BATCH * ITERS);
    }

    @Test
    void twoRailsOnTwoDomainsOfTcpRxm() throws Exception {
        assumeTrue(
                java.nio.file.Files.exists(java.nio.file.Path.of("/sys/class/net/eth0")),
                "no eth0: its domain is rail 2");
        Run r = run("--set", "libfabric.provider=tcp;ofi_rxm", "--rails", "lo,eth0");
        assertThat(r.rc()).as(r.err() + r.out()).isZero();
        JsonNode point = new ObjectMapper().readTree(r.out().lines().toList().getFirst());
        assertThat(point.path("rail_count").asInt()).isEqualTo(2);
        assertThat(point.path("valid").asBoolean()).isTrue();
        JsonNode rails = point.path("rails");
        assertThat(rails).extracting(n -> n.path("device").asText()).containsExactly("lo", "eth0");
        for (JsonNode rail : rails) {
            assertThat(rail.path("valid").asBoolean()).isTrue();
            assertThat(rail.path("bytes").asLong()).isEqualTo((long) SIZE * BATCH * ITERS);
        }
    }

    /** {@code --both-ways}: each rail out and back at once on its domain, the agent driving the way back toward ours. */
    @Test
    void bothWaysRunsEachRailOutAndBack() throws Exception {
        Run r = run("--set", "libfabric.provider=tcp;ofi_rxm", "--rails", "lo", "--both-ways", "--op", "write");
        assertThat(r.rc()).as(r.err() + r.out()).isZero();
        JsonNode point = new ObjectMapper().readTree(r.out().lines().toList().getFirst());
        JsonNode rails = point.path("rails");
        assertThat(rails).extracting(n -> n.path("label").asText()).containsExactly("lo", "lo back");
        for (JsonNode rail : rails) {
            assertThat(rail.path("valid").asBoolean()).isTrue();
            assertThat(rail.path("bytes").asLong()).isEqualTo((long) SIZE * BATCH * ITERS);
        }
        assertThat(point.path("valid").asBoolean()).isTrue();
    }
}
