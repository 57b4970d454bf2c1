package dev.linkproof.conformance.verbs;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.linkproof.transfer.Availability;
import dev.linkproof.transfer.Op;
import dev.linkproof.transfer.TransferSpec;
import dev.linkproof.transfer.agent.AgentServer;
import dev.linkproof.transfer.control.MutatingProxy;
import dev.linkproof.transfer.session.Session;
import dev.linkproof.transfer.session.Timeouts;
import dev.linkproof.transfer.spi.IoSettings;
import dev.linkproof.transfer.spi.Transports;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * The verbs endpoint crossing the control channel, malformed: a proxy between a session and an agent in this JVM
 * mutates the target's PREPARED or CONNECTED reply (QP numbers, PSNs, GID, LID, MTU, rd_atomic, the region's address
 * and rkey, max_msg_sz) for seeded WRITE and READ points. Each must pass, or fail with a {@code TransferException}
 * that says what broke (a malformed entry named by {@code PeerEndpoint}, or a false but well-formed one caught by the
 * device as a completion error within the progress deadline), never a bare runtime exception, a crash or a hang.
 * Needs an RDMA device: it runs inside the Soft-RoCE VM ({@code SoftRoceSuite}), and skips elsewhere.
 */
@Timeout(600)
class VerbsEndpointFuzz {
    private static final String TOKEN = "0123456789abcdef-verbs-endpoint-fuzz";
    private static final long SEED = 20261204L;
    private static final int CASES = 100;

    @Test
    void aMalformedOrFalseVerbsEndpointFailsThePointByName() throws Exception {
        Availability verbs = Transports.discover().require("verbs").availability();
        assumeTrue(
                verbs.available(),
                () -> "verbs unavailable here (" + verbs.reason() + "); this class runs in SoftRoceSuite");
        // Soft-RoCE under TCG: deadlines as long as the suite's, so only a real stall trips them.
        Timeouts timeouts = new Timeouts(
                Duration.ofSeconds(60),
                Duration.ofSeconds(60),
                new IoSettings(Duration.ofSeconds(20), Duration.ofSeconds(20)));
        Random random = new Random(SEED);
        List<String> outcomes = new ArrayList<>();
        try (AgentServer agent = AgentServer.start("127.0.0.1", 0, TOKEN, IoSettings.DEFAULT)) {
            for (int i = 0; i < CASES; i++) {
                int victim = 1 + random.nextInt(2); // 1 = PREPARED, 2 = CONNECTED
                Op op = random.nextBoolean() ? Op.WRITE : Op.READ;
                TransferSpec spec = TransferSpec.builder()
                        .pointId("verbs-endpoint-fuzz#" + i)
                        .transport("verbs")
                        .op(op)
                        .size(4096)
                        .batch(2)
                        .iterations(2)
                        .warmup(1)
                        .build();
                long caseSeed = random.nextLong();
                String what = "case " + i + " (seed " + SEED + "): " + op + ", reply " + victim + " mutated";
                try (MutatingProxy proxy = new MutatingProxy(
                        agent.port(), victim, path -> path.startsWith("endpoint"), new Random(caseSeed))) {
                    outcomes.add(proxy.outcome(what, port -> {
                        try (Session session = Session.open("127.0.0.1", port, TOKEN, timeouts)) {
                            session.run(spec);
                        }
                    }));
                }
            }
        }
        assertThat(outcomes).contains("refused");
    }
}
