package dev.linkproof.engine.judging;

import static org.assertj.core.api.Assertions.assertThat;

import dev.linkproof.engine.judging.RunProfile.DeviceChoice;
import dev.linkproof.transfer.TransferSpec;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The profile's resource plan reaches the verbs transport: every verbs point runs with
 * {@code verbs.device} = the plan's NIC, unless the point, the profile's transport settings or the
 * command line name another; with a remote peer the engine names none. Hosts are the fake sysfs
 * trees of hardware-profiles' tests, read through {@code linkproof.probe.root}, as a run reads them.
 */
public class RunProfileTest {
    static final TransferSpec VERBS = TransferSpec.builder().transport("verbs").build();
    static final DeviceChoice LOCAL = new DeviceChoice(true, Optional.empty());

    @TempDir
    Path dir;

    public static String host(String name) {
        return dev.linkproof.engine.FakeHosts.path(name);
    }

    static RunProfile judge(String host, DeviceChoice devices, String... properties) {
        Map<String, String> props = new java.util.HashMap<>(Map.of("linkproof.probe.root", host(host)));
        for (int i = 0; i < properties.length; i += 2) {
            props.put(properties[i], properties[i + 1]);
        }
        return RunProfile.load(props, devices);
    }

    static String device(RunProfile judge, TransferSpec spec) {
        return judge.apply(spec).settings().get("verbs.device");
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
        assertThat(fallback.fallbackWarning()).hasValueSatisfying(w -> assertThat(w)
                .startsWith("profile 'loopback' is the fallback, although this host has RDMA device mlx5_0, RDMA device mlx5_1")
                // why, in the matcher's words, from the profile that is for these NICs alone (not the
                // H100 profile, which extends cx7-400g but needs GPUs this host does not have)
                .contains("no built-in profile matched them (cx7-400g: nic: no RDMA device matches — mlx5_0 ")
                .contains("no ACTIVE port (port 1 DOWN)")
                .doesNotContain("h100-cx7-gpu")
                .contains("-Dlinkproof.profile=<id>"));

        assertThat(judge("cx7-host", LOCAL).fallbackWarning()).as("matched").isEmpty();
        assertThat(judge("rxe-host", LOCAL).fallbackWarning()).as("software device, softroce matched").isEmpty();
        // rxe0's port down: softroce no longer matches, and the software device is warned about too
        assertThat(RunProfile.load(Map.of("linkproof.probe.root", portsDown(dir, "rxe-host", "rxe0").toString()), LOCAL)
                .fallbackWarning()).hasValueSatisfying(w -> assertThat(w)
                .startsWith("profile 'loopback' is the fallback, although this host has RDMA device rxe0"));
        assertThat(RunProfile.load(Map.of("linkproof.probe.root", down.toString(), "linkproof.profile", "loopback"), LOCAL)
                .fallbackWarning()).as("named on the command line").isEmpty();
    }

    /**
     * A GPU node without an RDMA NIC (the H100 tree less its ConnectX-7, as the lent H200 machines
     * are): the GPU profile is for its GPUs but also needs the NIC, and the warning says so rather
     * than guessing at ports and firmware.
     */
    @Test
    void aGpuNodeWithoutTheNicItsProfileNeedsIsWarnedAboutWithTheReason(@TempDir Path dir) throws Exception {
        Path bare = dev.linkproof.engine.FakeHosts.withoutRdma(dir, "h100-cx7-host");
        RunProfile fallback = RunProfile.load(Map.of("linkproof.probe.root", bare.toString()), LOCAL);
        assertThat(fallback.id()).isEqualTo("loopback");
        assertThat(fallback.gpuCount()).as("loopback provides the GPUs").isEqualTo(2);
        assertThat(fallback.fallbackWarning()).hasValueSatisfying(w -> assertThat(w)
                .startsWith("profile 'loopback' is the fallback, although this host has GPU H100 SXM5 80GB: no built-in "
                        + "profile matched them (h100-cx7-gpu: nic: no RDMA devices (/sys/class/infiniband is empty or absent); "
                        + "gpu: 2 × nvidia H100 SXM5 80GB)")
                .doesNotContain("mi300x").doesNotContain("cx7-400g:"));
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
        var run = org.junit.platform.testkit.engine.EngineTestKit.engine(dev.linkproof.engine.config.Constants.ENGINE_ID)
                .configurationParameter(dev.linkproof.engine.config.Constants.PROGRESS, "false")
                .configurationParameter(dev.linkproof.engine.config.Constants.RESULTS, dir.resolve("r.jsonl").toString())
                .configurationParameter("linkproof.probe.root", down.toString())
                .configurationParameter(dev.linkproof.engine.config.Constants.REQUIRE_PROFILE_MATCH, "true")
                // The build names a profile for every engine test (a system property); this run picks one.
                .configurationParameter(dev.linkproof.engine.config.Constants.PROFILE, "auto")
                .selectors(org.junit.platform.engine.discovery.DiscoverySelectors.selectClass(
                        dev.linkproof.engine.fixtures.ProfileFixture.class))
                .execute();
        run.testEvents().assertStatistics(s -> s.started(0));
        assertThat(dev.linkproof.engine.ConfigurationErrorTest.engineFailure(run))
                .startsWith("configuration error: linkproof.requireProfileMatch=true, and profile 'loopback' is the fallback, "
                        + "although this host has RDMA device mlx5_0");
        assertThat(dir.resolve("r.jsonl")).as("the run stopped before the results file was started").doesNotExist();
    }

