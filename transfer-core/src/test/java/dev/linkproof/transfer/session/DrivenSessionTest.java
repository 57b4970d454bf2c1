package dev.linkproof.transfer.session;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.linkproof.transfer.Op;
import dev.linkproof.transfer.PeerFailureException;
import dev.linkproof.transfer.TransferException;
import dev.linkproof.transfer.TransferSpec;
import dev.linkproof.transfer.agent.AgentServer;
import dev.linkproof.transfer.control.MessageType;
import dev.linkproof.transfer.control.Messages;
import dev.linkproof.transfer.control.RemoteErrorException;
import dev.linkproof.transfer.measure.Measurement;
import dev.linkproof.transfer.measure.RailResult;
import dev.linkproof.transfer.spi.IoSettings;
import java.lang.reflect.Proxy;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * An agent as the initiator of a point against another agent, at a coordinator's request (DRIVE):
 * two agents in this JVM, the coordinator a session with one of them. The way back of a both-ways
 * rail, and a fleet's pair that the coordinator is neither end of.
 */
class DrivenSessionTest {
    private static final String TOKEN_A = "driven-session-token-a";
    private static final String TOKEN_B = "driven-session-token-b";
    private static AgentServer a;
    private static AgentServer b;

    @BeforeAll
    static void start() throws Exception {
        a = AgentServer.start("127.0.0.1", 0, TOKEN_A, IoSettings.DEFAULT);
        b = AgentServer.start("127.0.0.1", 0, TOKEN_B, IoSettings.DEFAULT);
    }

    @AfterAll
    static void stop() {
        a.close();
        b.close();
    }

    private static TransferSpec spec(String id, Op op) {
        return TransferSpec.builder()
                .pointId(id)
                .transport("tcp")
                .op(op)
                .size(128 * 1024)
                .batch(3)
                .iterations(50)
                .warmup(2)
                .build();
    }

    @Test
    void anAgentDrivesAPointAgainstAnotherAndTheCoordinatorGetsItsMeasurement() throws Exception {
        try (Session toA = Session.open(a.host(), a.port(), TOKEN_A, Timeouts.DEFAULT)) {
            DrivenSession aToB = new DrivenSession(toA, b.host(), b.port(), TOKEN_B, Timeouts.DEFAULT);
            for (Op op : List.of(Op.WRITE, Op.READ)) {
                Measurement m = aToB.run(spec("driven-" + op, op));
                assertThat(m.isValid()).as(m.validation().describe()).isTrue();
                assertThat(m.bytes()).isEqualTo(50L * 3 * 128 * 1024);
                assertThat(m.spec().pointId()).isEqualTo("driven-" + op);
                assertThat(m.environment())
                        .containsEntry(
                                "target.pid",
                                Long.toString(ProcessHandle.current().pid()))
                        .containsEntry("peer", b.host() + ":" + b.port());
                assertThat(m.phases()).extracting(p -> p.name()).contains("timed loop", "verify");
            }
            assertThat(toA.usable()).isTrue();
        }
    }

    /** Both ways on one pair: the coordinator's own rail to B, and B driving a rail back to A, started together. */
    @Test
    void bothWaysRunTogetherAsRails() throws Exception {
        try (Session out = Session.open(b.host(), b.port(), TOKEN_B, Timeouts.DEFAULT);
                Session toB = Session.open(b.host(), b.port(), TOKEN_B, Timeouts.DEFAULT)) {
            TransferSession back = new DrivenSession(toB, a.host(), a.port(), TOKEN_A, Timeouts.DEFAULT);
            TransferSession both = Rails.asSession(
                    List.of(new Rails.Lane("out", out, Map.of()), new Rails.Lane("back", back, Map.of())),
                    Duration.ofSeconds(10));
            // Loops of a few hundred ms: a scheduling hiccup of tens of ms on a busy 2-CPU host must not part them.
            TransferSpec long_ = spec("both-ways", Op.WRITE).withIterations(600, 5);
            Measurement m = both.run(long_);
            assertThat(m.isValid()).as(m.validation().describe()).isTrue();
            assertThat(m.rails()).extracting(RailResult::label).containsExactly("out", "back");
            RailResult there = m.rails().get(0);
            RailResult home = m.rails().get(1);
            assertThat(there.loopStartNanos()).isLessThan(home.loopEndNanos());
            assertThat(home.loopStartNanos()).isLessThan(there.loopEndNanos());
            assertThat(home.measurement().phases()).extracting(p -> p.name()).contains("start barrier");
            assertThat(m.bytes()).isEqualTo(2L * 600 * 3 * 128 * 1024);
        }
    }

