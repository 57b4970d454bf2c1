package dev.linkproof.engine;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.platform.engine.discovery.DiscoverySelectors.selectClass;
import static org.junit.platform.engine.discovery.DiscoverySelectors.selectMethod;
import static org.junit.platform.engine.discovery.DiscoverySelectors.selectUniqueId;

import dev.linkproof.engine.config.Constants;
import dev.linkproof.engine.fixtures.LostPeerFixture;
import dev.linkproof.engine.fixtures.RunFixture;
import dev.linkproof.engine.run.SessionProvider;
import dev.linkproof.transfer.agent.AgentServer;
import dev.linkproof.transfer.spi.IoSettings;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.platform.engine.DiscoverySelector;
import org.junit.platform.engine.TestExecutionResult;
import org.junit.platform.testkit.engine.EngineExecutionResults;
import org.junit.platform.testkit.engine.EngineTestKit;
import org.junit.platform.testkit.engine.Event;

/** {@code linkproof.peer}: the engine connects to an agent that is already running (here, in this JVM). */
@Timeout(60)
class RemotePeerTest {
    private static final String TOKEN = "remote-peer-test-token-0123456789";
    private static AgentServer agent;

    @BeforeAll
    static void start() throws Exception {
        agent = AgentServer.start("127.0.0.1", 0, TOKEN, IoSettings.DEFAULT);
    }

    @AfterAll
    static void stop() {
        agent.close();
    }

    private static EngineExecutionResults run(String peer, String token, DiscoverySelector selector) {
        var kit = EngineTestKit.engine(Constants.ENGINE_ID)
                .configurationParameter(Constants.PROGRESS, "false")
                .configurationParameter(Constants.PEER, peer)
                .selectors(selector);
        if (token != null) {
            kit.configurationParameter(Constants.TOKEN, token);
        }
        return kit.execute();
    }

    private static final String POINT = "[engine:linkproof]/[class:" + RunFixture.class.getName()
            + "]/[method:resolvesEveryParameterType(dev.linkproof.transfer.measure.Measurement,dev.linkproof.engine.api.SweepPoint,"
            + "dev.linkproof.transfer.TransferSpec,dev.linkproof.transfer.session.TransferSession)]"
            + "/[point:op=read,size=4096,batch=3,qps=2,depth=1,mem=host->host,transport=tcp]";

    @Test
    void aSinglePointSelectedByUniqueIdRunsAgainstThePeer() {
        RunFixture.SEEN.clear();
        EngineExecutionResults r = run("127.0.0.1:" + agent.port(), TOKEN, selectUniqueId(POINT));
        r.testEvents().assertStatistics(s -> s.started(1).succeeded(1).failed(0).skipped(0));
        assertThat(r.testEvents()
                        .started()
                        .list()
                        .getFirst()
                        .getTestDescriptor()
                        .getUniqueId()
                        .toString())
                .isEqualTo(POINT);
        assertThat(RunFixture.SEEN).singleElement().satisfies(seen -> {
            assertThat(seen.measurement().isValid()).isTrue();
            assertThat(seen.session().agent().pid())
                    .as("the in-process agent served it")
                    .isEqualTo(ProcessHandle.current().pid());
            assertThat(seen.measurement().environment()).containsEntry("peer", "127.0.0.1:" + agent.port());
        });
    }

    private static String failure(EngineExecutionResults r) {
        List<Event> failed = r.testEvents().failed().list();
        assertThat(failed).hasSize(1);
        return failed.getFirst()
                .getRequiredPayload(TestExecutionResult.class)
                .getThrowable()
                .orElseThrow()
                .getMessage();
    }

    @Test
    void aPeerWithoutATokenFailsThePointSayingSo() {
        String message = failure(
                run("127.0.0.1:" + agent.port(), null, selectMethod(RunFixture.class, "passesWithoutParameters", "")));
        assertThat(message).contains("no target rank").contains(Constants.TOKEN);
    }

