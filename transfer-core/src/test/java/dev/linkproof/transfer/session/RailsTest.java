package dev.linkproof.transfer.session;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.linkproof.transfer.Deadline;
import dev.linkproof.transfer.Op;
import dev.linkproof.transfer.TransferException;
import dev.linkproof.transfer.TransferSpec;
import dev.linkproof.transfer.agent.AgentServer;
import dev.linkproof.transfer.measure.LoopGate;
import dev.linkproof.transfer.measure.Measurement;
import dev.linkproof.transfer.measure.RailResult;
import dev.linkproof.transfer.spi.IoSettings;
import java.lang.reflect.Proxy;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/** Rails of one point against a real agent in this JVM, over tcp: at once, aggregated, and failing by rail. */
class RailsTest {
    private static final String TOKEN = "rails-test-token-0123";
    private static AgentServer agent;

    @BeforeAll
    static void start() throws Exception {
        agent = AgentServer.start("127.0.0.1", 0, TOKEN, IoSettings.DEFAULT);
    }

    @AfterAll
    static void stop() {
        agent.close();
    }

    private static Session open() throws TransferException {
        return Session.open(agent.host(), agent.port(), TOKEN, Timeouts.DEFAULT);
    }

    private static TransferSpec spec(String id, String transport) {
        return TransferSpec.builder()
                .pointId(id)
                .transport(transport)
                .op(Op.WRITE)
                .size(256 * 1024)
                .batch(4)
                .iterations(200)
                .warmup(5)
                .build();
    }

    @Test
    void railsRunTheirTimedLoopsAtOnceAndTheAggregateSpansThemAll() throws Exception {
        try (Session a = open();
                Session b = open();
                Session c = open()) {
            TransferSpec point = spec("rails-3", "tcp");
            Measurement m = Rails.run(
                    point,
                    List.of(
                            new Rails.Rail("lo-a", a, spec("rails-3/rail0", "tcp")),
                            new Rails.Rail("lo-b", b, spec("rails-3/rail1", "tcp")),
                            new Rails.Rail("lo-c", c, spec("rails-3/rail2", "tcp"))),
                    Duration.ofSeconds(10));

            assertThat(m.isValid()).as(m.validation().describe()).isTrue();
            assertThat(m.spec().pointId()).isEqualTo("rails-3");
            assertThat(m.rails()).extracting(RailResult::index).containsExactly(0, 1, 2);
            assertThat(m.rails()).extracting(RailResult::label).containsExactly("lo-a", "lo-b", "lo-c");
            assertThat(m.bytes()).isEqualTo(3L * 200 * 4 * 256 * 1024);
            long first = m.rails().stream()
                    .mapToLong(RailResult::loopStartNanos)
                    .min()
                    .orElseThrow();
            long last =
                    m.rails().stream().mapToLong(RailResult::loopEndNanos).max().orElseThrow();
            assertThat(m.totalNanos()).isEqualTo(last - first);
            assertThat(m.bandwidthGBps())
                    .isCloseTo(m.bytes() / (double) (last - first), org.assertj.core.data.Offset.offset(1e-9));
            // Every pair of rails overlapped: each started before every other ended.
            for (RailResult x : m.rails()) {
                for (RailResult y : m.rails()) {
                    assertThat(x.loopStartNanos())
                            .as(x.name() + " started before " + y.name() + " ended")
                            .isLessThan(y.loopEndNanos());
                }
                assertThat(x.measurement().isValid()).isTrue();
                assertThat(x.measurement().spec().pointId()).isEqualTo("rails-3/rail" + x.index());
                assertThat(x.measurement().phases()).extracting(p -> p.name()).contains("start barrier", "timed loop");
            }
            assertThat(m.environment()).containsEntry("rails", "3").containsEntry("rail.1", "lo-b");
            assertThat(m.slowestRail()).isPresent();
        }
    }

    /**
     * A lane's spec: its own point id and settings, and its own memory where it has a placement (a
     * rail's GPUs), else the point's; a placement reversed is the same rail the other way.
     */
    @Test
    void aLaneRunsThePointOnItsOwnSettingsAndItsOwnGpus() {
        TransferSpec point = spec("gpus", "gpu-ipc")
                .withMemory(
                        dev.linkproof.transfer.MemoryPlacement.parse("gpu"),
                        dev.linkproof.transfer.MemoryPlacement.parse("gpu:1"));
        var placement = new Rails.Placement(
                dev.linkproof.transfer.MemoryPlacement.parse("gpu:2"),
                dev.linkproof.transfer.MemoryPlacement.parse("gpu:3"));
        TransferSpec own = new Rails.Lane(
                        "GPU 2→GPU 3", null, java.util.Map.of("k", "v"), java.util.Optional.of(placement))
                .specFor(point, 2);
        assertThat(own.pointId()).isEqualTo("gpus/rail=2");
        assertThat(own.settings()).containsEntry("k", "v");
        assertThat(own.initiatorMemory() + "->" + own.targetMemory()).isEqualTo("gpu:2->gpu:3");
        assertThat(placement.reversed()).hasToString("gpu:3->gpu:2");
        TransferSpec same = new Rails.Lane("lo", null, java.util.Map.of()).specFor(point, 0);
        assertThat(same.initiatorMemory() + "->" + same.targetMemory()).isEqualTo("gpu->gpu:1");
    }

