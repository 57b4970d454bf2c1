package dev.linkproof.engine.judging;

import static org.assertj.core.api.Assertions.assertThat;

import dev.linkproof.engine.judging.ProfilePlacement.DeviceChoice;
import dev.linkproof.transfer.TransferSpec;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
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
public class ProfilePlacementTest {
    static final TransferSpec VERBS = TransferSpec.builder().transport("verbs").build();
    static final DeviceChoice LOCAL = new DeviceChoice(true, Optional.empty());

    @TempDir
    Path dir;

    static RunProfile judge(String host, DeviceChoice devices, String... properties) {
        Map<String, String> props = new java.util.HashMap<>(Map.of("linkproof.probe.root", RunProfileTest.host(host)));
        for (int i = 0; i < properties.length; i += 2) {
            props.put(properties[i], properties[i + 1]);
        }
        return RunProfile.load(props, devices);
    }

    static String device(RunProfile judge, TransferSpec spec) {
        return judge.placement().apply(spec).settings().get("verbs.device");
    }

    @Test
    void onSoftRoceTheAutoSelectedProfilesNicBecomesEveryVerbsPointsDevice() {
        RunProfile softroce = judge("rxe-host", LOCAL);
        assertThat(softroce.id()).isEqualTo("softroce");
        assertThat(device(softroce, VERBS)).isEqualTo("rxe0");
        // Other settings pass through; other transports get no device.
        TransferSpec tuned = TransferSpec.builder()
                .transport("verbs")
                .settings(Map.of("verbs.postList", "8"))
                .build();
        assertThat(softroce.placement().apply(tuned).settings())
                .containsExactlyInAnyOrderEntriesOf(Map.of("verbs.postList", "8", "verbs.device", "rxe0"));
        assertThat(softroce.placement()
                        .apply(TransferSpec.builder().transport("tcp").build())
                        .settings())
                .isEmpty();
        assertThat(softroce.placement()
                        .apply(TransferSpec.builder().transport("ucx").build())
                        .settings())
                .isEmpty();
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
        assertThat(device(judge("cx7-host", LOCAL, "linkproof.profile", pinned.toString()), VERBS))
                .isEqualTo("mlx5_1");
        Path named = Files.writeString(dir.resolve("named.yaml"), """
            extends: cx7-400g
            id: cx7-named
            resources:
              nics: [mlx5_1]
            """);
        assertThat(device(judge("cx7-host", LOCAL, "linkproof.profile", named.toString()), VERBS))
                .isEqualTo("mlx5_1");
    }

    @Test
    void thePointsOwnDeviceThenTheProfilesSettingsThenTheCommandLineWinOverThePlan() throws IOException {
        TransferSpec own = TransferSpec.builder()
                .transport("verbs")
                .settings(Map.of("verbs.device", "rxe9"))
                .build();
        assertThat(device(judge("rxe-host", LOCAL), own)).isEqualTo("rxe9");
        assertThat(device(judge("rxe-host", new DeviceChoice(true, Optional.of("rxe5"))), VERBS))
                .isEqualTo("rxe5");
        assertThat(device(judge("rxe-host", new DeviceChoice(true, Optional.of("rxe5"))), own))
                .isEqualTo("rxe9");

        Path profile = Files.writeString(dir.resolve("rxe7.yaml"), """
            extends: softroce
            id: softroce-rxe7
            transport:
              settings:
                verbs.device: rxe7
            """);
        RunProfile withSettings =
                judge("rxe-host", new DeviceChoice(true, Optional.of("rxe5")), "linkproof.profile", profile.toString());
        assertThat(device(withSettings, VERBS)).isEqualTo("rxe7");
        assertThat(device(withSettings, own)).isEqualTo("rxe9");
    }

    @Test
    void withARemotePeerEachRankPicksItsOwnDevice() {
        // The plan is this host's: its device names need not exist on the target host.
        assertThat(device(judge("rxe-host", DeviceChoice.REMOTE), VERBS)).isNull();
        assertThat(device(judge("rxe-host", new DeviceChoice(false, Optional.of("rxe5"))), VERBS))
                .isNull();
    }

    @Test
    void withoutAnRdmaDeviceTheLoopbackProfileNamesNone() {
        RunProfile loopback = judge("cx7-host", LOCAL, "linkproof.profile", "loopback");
        // The fallback profile has no NIC rule: every device with an ACTIVE port is a candidate.
        assertThat(device(loopback, VERBS)).isEqualTo("mlx5_0");
        RunProfile none = RunProfile.load(Map.of("linkproof.probe.root", dir.toString()), LOCAL);
        assertThat(none.id()).isEqualTo("loopback");
        assertThat(device(none, VERBS)).isNull();
        assertThat(none.requirements().noDevice(VERBS))
                .hasValueSatisfying(r -> assertThat(r).contains("needs an RDMA device"));
    }
}