    @Test
    void aWrongTokenFailsThePointSayingSo() {
        String message = failure(run(
                "127.0.0.1:" + agent.port(),
                "wrong-token-wrong-token",
                selectMethod(RunFixture.class, "passesWithoutParameters", "")));
        assertThat(message).contains("wrong session token");
    }

    /**
     * It said "(at this run's first point; the run has not reached the peer)" of a peer that was
     * reached and refused the token, and the agent logged nothing. Now every point says the peer
     * refused it, and the agent logs the refusal once, with the initiator's address.
     */
    @Test
    void aWrongTokenIsRefusedAtEveryPointAndTheAgentLogsWhoFrom() {
        List<java.util.logging.LogRecord> logged = new java.util.concurrent.CopyOnWriteArrayList<>();
        java.util.logging.Handler handler = new java.util.logging.Handler() {
            @Override
            public void publish(java.util.logging.LogRecord r) {
                logged.add(r);
            }

            @Override
            public void flush() {}

            @Override
            public void close() {}
        };
        java.util.logging.Logger agentLog =
                java.util.logging.Logger.getLogger("dev.linkproof.transfer.agent.AgentConnection");
        agentLog.addHandler(handler);
        try {
            EngineExecutionResults r = run(
                    "127.0.0.1:" + agent.port(),
                    "wrong-token-wrong-token",
                    selectMethod(
                            RunFixture.class,
                            "resolvesEveryParameterType",
                            "dev.linkproof.transfer.measure.Measurement,dev.linkproof.engine.api.SweepPoint,"
                                + "dev.linkproof.transfer.TransferSpec,dev.linkproof.transfer.session.TransferSession"));
            r.testEvents().assertStatistics(s -> s.started(4).failed(4));
            List<String> messages = failureMessages(r);
            String refused =
                    "the target agent at 127.0.0.1:" + agent.port() + " refused: wrong session token (give the token "
                            + "that agent was started with, or the one it printed)";
            assertThat(messages.getFirst()).endsWith("no target rank: " + refused);
            assertThat(messages.subList(1, 4))
                    .allSatisfy(m -> assertThat(m)
                            .endsWith("no target rank: not retried for every " + "point: " + refused
                                    + " (at this run's first point; the peer was reached and refused the session)"));
            assertThat(messages).noneSatisfy(m -> assertThat(m).contains("has not reached"));
            r.testEvents()
                    .failed()
                    .list()
                    .forEach(e -> assertThat(dev.linkproof.engine.failure.Failures.kindOf(
                                    e.getRequiredPayload(TestExecutionResult.class)))
                            .contains(dev.linkproof.transfer.FailureKind.PEER_FAILURE));
            assertThat(logged).as("the agent's log").singleElement().satisfies(rec -> {
                assertThat(rec.getLevel()).isEqualTo(java.util.logging.Level.WARNING);
                assertThat(rec.getMessage())
                        .matches("refused a session from 127\\.0\\.0\\.1:\\d+: wrong session token \\(bad-token\\)");
            });
        } finally {
            agentLog.removeHandler(handler);
        }
    }

    /** A malformed address stops the run before any point: it was a peer failure of every point. */
    @Test
    void aMalformedPeerIsAConfigurationErrorBeforeAnyPoint() {
        EngineExecutionResults r =
                run("localhost:http", TOKEN, selectMethod(RunFixture.class, "passesWithoutParameters", ""));
        r.testEvents().assertStatistics(s -> s.started(0));
        assertThat(ConfigurationErrorTest.engineFailure(r))
                .isEqualTo("configuration error: linkproof.peer=localhost:http is not HOST:PORT: bad port 'http' (a"
                        + " number from 1 to 65535) (e.g. node2:7471, 10.0.0.2:7471 or [fe80::1]:7471); the"
                        + " agent prints its port when it starts");
        assertThat(ConfigurationErrorTest.engineFailure(
                        run("fe80::1:7471", TOKEN, selectMethod(RunFixture.class, "passesWithoutParameters", ""))))
                .contains("an IPv6 address needs brackets");
    }