    /** ucx: each rail its own context, worker and endpoints in this one process, and on the agent's side. */
    @Test
    void ucxRailsEachHaveTheirOwnWorker() throws Exception {
        var ucx =
                dev.linkproof.transfer.spi.Transports.discover().require("ucx").availability();
        org.junit.jupiter.api.Assumptions.assumeTrue(ucx.available(), () -> "ucx unavailable: " + ucx.reason());
        try (Session a = open();
                Session b = open()) {
            // Shared memory moves this in milliseconds: enough iterations that the loops last longer than a
            // thread waits for a CPU on a 2-CPU host where both ranks' workers spin.
            TransferSpec base = spec("ucx-rails", "ucx")
                    .withSettings(java.util.Map.of("UCX_TLS", "shm"))
                    .withIterations(3000, 5);
            Measurement m = Rails.run(
                    base,
                    List.of(
                            new Rails.Rail("shm-a", a, base.withPointId("ucx-rails/rail0")),
                            new Rails.Rail("shm-b", b, base.withPointId("ucx-rails/rail1"))),
                    Duration.ofSeconds(20));
            assertThat(m.isValid()).as(m.validation().describe()).isTrue();
            assertThat(m.rails())
                    .hasSize(2)
                    .allSatisfy(r -> assertThat(r.measurement().isValid()).isTrue());
            assertThat(m.rails().get(0).loopStartNanos())
                    .isLessThan(m.rails().get(1).loopEndNanos());
            assertThat(m.rails().get(1).loopStartNanos())
                    .isLessThan(m.rails().get(0).loopEndNanos());
        }
    }

    /** A rail that fails while provisioning breaks the barrier: the others run no timed loop, and the point names the rail. */
    @Test
    void aRailThatFailsBeforeTheStartFailsThePointNamedAndStopsTheOthers() throws Exception {
        try (Session a = open();
                Session b = open()) {
            assertThatThrownBy(() -> Rails.run(
                            spec("rails-broken", "tcp"),
                            List.of(
                                    new Rails.Rail("lo", a, spec("rails-broken/rail0", "tcp")),
                                    new Rails.Rail("nowhere", b, spec("rails-broken/rail1", "no-such-transport"))),
                            Duration.ofSeconds(10)))
                    .isInstanceOf(TransferException.class)
                    .hasMessageStartingWith("rail 1 (nowhere): ")
                    .hasMessageContaining("no-such-transport");
            // Rail 0 released its point on the agent: its session goes on.
            assertThat(a.usable()).isTrue();
            assertThat(a.run(spec("after", "tcp")).isValid()).isTrue();
        }
    }

    /** A rail that never arrives: the others stop waiting at the deadline, and the failure names the late rail. */
    @Test
    void aRailThatDoesNotArriveInTimeIsNamedAtTheDeadline() throws Exception {
        TransferSession slow = (TransferSession) Proxy.newProxyInstance(
                getClass().getClassLoader(), new Class<?>[] {TransferSession.class}, (proxy, method, args) -> {
                    if (method.getName().equals("run") && args.length == 2) {
                        Thread.sleep(1500); // still provisioning, long past the barrier's deadline
                        ((LoopGate) args[1]).beforeTimedLoop();
                        throw new AssertionError("the barrier let a late rail start");
                    }
                    throw new UnsupportedOperationException(method.getName());
                });
        try (Session a = open()) {
            long t0 = System.nanoTime();
            assertThatThrownBy(() -> Rails.run(
                            spec("rails-late", "tcp"),
                            List.of(
                                    new Rails.Rail("lo", a, spec("rails-late/rail0", "tcp")),
                                    new Rails.Rail("stuck", slow, spec("rails-late/rail1", "tcp"))),
                            Duration.ofMillis(300)))
                    .isInstanceOf(TransferException.class)
                    .hasMessageStartingWith("rail 1 (stuck) did not reach the rails' start barrier within 300 ms")
                    .satisfies(
                            e -> assertThat(((TransferException) e).deadline()).contains(Deadline.RAIL_START));
            assertThat(Duration.ofNanos(System.nanoTime() - t0)).isLessThan(Duration.ofSeconds(10));
            assertThat(a.usable()).isTrue();
        }
    }
}
