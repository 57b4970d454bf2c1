package dev.linkproof.conformance.softroce;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;
import static org.junit.platform.engine.discovery.DiscoverySelectors.selectClass;

import dev.linkproof.conformance.verbs.fixtures.OneVerbsWrite;
import dev.linkproof.transfer.probe.HardwareProbe;
import dev.linkproof.transfer.probe.RdmaDevice;
import dev.linkproof.transfer.probe.RdmaPort;
import dev.linkproof.transfer.spi.Availability;
import dev.linkproof.transfer.verbs.VerbsTransport;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.platform.engine.TestExecutionResult;
import org.junit.platform.testkit.engine.EngineExecutionResults;
import org.junit.platform.testkit.engine.EngineTestKit;
import org.junit.platform.testkit.engine.Event;

/**
 * A port that goes down, for real: rxe follows its netdev, so with the dummy interface under rxe0
 * down the kernel reports the port DOWN while libibverbs still lists the device — what a runner
 * with a NIC cable pulled or a switch port disabled looks like. The verbs transport is then
 * available, but the softroce profile resolves no device: pinned, its required verbs point must
 * fail naming the profile and why (not skip and leave the run green); picked automatically, the
 * run falls back to loopback, and with {@code linkproof.requireProfileMatch=true} stops before any
 * point naming rxe0. With the interface up again the same pinned point passes, so the failure was
 * the port's.
 *
 * <p>It takes a network interface down, which no test may do to a real NIC: it runs only inside
 * the Soft-RoCE VM (SoftRoceSuite's guest script sets {@value #GUEST}), as root there, and only for
 * an rxe device on a dummy interface. Elsewhere it is skipped with the reason.
 */
@Tag("softroce")
class VerbsPortDown {
    /** Set by SoftRoceSuite's guest script: this JVM runs in the throw-away VM. */
    static final String GUEST = "softroce.guest";
    /** How long rxe may take to follow its netdev (it does within milliseconds; TCG is slow). */
    private static final long PORT_WAIT_MS = 20_000;

    @TempDir
    Path dir;

    @Test
    void aPortDownFailsTheRequiredVerbsPointAndRefusesTheLoopbackFallback() throws Exception {
        assumeTrue(Boolean.getBoolean(GUEST), "takes a network interface down: runs only in the Soft-RoCE VM (-D" + GUEST + "=true)");
        Availability verbs = new VerbsTransport().availability();
        assumeTrue(verbs.available(), "verbs unavailable: " + verbs.reason());
        RdmaDevice rxe = HardwareProbe.system().probe().rdmaDevices().stream()
                .filter(d -> d.driver().equals("rdma_rxe") && d.netdevs().size() == 1).findFirst().orElse(null);
        assumeTrue(rxe != null, "no rxe device on one netdev here");
        String netdev = rxe.netdevs().getFirst();
        assumeTrue(isDummy(netdev), rxe.name() + " is on " + netdev + ", not a dummy interface: it stays up");
        assertThat(portActive(rxe.name())).as("%s's port before the test", rxe.name()).contains(true);

        try {
            ip("link", "set", netdev, "down");
            awaitPort(rxe.name(), false);

            EngineExecutionResults pinned = run(Map.of("linkproof.profile", "softroce"));
            pinned.testEvents().assertStatistics(s -> s.started(1).failed(1));
            assertThat(failure(pinned.testEvents().failed().list().getFirst())).startsWith("write 4 KiB ×1 · 1 QP · verbs: ")
                    .contains("profile 'softroce' requires the verbs transport (transport.required), and it is unavailable on "
                            + "this host: transport verbs needs an RDMA device, and profile 'softroce' resolves none on this host")
                    .contains("(profile chosen by linkproof.profile: built-in softroce; it was not matched against this host)");

            EngineExecutionResults auto = run(Map.of("linkproof.profile", "auto", "linkproof.requireProfileMatch", "true"));
            auto.testEvents().assertStatistics(s -> s.started(0));
            assertThat(auto.containerEvents().failed().list()).first().satisfies(e -> assertThat(failure(e))
                    .startsWith("configuration error: linkproof.requireProfileMatch=true, and profile 'loopback' is the fallback, "
                            + "although this host has RDMA device " + rxe.name()));
        } finally {
            ip("link", "set", netdev, "up");
            awaitPort(rxe.name(), true);
        }
        run(Map.of("linkproof.profile", "softroce")).testEvents().assertStatistics(s -> s.started(1).succeeded(1));
    }

    /** One small verbs write with the run's own linkproof.* keys (the guest's deadlines), and {@code config} over them. */
    private EngineExecutionResults run(Map<String, String> config) {
        var kit = EngineTestKit.engine("linkproof").selectors(selectClass(OneVerbsWrite.class))
                .configurationParameter("linkproof.results", dir.resolve("results-" + System.nanoTime() + ".jsonl").toString());
        for (String key : System.getProperties().stringPropertyNames()) {
            if (key.startsWith("linkproof.")) {
                kit = kit.configurationParameter(key, System.getProperty(key));
            }
        }
        return kit.configurationParameters(config).execute();
    }

    private static String failure(Event e) {
        return e.getRequiredPayload(TestExecutionResult.class).getThrowable().map(Throwable::getMessage).orElse("");
    }

    /** The kernel's view of port 1, read fresh from sysfs each time; empty when there is no such device. */
    private static Optional<Boolean> portActive(String device) {
        return HardwareProbe.system().probe().rdmaDevice(device)
                .flatMap(d -> d.ports().stream().filter(p -> p.number() == 1).findFirst()).map(RdmaPort::active);
    }

    private static void awaitPort(String device, boolean active) throws InterruptedException {
        long end = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(PORT_WAIT_MS);
        while (!portActive(device).equals(Optional.of(active))) {
            if (System.nanoTime() > end) {
                throw new AssertionError(device + "'s port 1 did not become " + (active ? "ACTIVE" : "DOWN") + " within "
                        + PORT_WAIT_MS + " ms of its netdev going " + (active ? "up" : "down"));
            }
            Thread.sleep(50);
        }
    }

    private static boolean isDummy(String netdev) throws IOException, InterruptedException {
        return ip("-d", "-o", "link", "show", "dev", netdev).contains(" dummy ");
    }

    /** Runs {@code ip} with {@code args}, within 10 s; returns its output, fails on a non-zero status. */
    private static String ip(String... args) throws IOException, InterruptedException {
        List<String> command = new java.util.ArrayList<>(List.of("ip"));
        command.addAll(List.of(args));
        Process p = new ProcessBuilder(command).redirectErrorStream(true).start();
        if (!p.waitFor(10, TimeUnit.SECONDS)) {
            p.destroyForcibly();
            throw new AssertionError(String.join(" ", command) + " did not finish within 10 s");
        }
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        if (p.exitValue() != 0) {
            throw new AssertionError(String.join(" ", command) + " failed (status " + p.exitValue() + "): " + out.strip());
        }
        return out;
    }
}