    @Test
    void aTargetTheDriverCannotReachFailsAsAPeerFailureSayingWho() throws Exception {
        try (Session toA = Session.open(a.host(), a.port(), TOKEN_A, Timeouts.DEFAULT)) {
            int closed;
            try (var s = new java.net.ServerSocket(0)) {
                closed = s.getLocalPort();
            }
            DrivenSession nowhere = new DrivenSession(toA, "127.0.0.1", closed, TOKEN_B, Timeouts.DEFAULT);
            assertThatThrownBy(() -> nowhere.run(spec("nowhere", Op.WRITE)))
                    .isInstanceOf(PeerFailureException.class)
                    .hasMessageStartingWith(
                            "driven by the agent at " + a.host() + ":" + a.port() + ": the target 127.0.0.1:" + closed
                                    + ", driven from this agent: cannot reach the target agent")
                    .hasMessageContaining("connection refused");
            DrivenSession wrongToken =
                    new DrivenSession(toA, b.host(), b.port(), "not-the-token-of-b-00", Timeouts.DEFAULT);
            assertThatThrownBy(() -> wrongToken.run(spec("wrong-token", Op.WRITE)))
                    .hasMessageContaining("refused: wrong session token");
            assertThat(toA.usable())
                    .as("the driver's failure is not the coordinator's session's")
                    .isTrue();
        }
    }

    /** A gated drive whose other rails never start is cancelled at its gate; the driver frees the point and drives again. */
    @Test
    void anArmedDriveIsCancelledWhenItsRailsDoNotStart() throws Exception {
        TransferSession neverArrives = (TransferSession) Proxy.newProxyInstance(
                getClass().getClassLoader(), new Class<?>[] {TransferSession.class}, (proxy, method, args) -> {
                    if (method.getName().equals("run") && args.length == 2) {
                        throw new TransferException("this rail could not provision");
                    }
                    throw new UnsupportedOperationException(method.getName());
                });
        try (Session toA = Session.open(a.host(), a.port(), TOKEN_A, Timeouts.DEFAULT)) {
            DrivenSession aToB = new DrivenSession(toA, b.host(), b.port(), TOKEN_B, Timeouts.DEFAULT);
            assertThatThrownBy(() -> Rails.run(
                            spec("cancelled", Op.WRITE),
                            List.of(
                                    new Rails.Rail("driven", aToB, spec("cancelled/rail0", Op.WRITE)),
                                    new Rails.Rail("broken", neverArrives, spec("cancelled/rail1", Op.WRITE))),
                            Duration.ofSeconds(10)))
                    .hasMessageStartingWith("rail 1 (broken): this rail could not provision");
            assertThat(aToB.run(spec("after-cancel", Op.WRITE)).isValid()).isTrue();
        }
    }

    @Test
    void aDriveRequestOutOfRangeIsRefusedNamingTheField() throws Exception {
        try (Session toA = Session.open(a.host(), a.port(), TOKEN_A, Timeouts.DEFAULT)) {
            // A map, not the record (whose constructor would refuse it here): the agent must check it.
            Map<String, Object> body = Map.of(
                    "driveId",
                    "x",
                    "spec",
                    spec("x", Op.WRITE),
                    "targetHost",
                    "127.0.0.1",
                    "targetPort",
                    0,
                    "targetToken",
                    TOKEN_B,
                    "gated",
                    false,
                    "controlMillis",
                    1000);
            assertThatThrownBy(() -> toA.control()
                            .call(
                                    MessageType.DRIVE,
                                    body,
                                    MessageType.DRIVE_STATE,
                                    Messages.DriveState.class,
                                    Timeouts.DEFAULT.control()))
                    .isInstanceOf(RemoteErrorException.class)
                    .hasMessageContaining("targetPort 0 is outside 1..65535");
            assertThatThrownBy(() -> toA.control()
                            .call(
                                    MessageType.POLL,
                                    new Messages.Poll("no-such-drive", null),
                                    MessageType.DRIVE_STATE,
                                    Messages.DriveState.class,
                                    Timeouts.DEFAULT.control()))
                    .isInstanceOf(RemoteErrorException.class)
                    .hasMessageContaining("no drive 'no-such-drive' is running");
            assertThat(toA.usable()).isTrue();
        }
    }
}
