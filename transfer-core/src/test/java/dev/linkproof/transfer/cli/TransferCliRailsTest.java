package dev.linkproof.transfer.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.linkproof.transfer.agent.AgentServer;
import dev.linkproof.transfer.spi.IoSettings;
import dev.linkproof.transfer.ucx.Ucx;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import picocli.CommandLine;

/**
 * {@code --rails} end to end: the command line against a real agent in this JVM, over tcp on loopback.
 * The two rails are {@code 127.0.0.1} (TARGET) and {@code 127.0.0.1->127.0.0.1} (SOURCE->TARGET): both
 * forms, and real addresses of this host, so the rails run whether or not the tcp transport reads
 * {@code tcp.source}/{@code tcp.address} (where it does not, they only label the rails).
 */
class TransferCliRailsTest {
    private static final String TOKEN = "cli-rails-test-token-01";
    private static final String RAILS = "127.0.0.1,127.0.0.1->127.0.0.1";
    private static final int SIZE = 64 * 1024;
    private static final int BATCH = 4;
    private static final int ITERS = 50;
    private static AgentServer agent;

    private record Run(int rc, String out, String err) {}

    @BeforeAll
    static void start() throws Exception {
        agent = AgentServer.start("127.0.0.1", 0, TOKEN, IoSettings.DEFAULT);
    }

    @AfterAll
    static void stop() {
        agent.close();
    }

    private static Run run(String... extra) {
        return runOn("tcp", extra);
    }

    private static Run runOn(String transport, String... extra) {
        return runOn(transport, ITERS, extra);
    }

