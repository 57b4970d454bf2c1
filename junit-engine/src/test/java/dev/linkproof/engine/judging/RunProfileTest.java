package dev.linkproof.engine.judging;

import static org.assertj.core.api.Assertions.assertThat;

import dev.linkproof.engine.judging.ProfilePlacement.DeviceChoice;
import java.io.IOException;
import java.nio.file.Path;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * How the run's profile was chosen, and the warning a hardware host gets when the fallback was.
 * Hosts are the fake sysfs trees of hardware-profiles' tests, read through
 * {@code linkproof.probe.root}, as a run reads them.
 */
public class RunProfileTest {
    static final DeviceChoice LOCAL = new DeviceChoice(true, Optional.empty());

    public static String host(String name) {
        return dev.linkproof.engine.FakeHosts.path(name);
    }

    static RunProfile judge(String host, DeviceChoice devices) {
        return RunProfile.load(Map.of("linkproof.probe.root", host(host)), devices);
    }

    /**
     * A ConnectX-7 host whose ports are down matches no NIC profile and falls back to loopback: the
     * run warns at its end, naming the devices. A matched NIC profile, a software device, or a
     * profile named on the command line get no warning.
     */
    @Test
    void aHardwareHostThatFallsBackToLoopbackIsWarnedAbout(@TempDir Path dir) throws Exception {
        Path down = cx7PortsDown(dir);
        RunProfile fallback = RunProfile.load(Map.of("linkproof.probe.root", down.toString()), LOCAL);
        assertThat(fallback.id()).isEqualTo("loopback");
        assertThat(fallback.fallbackWarning())
                .hasValueSatisfying(w -> assertThat(w)
                        .startsWith(
                                "profile 'loopback' is the fallback, although this host has RDMA device mlx5_0, RDMA"
                                        + " device mlx5_1")
                        // why, in the matcher's words, from the profile that is for these NICs alone (not the
                        // H100 profile, which extends cx7-400g but needs GPUs this host does not have)
                        .contains("no built-in profile matched them (cx7-400g: nic: no RDMA device matches — mlx5_0 ")
                        .contains("no ACTIVE port (port 1 DOWN)")
                        .doesNotContain("h100-cx7-gpu")
                        .contains("-Dlinkproof.profile=<id>"));

        assertThat(judge("cx7-host", LOCAL).fallbackWarning()).as("matched").isEmpty();
        assertThat(judge("rxe-host", LOCAL).fallbackWarning())
                .as("software device, softroce matched")
                .isEmpty();
        // rxe0's port down: softroce no longer matches, and the software device is warned about too
        assertThat(RunProfile.load(
                                Map.of(
                                        "linkproof.probe.root",
                                        portsDown(dir, "rxe-host", "rxe0").toString()),
                                LOCAL)
                        .fallbackWarning())
                .hasValueSatisfying(w -> assertThat(w)
                        .startsWith("profile 'loopback' is the fallback, although this host has RDMA device rxe0"));
        assertThat(RunProfile.load(
                                Map.of("linkproof.probe.root", down.toString(), "linkproof.profile", "loopback"), LOCAL)
                        .fallbackWarning())
                .as("named on the command line")
                .isEmpty();
    }

    /**
     * A GPU node without an RDMA NIC (the H100 tree less its ConnectX-7, as the lent H200 machines
     * are): the GPU profiles for its GPUs (h100-cx7-gpu, aws-p5-efa) also need their NICs, and the
     * warning says so rather than guessing at ports and firmware.
     */
    @Test
    void aGpuNodeWithoutTheNicItsProfileNeedsIsWarnedAboutWithTheReason(@TempDir Path dir) throws Exception {
        Path bare = dev.linkproof.engine.FakeHosts.withoutRdma(dir, "h100-cx7-host");
        RunProfile fallback = RunProfile.load(Map.of("linkproof.probe.root", bare.toString()), LOCAL);
        assertThat(fallback.id()).isEqualTo("loopback");
        assertThat(fallback.placement().gpuCount())
                .as("loopback provides the GPUs")
                .isEqualTo(2);
        assertThat(fallback.fallbackWarning())
                .hasValueSatisfying(w -> assertThat(w)
                        .startsWith("profile 'loopback' is the fallback, although this host has GPU H100 SXM5 80GB: no"
                                + " built-in profile matched them (h100-cx7-gpu: nic: no RDMA devices"
                                + " (/sys/class/infiniband is empty or absent); gpu: 2 × nvidia H100 SXM5"
                                + " 80GB; aws-p5-efa: nic: no RDMA devices")
                        // The EFA instance profile names H100s too, and says it wants eight.
                        .contains("gpu: needs 8 × nvidia GPU (model H100 or H200), 2 match")
                        .doesNotContain("mi300x")
                        .doesNotContain("cx7-400g:"));
    }

    /** The cx7 fake sysfs tree with both ports DOWN, under {@code dir}: it matches no NIC profile. */
    static Path cx7PortsDown(Path dir) throws IOException {
        return portsDown(dir, "cx7-host", "mlx5_0", "mlx5_1");
    }

    static Path portsDown(Path dir, String host, String... devices) throws IOException {
        return dev.linkproof.engine.FakeHosts.portsDown(dir, host, devices);
    }

    /** linkproof.requireProfileMatch=true turns the warning into a configuration error before any point. */
    @Test
    void requiringAMatchStopsARunThatFellBackOnAHardwareHost(@TempDir Path dir) throws Exception {
        Path down = cx7PortsDown(dir);
        var run = org.junit.platform.testkit.engine.EngineTestKit.engine(
                        dev.linkproof.engine.config.Constants.ENGINE_ID)
                .configurationParameter(dev.linkproof.engine.config.Constants.PROGRESS, "false")
                .configurationParameter(
                        dev.linkproof.engine.config.Constants.RESULTS,
                        dir.resolve("r.jsonl").toString())
                .configurationParameter("linkproof.probe.root", down.toString())
                .configurationParameter(dev.linkproof.engine.config.Constants.REQUIRE_PROFILE_MATCH, "true")
                // The build names a profile for every engine test (a system property); this run picks one.
                .configurationParameter(dev.linkproof.engine.config.Constants.PROFILE, "auto")
                .selectors(org.junit.platform.engine.discovery.DiscoverySelectors.selectClass(
                        dev.linkproof.engine.fixtures.ProfileFixture.class))
                .execute();
        run.testEvents().assertStatistics(s -> s.started(0));
        assertThat(dev.linkproof.engine.ConfigurationErrorTest.engineFailure(run))
                .startsWith("configuration error: linkproof.requireProfileMatch=true, and profile 'loopback' is the"
                        + " fallback, although this host has RDMA device mlx5_0");
        assertThat(dir.resolve("r.jsonl"))
                .as("the run stopped before the results file was started")
                .doesNotExist();
    }
}
