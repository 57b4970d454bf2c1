package dev.linkproof.transfer.agent;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import dev.linkproof.transfer.Layout;
import dev.linkproof.transfer.MemoryKind;
import dev.linkproof.transfer.MemoryPlacement;
import dev.linkproof.transfer.Mode;
import dev.linkproof.transfer.Op;
import dev.linkproof.transfer.PeerFailureException;
import dev.linkproof.transfer.TransferSpec;
import dev.linkproof.transfer.control.ControlChannel;
import dev.linkproof.transfer.control.MessageType;
import dev.linkproof.transfer.control.Messages;
import dev.linkproof.transfer.control.RemoteErrorException;
import dev.linkproof.transfer.measure.Measurement;
import dev.linkproof.transfer.session.Session;
import dev.linkproof.transfer.session.Timeouts;
import dev.linkproof.transfer.spi.IoSettings;
import java.time.Duration;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * A target agent in this JVM and an initiator session against it, over real loopback sockets: the
 * points it runs. What it refuses, and how it goes on after, is AgentRefusalsTest's.
 */
@Timeout(60)
class AgentSessionTest {
    static final String TOKEN = "0123456789abcdef-test-token";
    static final Timeouts TIMEOUTS = new Timeouts(
            Duration.ofSeconds(10),
            Duration.ofSeconds(10),
            new IoSettings(Duration.ofSeconds(10), Duration.ofSeconds(10)));

    @RegisterExtension
    static final InProcessAgent AGENT = new InProcessAgent(TOKEN);

    private Session session;

    @BeforeEach
    void open() throws Exception {
        session = Session.open("127.0.0.1", AGENT.port(), TOKEN, TIMEOUTS);
    }

    @AfterEach
    void close() {
        session.close();
    }

    static TransferSpec.Builder spec(String id) {
        return TransferSpec.builder()
                .pointId("AgentSessionTest#" + id)
                .iterations(5)
                .warmup(2);
    }

    @Test
    void welcomeDescribesTheAgent() {
        Messages.Welcome w = session.agent();
        assertThat(w.agentVersion()).isEqualTo(AgentMain.VERSION);
        assertThat(w.pid()).isEqualTo(ProcessHandle.current().pid());
        assertThat(w.transports()).anySatisfy(t -> {
            assertThat(t.id()).isEqualTo("tcp");
            assertThat(t.available()).isTrue();
        });
        assertThat(session.usable()).isTrue();
        assertThat(AGENT.port()).isPositive();
        assertThat(AGENT.host()).isEqualTo("127.0.0.1");
    }

    @Test
    void theSessionTakesTheInitiatorsProgressDeadline() throws Exception {
        // The agent was started with IoSettings.DEFAULT (10 s); each session says its own.
        assertThat(session.agent().progressTimeoutMillis()).isEqualTo(10_000);
        Timeouts patient = new Timeouts(
                TIMEOUTS.agentStart(),
                TIMEOUTS.control(),
                new IoSettings(Duration.ofSeconds(95), Duration.ofSeconds(10)));
        try (Session other = Session.open("127.0.0.1", AGENT.port(), TOKEN, patient)) {
            assertThat(other.agent().progressTimeoutMillis()).isEqualTo(95_000);
        }
    }