    /**
     * A listener on this host's loopback that accepts connections and never answers: a peer whose host
     * is there but does not serve (or drops what it gets). Counts and holds what it accepted.
     */
    private static final class SilentPeer implements AutoCloseable {
        private final java.net.ServerSocket socket;
        private final java.util.concurrent.atomic.AtomicInteger accepted =
                new java.util.concurrent.atomic.AtomicInteger();
        private final List<java.net.Socket> held = new java.util.concurrent.CopyOnWriteArrayList<>();

        /** On {@code port}, 0 for a free one; an agent may have listened there a moment ago. */
        SilentPeer(int port) throws java.io.IOException {
            socket = bound(port);
            Thread.ofVirtual().start(() -> {
                try {
                    while (true) {
                        held.add(socket.accept());
                        accepted.incrementAndGet();
                    }
                } catch (java.io.IOException closed) {
                    // the test is over
                }
            });
        }

        /**
         * A listener on {@code port}. One just closed while its accept thread was blocked frees the port
         * when that thread returns (the JDK defers the final close), a moment later: retry for a while.
         */
        private static java.net.ServerSocket bound(int port) throws java.io.IOException {
            long deadline = System.nanoTime() + java.time.Duration.ofSeconds(3).toNanos();
            while (true) {
                java.net.ServerSocket s = new java.net.ServerSocket();
                try {
                    s.setReuseAddress(true);
                    s.bind(new java.net.InetSocketAddress(java.net.InetAddress.getLoopbackAddress(), port), 50);
                    return s;
                } catch (java.net.BindException inUse) {
                    s.close();
                    if (System.nanoTime() > deadline) {
                        throw inUse;
                    }
                    try {
                        Thread.sleep(20);
                    } catch (InterruptedException e) {
                        Thread.currentThread().interrupt();
                        throw inUse;
                    }
                }
            }
        }

        int port() {
            return socket.getLocalPort();
        }

        int accepted() {
            return accepted.get();
        }

        @Override
        public void close() throws java.io.IOException {
            socket.close();
            for (java.net.Socket s : held) {
                s.close();
            }
        }
    }

    /** What a failure that waited out {@link #runWithShortControlDeadline}'s control deadline ends with. */
    private static final String CONTROL_DEADLINE =
            " [deadline: linkproof.timeout.control=700ms; raise it if the target agent " + "is slow rather than gone]";

    /** The selected points against the peer on this host's {@code port}, with a control deadline of 700 ms. */
    private static EngineExecutionResults runWithShortControlDeadline(int port, DiscoverySelector selector) {
        return EngineTestKit.engine(Constants.ENGINE_ID)
                .configurationParameter(Constants.PROGRESS, "false")
                .configurationParameter(Constants.PEER, "127.0.0.1:" + port)
                .configurationParameter(Constants.TOKEN, TOKEN)
                .configurationParameter(Constants.TIMEOUT_CONTROL, "700ms")
                .selectors(selector)
                .execute();
    }

    private static List<String> failureMessages(EngineExecutionResults r) {
        return r.testEvents().failed().list().stream()
                .map(e -> e.getRequiredPayload(TestExecutionResult.class)
                        .getThrowable()
                        .orElseThrow()
                        .getMessage())
                .toList();
    }

