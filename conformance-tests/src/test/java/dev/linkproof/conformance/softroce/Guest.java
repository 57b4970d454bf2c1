package dev.linkproof.conformance.softroce;

import static org.junit.jupiter.api.Assumptions.assumeTrue;
import static org.junit.platform.engine.discovery.DiscoverySelectors.selectClass;

import dev.linkproof.transfer.probe.HardwareProbe;
import dev.linkproof.transfer.probe.RdmaDevice;
import dev.linkproof.transfer.probe.RdmaPort;
import dev.linkproof.transfer.verbs.VerbsTransport;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import org.junit.platform.engine.TestExecutionResult;
import org.junit.platform.testkit.engine.EngineExecutionResults;
import org.junit.platform.testkit.engine.EngineTestKit;
import org.junit.platform.testkit.engine.Event;

/**
 * What the tests that change the Soft-RoCE VM's network (VerbsPortDown, VerbsEachNic) share: the
 * guard that they run there and nowhere else, {@code ip} and {@code rdma} as root, the kernel's
 * view of a port, and an engine run with the guest's deadlines.
 */
final class Guest {
    /** Set by SoftRoceSuite's guest script: this JVM runs in the throw-away VM, as root. */
    static final String GUEST = "softroce.guest";
    /** How long rxe may take to follow its netdev (it does within milliseconds; TCG is slow). */
    private static final long PORT_WAIT_MS = 20_000;

    private Guest() {}

    static boolean inTheVm() {
        return Boolean.getBoolean(GUEST);
    }

    /**
     * The VM's rxe device on its dummy interface, for a test that changes the VM's network
     * ({@code what}: "takes a network interface down"); the test is skipped with the reason outside
     * the VM, without verbs, or without such a device.
     */
    static RdmaDevice rxeToChange(String what) throws IOException, InterruptedException {
        assumeTrue(inTheVm(), what + ": runs only in the Soft-RoCE VM (-D" + GUEST + "=true)");
        var verbs = new VerbsTransport().availability();
        assumeTrue(verbs.available(), "verbs unavailable: " + verbs.reason());
        Optional<RdmaDevice> rxe = rxeOnDummy();
        assumeTrue(rxe.isPresent(), "no rxe device on a dummy interface here");
        return rxe.get();
    }

    /** The first rxe device on a dummy interface, the one the VM's init made; empty elsewhere. */
    private static Optional<RdmaDevice> rxeOnDummy() throws IOException, InterruptedException {
        for (RdmaDevice d : HardwareProbe.system().probe().rdmaDevices()) {
            if (d.driver().equals("rdma_rxe")
                    && d.netdevs().size() == 1
                    && isDummy(d.netdevs().getFirst())) {
                return Optional.of(d);
            }
        }
        return Optional.empty();
    }

    static boolean isDummy(String netdev) throws IOException, InterruptedException {
        return command("ip", "-d", "-o", "link", "show", "dev", netdev).contains(" dummy ");
    }

    /** The kernel's view of port 1, read fresh from sysfs each time; empty when there is no such device. */
    static Optional<Boolean> portActive(String device) {
        return HardwareProbe.system()
                .probe()
                .rdmaDevice(device)
                .flatMap(d -> d.ports().stream().filter(p -> p.number() == 1).findFirst())
                .map(RdmaPort::active);
    }

    static void awaitPort(String device, boolean active) throws InterruptedException {
        long end = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(PORT_WAIT_MS);
        while (!portActive(device).equals(Optional.of(active))) {
            if (System.nanoTime() > end) {
                throw new AssertionError(device + "'s port 1 did not become " + (active ? "ACTIVE" : "DOWN")
                        + " within " + PORT_WAIT_MS + " ms");
            }
            Thread.sleep(50);
        }
    }

    /** Waits for a RoCE v2 GID on {@code device}: the one the verbs transport picks appears shortly after the interface's address does. */
    static void awaitRoceV2Gid(String device) throws InterruptedException {
        long end = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(PORT_WAIT_MS);
        while (HardwareProbe.system().probe().rdmaDevice(device).stream()
                .flatMap(d -> d.ports().stream())
                .flatMap(p -> p.gids().stream())
                .noneMatch(g -> g.type().contains("v2"))) {
            if (System.nanoTime() > end) {
                throw new AssertionError(device + " has no RoCE v2 GID within " + PORT_WAIT_MS + " ms");
            }
            Thread.sleep(50);
        }
    }

