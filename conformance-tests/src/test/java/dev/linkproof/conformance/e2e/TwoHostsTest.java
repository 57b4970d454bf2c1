package dev.linkproof.conformance.e2e;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.linkproof.conformance.e2e.fixtures.TwoHostWrites;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * (d) Two hosts: two network namespaces joined by a veth pair ({@link TwoNamespaces}). The agent runs
 * in one ({@value #TARGET_ADDR}), the engine in the other, with {@code linkproof.peer} pointing
 * across; a write sweep passes over the veth link. Needs root and iproute2; skips with the reason
 * otherwise. The addresses are from TEST-NET-2 and exist only inside the namespaces this test creates.
 */
@Tag("e2e")
class TwoHostsTest {
    static final String TARGET_ADDR = "198.51.100.1";
    static final String INITIATOR_ADDR = "198.51.100.2";

    private static TwoNamespaces hosts;

    @BeforeAll
    static void createHosts() throws Exception {
        hosts = TwoNamespaces.create("lp-e2e", TARGET_ADDR, INITIATOR_ADDR);
    }

    @AfterAll
    static void deleteHosts() throws Exception {
        if (hosts != null) {
            hosts.close();
        }
    }

    @Test
    void writeSweepPassesAcrossTwoNamespaces() throws Exception {
        assumeTrue(hosts != null);
        String token = "two-hosts-" + Long.toHexString(System.nanoTime()) + "-token";
        try (TwoNamespaces.Agent agent = hosts.startAgent(token, Path.of("target", "two-hosts-agent.log"))) {
            String peer = TARGET_ADDR + ":" + agent.port();
            List<String> cmd = hosts.initiatorCommand(
                    TwoHostWrites.class,
                    List.of(
                            "-Dlinkproof.peer=" + peer,
                            "-Dlinkproof.token=" + token,
                            "-Dlinkproof.profile=" + E2e.VALIDATION_ONLY,
                            "-Dallure.results.directory="
                                    + Path.of("target", "two-hosts-allure-results")
                                            .toAbsolutePath()));
            Path initiatorLog = Path.of("target", "two-hosts-initiator.log");
            Process initiator = new ProcessBuilder(cmd)
                    .redirectErrorStream(true)
                    .redirectOutput(initiatorLog.toFile())
                    .start();
            boolean done = initiator.waitFor(180, TimeUnit.SECONDS);
            if (!done) {
                initiator.destroyForcibly().waitFor(5, TimeUnit.SECONDS);
            }
            String out = Files.readString(initiatorLog);
            assertThat(done)
                    .as("initiator finished within 180 s; output:\n" + out)
                    .isTrue();
            assertThat(initiator.exitValue()).as("initiator output:\n" + out).isZero();
            // 7 sizes × 2 batch sizes × 2 connection counts; each point checks it ran against the peer
            // address, which the initiator's namespace reaches only over the veth link.
            assertThat(out).contains("remote-sweep: 28 passed, 0 failed, 0 skipped");
            assertThat(out).contains("PASS write 4 MiB ×8 · 2 conn · tcp");
        }
    }
}
