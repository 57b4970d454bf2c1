package dev.linkproof.conformance.softroce;

import static dev.linkproof.conformance.softroce.Guest.awaitPort;
import static dev.linkproof.conformance.softroce.Guest.failure;
import static dev.linkproof.conformance.softroce.Guest.portActive;
import static org.assertj.core.api.Assertions.assertThat;

import dev.linkproof.conformance.verbs.fixtures.OneVerbsWrite;
import dev.linkproof.transfer.probe.RdmaDevice;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.platform.testkit.engine.EngineExecutionResults;

/**
 * A port that goes down, for real: rxe follows its netdev, so with the dummy interface under rxe0 down the kernel
 * reports the port DOWN while libibverbs still lists the device, as on a runner with a cable pulled. The verbs
 * transport is then available, but the softroce profile resolves no device: pinned, its required verbs point must
 * fail naming the profile and why (not skip and leave the run green); picked automatically, the run falls back to
 * loopback, and with {@code linkproof.requireProfileMatch=true} stops before any point naming rxe0. With the
 * interface up again the same pinned point passes. No test may take a real NIC down: this runs only inside the
 * Soft-RoCE VM ({@value Guest#GUEST}), as root, for an rxe device on a dummy interface, and skips elsewhere.
 */
@Tag("softroce")
class VerbsPortDown {
    @TempDir
    Path dir;

    @Test
    void aPortDownFailsTheRequiredVerbsPointAndRefusesTheLoopbackFallback() throws Exception {
        RdmaDevice rxe = Guest.rxeToChange("takes a network interface down");
        String netdev = rxe.netdevs().getFirst();
        assertThat(portActive(rxe.name()))
                .as("%s's port before the test", rxe.name())
                .contains(true);

        try {
            Guest.command("ip", "link", "set", netdev, "down");
            awaitPort(rxe.name(), false);

            EngineExecutionResults pinned = run(Map.of("linkproof.profile", "softroce"));
            pinned.testEvents().assertStatistics(s -> s.started(1).failed(1));
            assertThat(failure(pinned.testEvents().failed().list().getFirst()))
                    .startsWith("write 4 KiB ×1 · 1 QP · verbs: ")
                    .contains("profile 'softroce' requires the verbs transport (transport.required), and it is"
                            + " unavailable on this host: transport verbs needs an RDMA device, and profile"
                            + " 'softroce' resolves none on this host")
                    .contains("(profile chosen by linkproof.profile: built-in softroce; it was not matched against this"
                            + " host)");

            EngineExecutionResults auto =
                    run(Map.of("linkproof.profile", "auto", "linkproof.requireProfileMatch", "true"));
            auto.testEvents().assertStatistics(s -> s.started(0));
            assertThat(auto.containerEvents().failed().list())
                    .first()
                    .satisfies(e -> assertThat(Guest.discoveryErrors(e))
                            .startsWith(
                                    "configuration error: linkproof.requireProfileMatch=true, and profile 'loopback'"
                                            + " is the fallback, although this host has RDMA device " + rxe.name()));
        } finally {
            Guest.command("ip", "link", "set", netdev, "up");
            awaitPort(rxe.name(), true);
            Guest.awaitRoceV2Gid(rxe.name());
        }
        run(Map.of("linkproof.profile", "softroce"))
                .testEvents()
                .assertStatistics(s -> s.started(1).succeeded(1));
    }

    private EngineExecutionResults run(Map<String, String> config) {
        return Guest.runIn(dir, OneVerbsWrite.class, config);
    }
}
