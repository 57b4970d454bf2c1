package dev.linkproof.fleet.rendezvous;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.linkproof.transfer.agent.Registration;
import dev.linkproof.transfer.control.FrameCodec;
import dev.linkproof.transfer.control.Messages;
import dev.linkproof.transfer.control.RemoteErrorException;
import java.net.Socket;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * The registry as agents meet it: nodes that register, one that never does, refusals that name their
 * cause, a node lost mid-run, and the run's end reaching every agent.
 */
class RegistryTest {
    static final String TOKEN = "fleet-registry-test-token";
    static final Duration SOON = Duration.ofSeconds(5);

    static Registration agent(Registry r, String node, int port) throws Exception {
        Registration reg = Registration.dial("127.0.0.1", r.port(), SOON, line -> {});
        reg.register(
                new Messages.Register(TOKEN, FrameCodec.VERSION, node, reg.localAddress(), port, 1, "test", null),
                SOON);
        return reg;
    }

    @Test
    void everyExpectedNodeRegistersAndTheWaitEndsAsTheLastArrives() throws Exception {
        try (Registry r = Registry.start("127.0.0.1", 0, TOKEN, List.of("lpn1", "lpn2", "lpn3"), "test");
                Registration a = agent(r, "lpn2", 7001);
                Registration b = agent(r, "lpn1", 7002);
                Registration c = agent(r, "lpn3", 7003)) {
            long start = System.nanoTime();
            Map<String, Registry.Node> nodes = r.awaitAll(Duration.ofSeconds(30));
            assertThat(Duration.ofNanos(System.nanoTime() - start)).isLessThan(Duration.ofSeconds(5));
            // In roster order, whatever the order of arrival.
            assertThat(nodes.keySet()).containsExactly("lpn1", "lpn2", "lpn3");
            assertThat(nodes.get("lpn2").address()).isEqualTo("127.0.0.1:7001");
            assertThat(r.missing()).isEmpty();
        }
    }

    /** A pod registers its Kubernetes node as its machine; an agent that names none is its own machine. */
    @Test
    void theMachineAnAgentRunsOnIsKept() throws Exception {
        try (Registry r = Registry.start("127.0.0.1", 0, TOKEN, List.of("lp-0", "lp-1"), "test");
                Registration pod = Registration.dial("127.0.0.1", r.port(), SOON, line -> {});
                Registration plain = agent(r, "lp-1", 7002)) {
            pod.register(
                    new Messages.Register(
                            TOKEN, FrameCodec.VERSION, "lp-0", pod.localAddress(), 7001, 1, "test", "gpu-node-17"),
                    SOON);
            Map<String, Registry.Node> nodes = r.awaitAll(SOON);
            assertThat(nodes.get("lp-0").machine()).isEqualTo("gpu-node-17");
            assertThat(nodes.get("lp-1").machine()).isEqualTo("lp-1");
        }
    }

    @Test
    void aNodeThatNeverRegistersIsMissingOnceTheDeadlinePasses() throws Exception {
        try (Registry r = Registry.start("127.0.0.1", 0, TOKEN, List.of("lpn1", "lpn2", "lpn3", "lpn4"), "test");
                Registration a = agent(r, "lpn1", 7001);
                Registration b = agent(r, "lpn3", 7003)) {
            Map<String, Registry.Node> nodes = r.awaitAll(Duration.ofMillis(300));
            assertThat(nodes.keySet()).containsExactly("lpn1", "lpn3");
            assertThat(r.missing()).containsExactly("lpn2", "lpn4");
        }
    }

    @Test
    void refusalsNameTheirCauseToTheAgentAndAreKept() throws Exception {
        try (Registry r = Registry.start("127.0.0.1", 0, TOKEN, List.of("lpn1", "lpn2"), "test");
                Registration first = agent(r, "lpn1", 7001)) {
            try (Registration wrong = Registration.dial("127.0.0.1", r.port(), SOON, line -> {})) {
                assertThatThrownBy(() -> wrong.register(
                                new Messages.Register(
                                        "not-the-run-token-at-all",
                                        FrameCodec.VERSION,
                                        "lpn2",
                                        "127.0.0.1",
                                        7002,
                                        1,
                                        "test",
                                        null),
                                SOON))
                        .isInstanceOf(RemoteErrorException.class)
                        .hasMessageContaining("wrong token for node lpn2");
            }
            assertThatThrownBy(() -> agent(r, "lpn9", 7009))
                    .isInstanceOf(RemoteErrorException.class)
                    .hasMessageContaining("node lpn9 is not in this run's roster of 2 node(s) (lpn1, lpn2)");
            assertThatThrownBy(() -> agent(r, "lpn1", 7011))
                    .isInstanceOf(RemoteErrorException.class)
                    .hasMessageContaining("node lpn1 is already registered from 127.0.0.1:7001")
                    .hasMessageContaining("--ntasks-per-node=1");
            assertThat(r.refusals()).extracting(Registry.Refusal::node).containsExactly("lpn2", "lpn9", "lpn1");
            assertThat(r.registered().keySet()).containsExactly("lpn1");
        }
    }

