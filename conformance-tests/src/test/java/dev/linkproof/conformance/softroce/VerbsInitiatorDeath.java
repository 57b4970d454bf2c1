package dev.linkproof.conformance.softroce;

import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.linkproof.transfer.Availability;
import dev.linkproof.transfer.session.InitiatorDeathCheck;
import dev.linkproof.transfer.spi.Transports;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Issue #22's initiator death for verbs: an initiator JVM in the middle of a verbs point on rxe0 (QPs connected,
 * memory registered on both sides) is SIGTERMed or SIGKILLed, and its agent must exit, deregistering and closing its
 * port, within the 2 s of transfer-core's InitiatorDeathTest, whose check this runs: it sees the end of its standard
 * input at once, and exits in 0.10-0.14 s even under TCG (CI, 2026-12-05). Its own log must end with why it stopped,
 * since the pipe to the initiator, and the lines in it, went with the initiator; the time it took goes into the
 * suite's report. With the initiator watch turned off it fails: "agent 188 (port 37811) still there 15 s after its
 * initiator's SIGKILL" (and the same for SIGTERM), 2026-12-05.
 */
@Tag("softroce")
@Timeout(600)
class VerbsInitiatorDeath {
    /** As on the host: the bound. */
    static final Duration AGENT_EXIT = Duration.ofSeconds(2);

    @TempDir
    Path dir;

    @ParameterizedTest(name = "verbs, initiator {0}")
    @ValueSource(strings = {"SIGTERM", "SIGKILL"})
    void theLocalAgentExitsWithItsVerbsInitiator(String signal) throws Exception {
        assumeTrue(Guest.inTheVm(), "runs in the Soft-RoCE VM (-D" + Guest.GUEST + "=true), where verbs has a device");
        Availability verbs = Transports.discover().require("verbs").availability();
        assumeTrue(verbs.available(), () -> "verbs unavailable: " + verbs.reason());
        // The guest's JVM flags (C1 only, no CDS, serial GC), as the suite gives its own agents.
        String flags = System.getProperty("linkproof.agent.jvmArgs", "")
                .replaceAll("-Xmx\\S+", "")
                .strip();
        List<String> jvm = flags.isEmpty() ? List.of() : Arrays.asList(flags.split("\\s+"));
        InitiatorDeathCheck.localAgentExitsWithItsInitiator(dir, "verbs", signal, jvm, AGENT_EXIT);
    }
}
