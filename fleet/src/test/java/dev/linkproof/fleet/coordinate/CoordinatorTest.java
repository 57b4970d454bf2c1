package dev.linkproof.fleet.coordinate;

import static org.assertj.core.api.Assertions.assertThat;

import dev.linkproof.fleet.plan.Pair;
import dev.linkproof.fleet.rendezvous.Registry;
import dev.linkproof.transfer.FailureKind;
import dev.linkproof.transfer.Op;
import dev.linkproof.transfer.TransferSpec;
import dev.linkproof.transfer.agent.AgentServer;
import dev.linkproof.transfer.session.Timeouts;
import dev.linkproof.transfer.spi.IoSettings;
import dev.linkproof.transfer.spi.Transports;
import java.time.Duration;
import java.time.Instant;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * Rounds of pairs through real agents on loopback (tcp): the coordinator is neither end of any pair;
 * each pair's initiator drives the point, both ranks validate, and a pair that fails leaves the
 * others of its round to finish.
 */
class CoordinatorTest {
    private static final Transports TRANSPORTS = Transports.discover();
    static final String TOKEN = "fleet-coordinator-test-token";
    private final Map<String, AgentServer> agents = new HashMap<>();
    private final Map<String, Registry.Node> nodes = new HashMap<>();

    @BeforeEach
    void fourNodes() throws Exception {
        for (String n : List.of("n1", "n2", "n3", "n4")) {
            AgentServer a = AgentServer.start("127.0.0.1", 0, TOKEN, IoSettings.DEFAULT);
            agents.put(n, a);
            nodes.put(
                    n,
                    new Registry.Node(
                            n, a.host(), a.port(), ProcessHandle.current().pid(), "test", Instant.now()));
        }
    }

    @AfterEach
    void stop() {
        agents.values().forEach(AgentServer::close);
    }

    private static TransferSpec spec() {
        return TransferSpec.builder()
                .pointId("fleet-point")
                .transport("tcp")
                .op(Op.WRITE)
                .size(64 * 1024)
                .batch(2)
                .iterations(40)
                .warmup(2)
                .build();
    }

    private static Timeouts fast() {
        return new Timeouts(Duration.ofSeconds(5), Duration.ofSeconds(5), IoSettings.DEFAULT);
    }

    @Test
    void theRoundsPairsRunAtOnceEachDrivenByItsInitiatorAndValidated() {
        try (Coordinator c = new Coordinator(
                n -> java.util.Optional.ofNullable(nodes.get(n)), TOKEN, fast(), Duration.ofSeconds(10), TRANSPORTS)) {
            List<Pair> round =
                    List.of(new Pair("n1", "n2"), new Pair("n3", "n4"), new Pair("n2", "n1"), new Pair("n4", "n3"));
            List<PairRun> runs = c.runRound(round, spec());
            assertThat(runs).extracting(PairRun::pair).containsExactlyElementsOf(round);
            for (PairRun r : runs) {
                assertThat(r.ran()).as(r.pair() + ": " + r.failure()).isTrue();
                assertThat(r.failureKind()).as(r.pair().label()).isEmpty();
                assertThat(r.measurement().bytes()).isEqualTo(40L * 2 * 64 * 1024);
                assertThat(r.measurement().spec().pointId())
                        .isEqualTo("fleet-point/pair=" + r.pair().label());
                assertThat(r.startedTogether()).isTrue();
            }
            // The next round reuses the initiators' sessions.
            assertThat(c.runRound(List.of(new Pair("n1", "n3")), spec())
                            .getFirst()
                            .ran())
                    .isTrue();
        }
    }

    @Test
    void aNodeThatInitiatesSeveralPairsAtOnceDrivesEachOverItsOwnSession() {
        try (Coordinator c = new Coordinator(
                n -> java.util.Optional.ofNullable(nodes.get(n)), TOKEN, fast(), Duration.ofSeconds(10), TRANSPORTS)) {
            List<PairRun> fanOut =
                    c.runRound(List.of(new Pair("n1", "n2"), new Pair("n1", "n3"), new Pair("n1", "n4")), spec());
            assertThat(fanOut)
                    .allSatisfy(r -> assertThat(r.ran())
                            .as(r.pair() + ": " + r.failure())
                            .isTrue());
        }
    }

    @Test
    void aDeadTargetFailsItsPairNamingItAndTheRestOfTheRoundFinishes() {
        agents.get("n4").close();
        try (Coordinator c = new Coordinator(
                n -> java.util.Optional.ofNullable(nodes.get(n)), TOKEN, fast(), Duration.ofSeconds(10), TRANSPORTS)) {
            List<PairRun> runs = c.runRound(List.of(new Pair("n1", "n2"), new Pair("n3", "n4")), spec());
            assertThat(runs.get(0).ran())
                    .as(String.valueOf(runs.get(0).failure()))
                    .isTrue();
            PairRun dead = runs.get(1);
            assertThat(dead.ran()).isFalse();
            assertThat(dead.unreachable()).contains("n4");
            assertThat(dead.failureKind()).contains(FailureKind.PEER_FAILURE);
        }
    }

    @Test
    void aDeadInitiatorIsTheUnreachableOneAndAnUnregisteredNodeIsNamed() {
        agents.get("n3").close();
        Map<String, Registry.Node> withoutN2 = new HashMap<>(nodes);
        withoutN2.remove("n2");
        try (Coordinator c = new Coordinator(
                n -> java.util.Optional.ofNullable(withoutN2.get(n)),
                TOKEN,
                fast(),
                Duration.ofSeconds(10),
                TRANSPORTS)) {
            List<PairRun> runs = c.runRound(List.of(new Pair("n3", "n4"), new Pair("n1", "n2")), spec());
            assertThat(runs.get(0).unreachable()).contains("n3");
            assertThat(runs.get(1).unreachable()).contains("n2");
            assertThat(runs.get(1).failure()).hasMessage("node n2 is not registered with the coordinator");
        }
    }
}