    static Stream<Arguments> specs() {
        return Stream.of(
                Arguments.of(
                        "write 64 KiB", spec("w64k").op(Op.WRITE).size(65536).build()),
                Arguments.of("read 64 KiB", spec("r64k").op(Op.READ).size(65536).build()),
                Arguments.of("write 1 B", spec("w1").op(Op.WRITE).size(1).build()),
                Arguments.of("read 1 B", spec("r1").op(Op.READ).size(1).build()),
                Arguments.of(
                        "write 4097 ×3 · 2 conn · offset 3",
                        spec("wodd")
                                .op(Op.WRITE)
                                .size(4097)
                                .batch(3)
                                .connections(2)
                                .offset(3)
                                .build()),
                Arguments.of(
                        "read 4097 ×3 · 2 conn · strided",
                        spec("rodd")
                                .op(Op.READ)
                                .size(4097)
                                .batch(3)
                                .connections(2)
                                .layout(Layout.STRIDED)
                                .build()),
                Arguments.of(
                        "write striped over 3 conn",
                        spec("wstripe").op(Op.WRITE).size(10).connections(3).build()),
                Arguments.of(
                        "read striped over 4 conn",
                        spec("rstripe").op(Op.READ).size(100_003).connections(4).build()),
                Arguments.of(
                        "write pipelined 4 deep",
                        spec("wpipe")
                                .op(Op.WRITE)
                                .size(8192)
                                .batch(2)
                                .connections(2)
                                .pipelineDepth(4)
                                .iterations(20)
                                .build()),
                Arguments.of(
                        "read pipelined 3 deep",
                        spec("rpipe")
                                .op(Op.READ)
                                .size(3000)
                                .batch(5)
                                .connections(2)
                                .pipelineDepth(3)
                                .iterations(20)
                                .offset(4095)
                                .build()),
                Arguments.of(
                        "write 1 MiB ×2",
                        spec("w1m")
                                .op(Op.WRITE)
                                .size(1 << 20)
                                .batch(2)
                                .connections(2)
                                .build()),
                Arguments.of(
                        "write no warmup",
                        spec("wnowarm")
                                .op(Op.WRITE)
                                .size(512)
                                .warmup(0)
                                .iterations(1)
                                .build()));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("specs")
    void runsAValidatedPoint(String name, TransferSpec spec) throws Exception {
        assertThat(session.supports(spec).available()).isTrue();
        Measurement m = session.run(spec);
        assertThat(m.isValid()).as(m.validation().describe()).isTrue();
        assertThat(m.spec()).isEqualTo(spec);
        assertThat(m.bytes()).isEqualTo(spec.size() * spec.batch() * spec.iterations());
        assertThat(m.totalNanos()).isPositive();
        assertThat(m.bandwidthGBps()).isPositive();
        assertThat(m.validation().slots()).isEqualTo(spec.batch());
        assertThat(m.validation().bytes()).isEqualTo(spec.size() * spec.batch());
        assertThat(m.validation().badSlots()).isZero();
        assertThat(m.validation().firstBad()).isEmpty();
        assertThat(m.latency().hasPercentiles()).isFalse();
        assertThat(m.environment())
                .containsEntry("transport", "tcp")
                .containsEntry(
                        "target.pid", Long.toString(ProcessHandle.current().pid()))
                .containsEntry("target.agent", AgentMain.VERSION)
                .containsKey("initiator.host");
        assertThat(session.usable()).isTrue();
    }

    @Test
    void latencyModeGivesPercentiles() throws Exception {
        TransferSpec spec = spec("lat")
                .op(Op.READ)
                .mode(Mode.LATENCY)
                .size(4096)
                .iterations(30)
                .build();
        Measurement m = session.run(spec);
        assertThat(m.isValid()).isTrue();
        assertThat(m.latency().hasPercentiles()).isTrue();
        assertThat(m.latency().samples()).isEqualTo(30);
        assertThat(m.latency().p50()).isPositive();
        assertThat(m.latency().p50()).isLessThanOrEqualTo(m.latency().p99());
        assertThat(m.latency().p99()).isLessThanOrEqualTo(m.latency().max());
        assertThat(m.summary()).startsWith("p50 ");
    }

    /** RELEASED carries the target host's CPU load over the point, for an initiator on another host. */
    @Test
    void theAgentReportsItsHostsLoadOverThePoint() throws Exception {
        org.junit.jupiter.api.Assumptions.assumeTrue(
                java.nio.file.Files.isReadable(java.nio.file.Path.of("/proc/stat")),
                "no /proc: the agent measures nothing");
        long t0 = System.nanoTime();
        Measurement m = session.run(spec("load").size(4 << 20).iterations(200).build());
        long elapsed = System.nanoTime() - t0;
        var host = m.targetHost().orElseThrow();
        assertThat(host.cpus()).isPositive();
        assertThat(host.wallNanos()).isPositive().isLessThanOrEqualTo(elapsed);
        assertThat(host.otherCpus() + host.ownCpus()).isLessThanOrEqualTo(host.cpus() + 1.0);
    }

    /** LOAD: the agent measures its host over the window asked for, between points. */
    @Test
    void theAgentMeasuresItsHostOverAWindowWhenAsked() throws Exception {
        org.junit.jupiter.api.Assumptions.assumeTrue(
                java.nio.file.Files.isReadable(java.nio.file.Path.of("/proc/stat")),
                "no /proc: the agent measures nothing");
        long t0 = System.nanoTime();
        var host = session.targetLoad(Duration.ofMillis(200)).orElseThrow();
        assertThat(host.wallNanos()).isBetween(200_000_000L, System.nanoTime() - t0);
        assertThat(host.cpus()).isPositive();
        assertThat(session.run(spec("after-load").size(2048).build()).isValid())
                .as("the session goes on")
                .isTrue();
    }

    @Test
    void pointsCanRunOneAfterAnotherAndTheSameIdAgain() throws Exception {
        TransferSpec spec = spec("again").size(2048).build();
        for (int i = 0; i < 6; i++) {
            assertThat(session.run(spec).isValid()).isTrue();
        }
        assertThat(session.run(spec.withPointId("AgentSessionTest#again2")).isValid())
                .isTrue();
    }

    @Test
    void aMissingAgentIsAPeerFailure() throws Exception {
        int port;
        try (var s = new java.net.ServerSocket(0)) {
            port = s.getLocalPort();
        }
        int closedPort = port;
        assertThatThrownBy(() -> Session.open("127.0.0.1", closedPort, TOKEN, TIMEOUTS))
                .isInstanceOf(PeerFailureException.class)
                .hasMessageContaining("cannot reach the target agent at 127.0.0.1:" + closedPort);
    }

    @Test
    void unsupportedPointsAreReportedNotRun() {
        assertThat(session.supports(spec("nope").transport("nope").build()).reason())
                .contains("'nope'");
        assertThat(session.supports(spec("send").op(Op.SEND).build()).available())
                .isFalse();
        assertThat(session.supports(spec("send").op(Op.SEND).build()).reason()).contains("send");
        // No GPU runtime in this JVM's configuration: the target's own reason comes back.
        assertThat(session.supports(spec("gpu")
                                .targetMemory(new MemoryPlacement(MemoryKind.GPU, 0))
                                .build())
                        .reason())
                .startsWith("GPU memory unavailable on the target: GPU unavailable: cuda: ");
        assertThat(session.agent().gpus().available()).isFalse();
    }

    @Test
    void theAgentLocatesACorruptByteWhenAsked() throws Exception {
        ControlChannel c = session.control();
        Duration t = Duration.ofSeconds(5);
        TransferSpec s = spec("locate").size(4097).batch(2).build();
        c.call(MessageType.PREPARE, new Messages.Prepare(s), MessageType.PREPARED, Messages.Prepared.class, t);
        try {
            long[] filled = c.call(
                            MessageType.FILL,
                            new Messages.Fill(s.pointId(), 3),
                            MessageType.CHECKSUMS,
                            Messages.Checksums.class,
                            t)
                    .checksums();
            assertThat(filled).hasSize(2);
            assertThat(c.call(
                                    MessageType.CHECKSUM,
                                    new Messages.Checksum(s.pointId()),
                                    MessageType.CHECKSUMS,
                                    Messages.Checksums.class,
                                    t)
                            .checksums())
                    .containsExactly(filled);
            Messages.Located intact = c.call(
                    MessageType.LOCATE,
                    new Messages.Locate(s.pointId(), 1, 1, 3),
                    MessageType.LOCATED,
                    Messages.Located.class,
                    t);
            assertThat(intact.offset()).isEqualTo(-1);
            Messages.Located stale = c.call(
                    MessageType.LOCATE,
                    new Messages.Locate(s.pointId(), 1, 1, 2),
                    MessageType.LOCATED,
                    Messages.Located.class,
                    t);
            assertThat(stale.offset()).isBetween(0L, 7L);
            assertThat(stale.slot()).isEqualTo(1);
            RemoteErrorException badSlot = catchThrowableOfType(
                    RemoteErrorException.class,
                    () -> c.call(
                            MessageType.LOCATE,
                            new Messages.Locate(s.pointId(), 2, 1, 3),
                            MessageType.LOCATED,
                            Messages.Located.class,
                            t));
            assertThat(badSlot.code()).isEqualTo("out-of-range");
            assertThat(badSlot.getMessage()).contains("slot 2 out of range 0..1");
            RemoteErrorException badRank = catchThrowableOfType(
                    RemoteErrorException.class,
                    () -> c.call(
                            MessageType.LOCATE,
                            new Messages.Locate(s.pointId(), 0, 5, 3),
                            MessageType.LOCATED,
                            Messages.Located.class,
                            t));
            assertThat(badRank.getMessage()).contains("rank 5");
        } finally {
            c.call(
                    MessageType.RELEASE,
                    new Messages.Release(s.pointId()),
                    MessageType.RELEASED,
                    Messages.Released.class,
                    t);
        }
    }

    /**
     * On CHECKSUM the agent waits for the receive completions up to the session's progress deadline,
     * so the initiator waits for that reply its control timeout on top of it: with a progress deadline
     * longer than the control timeout, completions that never come are the agent's own finding, not a
     * control timeout that ends the session as a peer failure.
     */
    @Test
    void lostReceiveCompletionsAreTheAgentsFindingWhenTheProgressDeadlineExceedsTheControlTimeout() throws Exception {
        Duration progress = Duration.ofSeconds(4);
        Timeouts shortControl = new Timeouts(
                Duration.ofSeconds(10), Duration.ofMillis(1500), new IoSettings(progress, Duration.ofSeconds(10)));
        Session s = Session.open("127.0.0.1", AGENT.port(), TOKEN, shortControl);
        try {
            long start = System.nanoTime();
            Measurement m = s.run(spec("lost-completions")
                    .transport(LostCompletionsTransport.ID)
                    .op(Op.WRITE)
                    .size(4096)
                    .build());
            assertThat(Duration.ofNanos(System.nanoTime() - start))
                    .as("the agent waited out the progress deadline")
                    .isGreaterThanOrEqualTo(progress);
            assertThat(m.isValid()).isFalse();
            assertThat(m.validation().describe())
                    .startsWith("completion mismatch: ")
                    .contains("receive completion(s) wrong")
                    .contains("(data valid: ");
            assertThat(s.usable()).isTrue();
        } finally {
            s.close();
        }
    }

    @Test
    void anAgentThatGoesAwayIsAPeerFailureAndTheSessionIsDone() throws Exception {
        AgentServer doomed = AgentServer.start("127.0.0.1", 0, TOKEN, IoSettings.DEFAULT);
        Session s = Session.open("127.0.0.1", doomed.port(), TOKEN, TIMEOUTS);
        try {
            assertThat(s.run(spec("before-death").size(100).build()).isValid()).isTrue();
            doomed.close();
            assertThatThrownBy(() -> s.run(spec("after-death").size(100).build()))
                    .isInstanceOf(PeerFailureException.class)
                    .hasMessageContaining("127.0.0.1:" + doomed.port());
            assertThat(s.usable()).isFalse();
            assertThatThrownBy(() -> s.run(spec("again").size(100).build()))
                    .isInstanceOf(PeerFailureException.class)
                    .hasMessageContaining("closed");
        } finally {
            s.close();
            doomed.close();
        }
    }
}