    /**
     * A second rxe device ({@code device}) on a dummy interface of its own ({@code netdev}, {@code address}/24)
     * beside the VM's rxe0, its port up and its RoCE v2 GID there; closing removes both, each step on its
     * own so a failed add leaves nothing for a later one to trip over.
     */
    static AutoCloseable secondRxe(String netdev, String address, String device)
            throws IOException, InterruptedException {
        AutoCloseable remove = () -> {
            quietly("rdma", "link", "delete", device);
            quietly("ip", "link", "del", netdev);
        };
        try {
            command("ip", "link", "add", netdev, "type", "dummy");
            command("ip", "addr", "add", address + "/24", "dev", netdev);
            command("ip", "link", "set", netdev, "up");
            command("rdma", "link", "add", device, "type", "rxe", "netdev", netdev);
            awaitPort(device, true);
            awaitRoceV2Gid(device);
            return remove;
        } catch (IOException | InterruptedException | RuntimeException | AssertionError e) {
            try {
                remove.close();
            } catch (Exception ignored) {
                // quietly already said why
            }
            throw e;
        }
    }

    private static void quietly(String... command) {
        try {
            command(command);
        } catch (Exception | AssertionError e) {
            System.out.println("[Guest] cleanup: " + String.join(" ", command) + ": " + e.getMessage());
        }
    }

    /** Packets {@code device}'s port 1 has sent, by its own counter ({@code hw_counters/sent_pkts}). */
    static long sentPackets(String device) throws IOException {
        return Long.parseLong(
                Files.readString(Path.of("/sys/class/infiniband", device, "ports/1/hw_counters/sent_pkts"))
                        .strip());
    }

    /** Runs {@code command} within 10 s; returns its output, fails on a non-zero status. */
    static String command(String... command) throws IOException, InterruptedException {
        Process p = new ProcessBuilder(command).redirectErrorStream(true).start();
        if (!p.waitFor(10, TimeUnit.SECONDS)) {
            p.destroyForcibly();
            throw new AssertionError(String.join(" ", command) + " did not finish within 10 s");
        }
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        if (p.exitValue() != 0) {
            throw new AssertionError(
                    String.join(" ", command) + " failed (status " + p.exitValue() + "): " + out.strip());
        }
        return out;
    }

    /** As {@link #run(Class, Path, Map)}, with a fresh results file in {@code dir}. */
    static EngineExecutionResults runIn(Path dir, Class<?> fixture, Map<String, String> config) {
        return run(fixture, dir.resolve("results-" + System.nanoTime() + ".jsonl"), config);
    }

    /** An engine run of {@code fixture} with the guest's linkproof.* keys (its deadlines), {@code config} over them. */
    static EngineExecutionResults run(Class<?> fixture, Path results, Map<String, String> config) {
        var kit = EngineTestKit.engine("linkproof")
                .selectors(selectClass(fixture))
                .configurationParameter("linkproof.results", results.toString());
        for (String key : System.getProperties().stringPropertyNames()) {
            if (key.startsWith("linkproof.")) {
                kit = kit.configurationParameter(key, System.getProperty(key));
            }
        }
        return kit.configurationParameters(config).execute();
    }

    /**
     * A run stopped at discovery: its error-level issues' messages, as JUnit's DiscoveryIssueException
     * lists them ("(n) [ERROR] message"), "; "-joined.
     */
    static String discoveryErrors(Event engineFailed) {
        Throwable t = engineFailed
                .getRequiredPayload(TestExecutionResult.class)
                .getThrowable()
                .orElseThrow();
        org.assertj.core.api.Assertions.assertThat(t.getClass().getSimpleName()).isEqualTo("DiscoveryIssueException");
        return String.join(
                "; ",
                t.getMessage()
                        .lines()
                        .map(String::strip)
                        .filter(l -> l.matches("\\(\\d+\\) \\[ERROR\\] .*"))
                        .map(l -> l.substring(l.indexOf("] ") + 2))
                        .toList());
    }

    static String failure(Event e) {
        return e.getRequiredPayload(TestExecutionResult.class)
                .getThrowable()
                .map(Throwable::getMessage)
                .orElse("");
    }

    static List<String> displayNames(List<Event> events) {
        List<String> names = new ArrayList<>();
        events.forEach(e -> names.add(e.getTestDescriptor().getDisplayName()));
        return names;
    }
}