    @Test
    void somethingElseOnTheRegistryPortIsRefusedAndTheRegistryGoesOn() throws Exception {
        try (Registry r = Registry.start("127.0.0.1", 0, TOKEN, List.of("lpn1"), "test")) {
            try (Socket s = new Socket("127.0.0.1", r.port())) {
                // One write: the registry closes as soon as it has read four bytes that are not a frame's magic.
                s.getOutputStream()
                        .write("GET / HTTP/1.1\r\n\r\n".getBytes(java.nio.charset.StandardCharsets.US_ASCII));
                s.setSoTimeout(5000);
                // Read to the end (a registry that kept it open would time this out), then nothing more comes.
                s.getInputStream().readAllBytes();
                assertThat(s.getInputStream().read())
                        .as("closed after the refusal: end of stream")
                        .isEqualTo(-1);
            }
            try (Registration a = agent(r, "lpn1", 7001)) {
                assertThat(r.awaitAll(SOON).keySet()).containsExactly("lpn1");
            }
            assertThat(r.refusals())
                    .singleElement()
                    .extracting(Registry.Refusal::why)
                    .asString()
                    .contains("not a Linkproof control stream");
        }
    }

    @Test
    void anAgentThatGoesAwayIsLostWithTheReason() throws Exception {
        try (Registry r = Registry.start("127.0.0.1", 0, TOKEN, List.of("lpn1", "lpn2"), "test");
                Registration keep = agent(r, "lpn1", 7001)) {
            Registration gone = agent(r, "lpn2", 7002);
            r.awaitAll(SOON);
            assertThat(r.lost("lpn2")).isEmpty();
            gone.close();
            long deadline = System.nanoTime() + SOON.toNanos();
            while (r.lost("lpn2").isEmpty() && System.nanoTime() < deadline) {
                Thread.sleep(10);
            }
            assertThat(r.lost("lpn2")).get().asString().contains("closed the registration");
            assertThat(r.lost("lpn1")).isEmpty();
        }
    }

    @Test
    void theRunsEndReachesEveryAgentAndHeartbeatsKeepThemUntilThen() throws Exception {
        Registry r = Registry.start("127.0.0.1", 0, TOKEN, List.of("lpn1"), "test");
        Registration a = agent(r, "lpn1", 7001);
        CompletableFuture<String> end = CompletableFuture.supplyAsync(a::awaitEnd);
        // Past one heartbeat: the agent answered the ping and is still registered.
        Thread.sleep(Registration.HEARTBEAT.toMillis() + 500);
        assertThat(end).isNotDone();
        assertThat(r.lost("lpn1")).isEmpty();
        r.close();
        assertThat(end.get(5, TimeUnit.SECONDS)).isEqualTo("the coordinator ended the run: the fleet run ended");
        a.close();
    }

    @Test
    void anAgentDiallingBeforeTheCoordinatorListensWaitsAndThenGivesUpNamingTheAddress() throws Exception {
        int port;
        try (var s = new java.net.ServerSocket(0)) {
            port = s.getLocalPort();
        }
        StringBuilder progress = new StringBuilder();
        long start = System.nanoTime();
        assertThatThrownBy(() -> Registration.dial("127.0.0.1", port, Duration.ofMillis(800), progress::append))
                .hasMessageContaining(
                        "the coordinator's registry at 127.0.0.1:" + port + " did not answer within 800ms")
                .hasMessageContaining("connection refused");
        assertThat(Duration.ofNanos(System.nanoTime() - start)).isLessThan(Duration.ofSeconds(3));
        assertThat(progress).contains("waiting for the coordinator's registry at 127.0.0.1:" + port);
    }
}