    /**
     * A peer that accepts the connection and never answers (or drops it, or is not there): the first
     * point waits out the control deadline, and the others fail at once with its cause. Each waited
     * the deadline again, 30 s by default: most of an hour over the suite.
     */
    @Test
    void aPeerNeverReachedIsTriedOnceNotForEveryPoint() throws Exception {
        try (SilentPeer silent = new SilentPeer(0)) {
            EngineExecutionResults r = runWithShortControlDeadline(
                    silent.port(),
                    selectMethod(
                            RunFixture.class,
                            "resolvesEveryParameterType",
                            "dev.linkproof.transfer.measure.Measurement,dev.linkproof.engine.api.SweepPoint,"
                                + "dev.linkproof.transfer.TransferSpec,dev.linkproof.transfer.session.TransferSession"));
            r.testEvents().assertStatistics(s -> s.started(4).failed(4));
            List<String> messages = failureMessages(r);
            String first = "the target agent at 127.0.0.1:" + silent.port() + " did not answer HELLO within 700 ms";
            assertThat(messages.getFirst()).endsWith("no target rank: " + first + CONTROL_DEADLINE);
            assertThat(messages.subList(1, 4))
                    .allSatisfy(m -> assertThat(m)
                            .endsWith("no target rank: not retried for every " + "point: " + first
                                    + " (at this run's first point; the run has not reached the peer)"
                                    + CONTROL_DEADLINE));
            assertThat(silent.accepted()).as("connections the peer got").isEqualTo(1);
        }
    }

    /**
     * A peer that served the run and then went silent (its host down or rebooting): the point that
     * finds it gone fails as a peer failure, the next {@value SessionProvider#LOST_PEER_TRIES} each try
     * to reconnect and wait out the control deadline, and the rest fail at once with the last cause.
     */
    @Test
    void aPeerLostAfterItWasReachedIsTriedAFewTimesThenNoMore() throws Exception {
        AgentServer lost = AgentServer.start("127.0.0.1", 0, TOKEN, IoSettings.DEFAULT);
        int port = lost.port();
        java.util.concurrent.atomic.AtomicReference<SilentPeer> silent =
                new java.util.concurrent.atomic.AtomicReference<>();
        LostPeerFixture.afterFirst = () -> {
            lost.close();
            try {
                silent.set(new SilentPeer(port));
            } catch (java.io.IOException e) {
                throw new java.io.UncheckedIOException(e);
            }
        };
        try {
            EngineExecutionResults r = runWithShortControlDeadline(port, selectClass(LostPeerFixture.class));
            List<String> messages = failureMessages(r);
            // Counted with the messages in view, so a run that goes wrong says how (it failed once, in
            // 0.1 s, with the first point failed too, and its cause went unrecorded).
            assertThat(r.testEvents().succeeded().count())
                    .as("points that passed; failures: %s", messages)
                    .isEqualTo(1);
            r.testEvents().assertStatistics(s -> s.started(7).succeeded(1).failed(6));
            String silence = "the target agent at 127.0.0.1:" + port + " did not answer HELLO within 700 ms";
            assertThat(messages.getFirst())
                    .as("the point that found the peer gone")
                    .contains("peer failure");
            assertThat(messages.subList(1, 4))
                    .allSatisfy(m -> assertThat(m).endsWith("no target rank: " + silence + CONTROL_DEADLINE));
            assertThat(messages.subList(4, 6))
                    .allSatisfy(m -> assertThat(m)
                            .endsWith("no target rank: not retried for every "
                                    + "point: " + silence
                                    + " (the peer was lost earlier in this run, and 3 reconnections in a row failed)"
                                    + CONTROL_DEADLINE));
            assertThat(silent.get().accepted())
                    .as("reconnections the silent peer got")
                    .isEqualTo(SessionProvider.LOST_PEER_TRIES);
        } finally {
            LostPeerFixture.afterFirst = () -> {};
            lost.close();
            if (silent.get() != null) {
                silent.get().close();
            }
        }
    }

    /** It failed with the JDK's "port out of range:99999", naming neither the key nor what it holds. */
    @Test
    void aPortOutOfRangeIsAConfigurationErrorNamingTheKey() {
        EngineExecutionResults r =
                run("localhost:99999", TOKEN, selectMethod(RunFixture.class, "passesWithoutParameters", ""));
        r.testEvents().assertStatistics(s -> s.started(0));
        assertThat(ConfigurationErrorTest.engineFailure(r))
                .startsWith(
                        "configuration error: linkproof.peer=localhost:99999 is not HOST:PORT: port 99999 is outside"
                                + " 1..65535");
    }
}