    @Test
    void onSoftRoceTheAutoSelectedProfilesNicBecomesEveryVerbsPointsDevice() {
        RunProfile softroce = judge("rxe-host", LOCAL);
        assertThat(softroce.id()).isEqualTo("softroce");
        assertThat(device(softroce, VERBS)).isEqualTo("rxe0");
        // Other settings pass through; other transports get no device.
        TransferSpec tuned = TransferSpec.builder().transport("verbs").settings(Map.of("verbs.postList", "8")).build();
        assertThat(softroce.apply(tuned).settings()).containsExactlyInAnyOrderEntriesOf(
                Map.of("verbs.postList", "8", "verbs.device", "rxe0"));
        assertThat(softroce.apply(TransferSpec.builder().transport("tcp").build()).settings()).isEmpty();
        assertThat(softroce.apply(TransferSpec.builder().transport("ucx").build()).settings()).isEmpty();
    }

    @Test
    void theNicIsTheOneNumaLocalToThePinnedCores() throws IOException {
        // Unpinned, auto takes the matching devices in order; pinned to node 1's cores, that node's NIC.
        assertThat(device(judge("cx7-host", LOCAL), VERBS)).isEqualTo("mlx5_0");
        Path pinned = Files.writeString(dir.resolve("pinned.yaml"), """
                extends: cx7-400g
                id: cx7-node1
                resources:
                  cpu-cores: 40-41
                """);
        assertThat(device(judge("cx7-host", LOCAL, "linkproof.profile", pinned.toString()), VERBS)).isEqualTo("mlx5_1");
        Path named = Files.writeString(dir.resolve("named.yaml"), """
                extends: cx7-400g
                id: cx7-named
                resources:
                  nics: [mlx5_1]
                """);
        assertThat(device(judge("cx7-host", LOCAL, "linkproof.profile", named.toString()), VERBS)).isEqualTo("mlx5_1");
    }

    @Test
    void thePointsOwnDeviceThenTheProfilesSettingsThenTheCommandLineWinOverThePlan() throws IOException {
        TransferSpec own = TransferSpec.builder().transport("verbs").settings(Map.of("verbs.device", "rxe9")).build();
        assertThat(device(judge("rxe-host", LOCAL), own)).isEqualTo("rxe9");
        assertThat(device(judge("rxe-host", new DeviceChoice(true, Optional.of("rxe5"))), VERBS)).isEqualTo("rxe5");
        assertThat(device(judge("rxe-host", new DeviceChoice(true, Optional.of("rxe5"))), own)).isEqualTo("rxe9");

        Path profile = Files.writeString(dir.resolve("rxe7.yaml"), """
                extends: softroce
                id: softroce-rxe7
                transport:
                  settings:
                    verbs.device: rxe7
                """);
        RunProfile withSettings = judge("rxe-host", new DeviceChoice(true, Optional.of("rxe5")),
                "linkproof.profile", profile.toString());
        assertThat(device(withSettings, VERBS)).isEqualTo("rxe7");
        assertThat(device(withSettings, own)).isEqualTo("rxe9");
    }

    @Test
    void withARemotePeerEachRankPicksItsOwnDevice() {
        // The plan is this host's: its device names need not exist on the target host.
        assertThat(device(judge("rxe-host", DeviceChoice.REMOTE), VERBS)).isNull();
        assertThat(device(judge("rxe-host", new DeviceChoice(false, Optional.of("rxe5"))), VERBS)).isNull();
    }

    @Test
    void withoutAnRdmaDeviceTheLoopbackProfileNamesNone() {
        RunProfile loopback = judge("cx7-host", LOCAL, "linkproof.profile", "loopback");
        // The fallback profile has no NIC rule: every device with an ACTIVE port is a candidate.
        assertThat(device(loopback, VERBS)).isEqualTo("mlx5_0");
        RunProfile none = RunProfile.load(Map.of("linkproof.probe.root", dir.toString()), LOCAL);
        assertThat(none.id()).isEqualTo("loopback");
        assertThat(device(none, VERBS)).isNull();
        assertThat(none.noDevice(VERBS)).hasValueSatisfying(r -> assertThat(r).contains("needs an RDMA device"));
    }
}