    private static Run runOn(String transport, int iterations, String... extra) {
        List<String> args = new ArrayList<>(List.of(
                "--peer",
                agent.host() + ":" + agent.port(),
                "--token",
                TOKEN,
                "--transport",
                transport,
                "--size",
                Integer.toString(SIZE),
                "--batch",
                Integer.toString(BATCH),
                "--iters",
                Integer.toString(iterations),
                "--warmup",
                "2",
                "--depth",
                "2"));
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
    void twoRailsGiveTheAggregateOfBothAndEachRailInJson() throws Exception {
        Run r = run("--rails", RAILS, "--format", "json");
        assertThat(r.rc()).as(r.err() + r.out()).isZero();
        List<String> lines = r.out().lines().toList();
        assertThat(lines).hasSize(1);
        JsonNode point = new ObjectMapper().readTree(lines.getFirst());
        long perRail = (long) SIZE * BATCH * ITERS;
        assertThat(point.path("rail_count").asInt()).isEqualTo(2);
        assertThat(point.path("valid").asBoolean()).isTrue();
        assertThat(point.path("bytes").asLong()).isEqualTo(2 * perRail);
        JsonNode rails = point.path("rails");
        assertThat(rails).hasSize(2);
        assertThat(rails.get(0).path("label").asText()).isEqualTo("127.0.0.1");
        assertThat(rails.get(0).path("address").asText()).isEqualTo("127.0.0.1");
        assertThat(rails.get(0).has("source")).isFalse();
        assertThat(rails.get(1).path("label").asText()).isEqualTo("127.0.0.1->127.0.0.1");
        assertThat(rails.get(1).path("source").asText()).isEqualTo("127.0.0.1");
        long sum = 0;
        for (JsonNode rail : rails) {
            sum += rail.path("bytes").asLong();
            assertThat(rail.path("bytes").asLong()).isEqualTo(perRail);
            assertThat(rail.path("valid").asBoolean()).isTrue();
            assertThat(rail.path("gbps").asDouble()).isPositive();
            assertThat(rail.path("ops_per_s").asDouble())
                    .isCloseTo(
                            perRail / (double) SIZE / rail.path("total_ns").asLong() * 1e9,
                            org.assertj.core.data.Percentage.withPercentage(1e-6));
            assertThat(rail.path("start_ms").asDouble())
                    .isLessThan(rail.path("end_ms").asDouble());
        }
        assertThat(point.path("bytes").asLong()).isEqualTo(sum);
        // the aggregate's message rate: every rail's transfers over the first start to the last end
        assertThat(point.path("ops_per_s").asDouble())
                .isCloseTo(
                        sum / (double) SIZE / point.path("total_ns").asLong() * 1e9,
                        org.assertj.core.data.Percentage.withPercentage(1e-6));
        // They ran at once: each started before the other ended; the aggregate spans them both.
        assertThat(rails.get(0).path("start_ms").asDouble())
                .isLessThan(rails.get(1).path("end_ms").asDouble());
        assertThat(rails.get(1).path("start_ms").asDouble())
                .isLessThan(rails.get(0).path("end_ms").asDouble());
        double lastEnd = Math.max(
                rails.get(0).path("end_ms").asDouble(),
                rails.get(1).path("end_ms").asDouble());
        assertThat(point.path("total_ns").asLong() / 1e6).isCloseTo(lastEnd, org.assertj.core.data.Offset.offset(0.01));
    }

    /** {@code --both-ways}: the pair out and back at once, the agent driving the way back toward this process's agent. */
    @Test
    void bothWaysRunsThePairOutAndBackAtOnce() throws Exception {
        // Loops long enough to overlap on a busy 2-CPU host.
        Run r = runOn("tcp", 400, "--both-ways", "--format", "json");
        assertThat(r.rc()).as(r.err() + r.out()).isZero();
        JsonNode point = new ObjectMapper().readTree(r.out().lines().toList().getFirst());
        JsonNode rails = point.path("rails");
        assertThat(rails).hasSize(2);
        assertThat(rails.get(0).path("label").asText()).isEqualTo("out");
        assertThat(rails.get(1).path("label").asText()).isEqualTo("back");
        for (JsonNode rail : rails) {
            assertThat(rail.path("valid").asBoolean()).isTrue();
            assertThat(rail.path("bytes").asLong()).isEqualTo((long) SIZE * BATCH * 400);
        }
        assertThat(rails.get(0).path("start_ms").asDouble())
                .isLessThan(rails.get(1).path("end_ms").asDouble());
        assertThat(rails.get(1).path("start_ms").asDouble())
                .isLessThan(rails.get(0).path("end_ms").asDouble());

        // Two tcp rails both ways: four, each way back to its rail's source.
        Run four = run("--rails", "127.0.0.1->127.0.0.1,127.0.0.2->127.0.0.1", "--both-ways", "--format", "json");
        assertThat(four.rc()).as(four.err() + four.out()).isZero();
        JsonNode all = new ObjectMapper()
                .readTree(four.out().lines().toList().getFirst())
                .path("rails");
        assertThat(all)
                .extracting(n -> n.path("label").asText())
                .containsExactly(
                        "127.0.0.1->127.0.0.1",
                        "127.0.0.2->127.0.0.1",
                        "127.0.0.1->127.0.0.1 back",
                        "127.0.0.2->127.0.0.1 back");
        assertThat(all.get(3).path("address").asText())
                .as("the way back goes to the rail's source")
                .isEqualTo("127.0.0.2");

        Run noSource = run("--rails", "127.0.0.1", "--both-ways");
        assertThat(noSource.rc()).isNotZero();
        assertThat(noSource.err()).contains("--both-ways over tcp rail '127.0.0.1' needs its SOURCE->TARGET");
    }

    @Test
    void theTableListsTheAggregateAndEveryRail() {
        Run r = run("--rails", RAILS);
        assertThat(r.rc()).as(r.err() + r.out()).isZero();
        assertThat(r.out()).contains("2 rails at once (0 127.0.0.1, 1 127.0.0.1->127.0.0.1), started together");
        List<String> rows =
                r.out().lines().filter(l -> l.contains(" " + SIZE + " ")).toList();
        assertThat(rows).hasSize(3);
        assertThat(rows.get(0)).startsWith(" all ").endsWith("  ok");
        assertThat(rows.get(1)).startsWith(" 0 127.0.0.1 ").endsWith("  ok");
        assertThat(rows.get(2)).startsWith(" 1 127.0.0.1->127.0.0.1 ").endsWith("  ok");
    }

    @Test
    void csvHasARowForTheAggregateAndEachRailWithTheRailColumns() {
        Run r = run("--rails", RAILS, "--format", "csv", "--repeat", "2");
        assertThat(r.rc()).as(r.err() + r.out()).isZero();
        List<String> lines = r.out().lines().toList();
        // ops_per_s (every point's message rate) comes after validation, before the rail columns
        assertThat(lines.getFirst()).endsWith(",valid,validation,ops_per_s,rail,label,start_ms,end_ms");
        assertThat(lines).hasSize(1 + 2 * 3);
        List<String[]> rows =
                lines.subList(1, lines.size()).stream().map(l -> l.split(",")).toList();
        assertThat(rows).extracting(c -> c[20]).containsExactly("all", "0", "1", "all", "0", "1");
        assertThat(rows)
                .extracting(c -> c[21])
                .containsExactly(
                        "127.0.0.1+127.0.0.1->127.0.0.1",
                        "127.0.0.1",
                        "127.0.0.1->127.0.0.1",
                        "127.0.0.1+127.0.0.1->127.0.0.1",
                        "127.0.0.1",
                        "127.0.0.1->127.0.0.1");
        for (int p = 0; p < 2; p++) {
            long all = Long.parseLong(rows.get(3 * p)[9]);
            assertThat(all).isEqualTo(Long.parseLong(rows.get(3 * p + 1)[9]) + Long.parseLong(rows.get(3 * p + 2)[9]));
            for (String[] row : rows.subList(3 * p, 3 * p + 3)) {
                // a row's rate is its bytes over its size and its time: bytes / size / total_ns
                double ops = Double.parseDouble(row[19]);
                assertThat(ops)
                        .isPositive()
                        .isCloseTo(
                                Long.parseLong(row[9]) / (double) SIZE / Long.parseLong(row[10]) * 1e9,
                                org.assertj.core.data.Percentage.withPercentage(0.01));
            }
        }
    }

    /** --duration sizes the rails together: every rail runs the iterations the aggregate's pace calls for. */
    @Test
    void durationSizesAllRailsAlike() throws Exception {
        Run r = run("--rails", RAILS, "--format", "json", "--duration", "400ms");
        assertThat(r.rc()).as(r.err() + r.out()).isZero();
        JsonNode point = new ObjectMapper().readTree(r.out().lines().findFirst().orElseThrow());
        long iters = point.path("iters").asLong();
        assertThat(iters).isGreaterThanOrEqualTo(ITERS);
        assertThat(point.path("total_ns").asLong()).isGreaterThan(200_000_000L);
        for (JsonNode rail : point.path("rails")) {
            assertThat(rail.path("bytes").asLong()).isEqualTo(iters * SIZE * BATCH);
        }
    }

    /** One rail runs the same way: the aggregate is that rail. */
    @Test
    void oneRailIsARailToo() throws Exception {
        Run r = run("--rails", "127.0.0.1", "--format", "json");
        assertThat(r.rc()).as(r.err() + r.out()).isZero();
        JsonNode point = new ObjectMapper().readTree(r.out().lines().findFirst().orElseThrow());
        assertThat(point.path("rails")).hasSize(1);
        assertThat(point.path("bytes").asLong()).isEqualTo((long) SIZE * BATCH * ITERS);
    }

    /**
     * ucx rails over shared memory: each rail its own UCX context (its own session, worker and
     * endpoints), its device set as UCX_NET_DEVICES the engine's way (a bare name on port 1), both
     * validated, run at once. UCX's shared-memory transports do not read UCX_NET_DEVICES (it chooses
     * network devices; UCX warns on stderr that these are not), so here the devices only label the
     * rails; {@link #aUcxRailsDeviceReachesItsContext} shows each rail's context does get its own.
     */
    @Test
    void ucxRailsOverSharedMemoryEachWithItsDevice() throws Exception {
        assumeTrue(Ucx.unavailableReason() == null, () -> "libucp absent: " + Ucx.unavailableReason());
        Run r = runOn("ucx", "--set", "UCX_TLS=shm", "--rails", "mlx5_0,mlx5_1:1", "--format", "json");
        assertThat(r.rc()).as(r.err() + r.out()).isZero();
        JsonNode point = new ObjectMapper().readTree(r.out().lines().toList().getFirst());
        assertThat(point.path("transport").asText()).isEqualTo("ucx");
        assertThat(point.path("rail_count").asInt()).isEqualTo(2);
        assertThat(point.path("valid").asBoolean()).isTrue();
        JsonNode rails = point.path("rails");
        assertThat(rails).extracting(n -> n.path("label").asText()).containsExactly("mlx5_0", "mlx5_1:1");
        assertThat(rails).extracting(n -> n.path("device").asText()).containsExactly("mlx5_0:1", "mlx5_1:1");
        long perRail = (long) SIZE * BATCH * ITERS;
        for (JsonNode rail : rails) {
            assertThat(rail.path("valid").asBoolean()).as(rail.toString()).isTrue();
            assertThat(rail.path("validation").asText()).startsWith("data valid: ");
            assertThat(rail.path("bytes").asLong()).isEqualTo(perRail);
            assertThat(rail.path("memory").asText()).isEqualTo("host->host");
        }
        assertThat(point.path("bytes").asLong()).isEqualTo(2 * perRail);
    }

    /**
     * Over UCX's tcp transport, whose devices UCX_NET_DEVICES does choose, a rail on a device UCX does
     * not have cannot make its context: the point fails naming the rail, so each rail's context was
     * made with its own device (a setting the context ignored would have run).
     */
    @Test
    void aUcxRailsDeviceReachesItsContext() {
        assumeTrue(Ucx.unavailableReason() == null, () -> "libucp absent: " + Ucx.unavailableReason());
        Run r = runOn("ucx", "--set", "UCX_TLS=tcp", "--rails", "nosuch0,nosuch1");
        assertThat(r.rc()).as(r.err() + r.out()).isEqualTo(1);
        assertThat(r.out() + r.err())
                .containsPattern("failed: rail [01] \\(nosuch[01]\\): .*ucp_init failed: No such device");
    }

    /**
     * A rail on a device that is not there: skipped naming the rail where verbs is unavailable on this
     * host, failed naming it where verbs runs and the device is missing. Either way the rail is named.
     */
    @Test
    void aRailThatCannotRunIsNamed() {
        Run r = runOn("verbs", "--rails", "nosuch0,nosuch1");
        assertThat(r.out() + r.err()).containsAnyOf("skipped: rail 0 (nosuch0): ", "failed: rail 0 (nosuch0): ");
    }
}
