package dev.linkproof.profiles;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.linkproof.transfer.probe.HardwareProbe;
import dev.linkproof.transfer.probe.ProbeReport;
import dev.linkproof.transfer.probe.RdmaDevice;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Fake ConnectX-7, Thor2, ConnectX-6 Dx, GPU and Soft-RoCE hosts select their profiles, and say why the others do not fit. */
class ProfileMatcherTest {
    static final BuiltinProfiles BUILTINS = BuiltinProfiles.standard();

    static MatchReport select(ProbeReport probe) {
        return ProfileMatcher.select(BUILTINS.all(), probe);
    }

    static String why(MatchReport r, String id) {
        return r.result(id).orElseThrow().summary();
    }

    @Test
    void connectX7HostSelectsCx7() {
        ProbeReport probe = FakeHosts.probe("cx7-host");
        assertThat(probe.rdmaDevices()).extracting(RdmaDevice::model).containsOnly("ConnectX-7");
        MatchReport r = select(probe);
        assertThat(r.selected()).hasValue("cx7-400g");
        assertThat(why(r, "cx7-400g"))
                .isEqualTo("nic: mlx5_0, mlx5_1 (ConnectX-7, mlx5_core, fw 28.39.1002, 400 Gb/s ACTIVE)");
        assertThat(why(r, "thor2-400g"))
                .contains(
                        "mlx5_0 (ConnectX-7 15b3:1021): PCI vendor 0x15b3, not 0x14e4, driver mlx5_core, not bnxt_en");
        assertThat(why(r, "cx6dx-100g"))
                .contains("PCI device 0x1021, not 0x101d", "link 400 Gb/s, not 100 Gb/s")
                .doesNotContain("older");
        assertThat(why(r, "h100-cx7-gpu"))
                .contains("nic: mlx5_0, mlx5_1")
                .contains("gpu: needs 1 × nvidia GPU (model H100 or H200), found no GPU");
        assertThat(why(r, "softroce")).contains("driver mlx5_core, not rdma_rxe");
        assertThat(why(r, "loopback")).contains("not needed: cx7-400g matches");
        assertThat(r.explain())
                .contains("selected    cx7-400g: nic: mlx5_0")
                .contains("no match    thor2-400g: nic: no RDMA device matches");
    }

    @Test
    void thor2HostSelectsThor2() {
        MatchReport r = select(FakeHosts.probe("thor2-host"));
        assertThat(r.selected()).hasValue("thor2-400g");
        assertThat(why(r, "thor2-400g"))
                .isEqualTo("nic: bnxt_re0 (BCM57608 (Thor2), bnxt_en, fw 230.0.157.0, 400 Gb/s ACTIVE)");
        assertThat(why(r, "cx7-400g"))
                .contains("bnxt_re0 (BCM57608 (Thor2) 14e4:1760): PCI vendor 0x14e4, not 0x15b3, driver bnxt_en, not"
                        + " mlx5_core");
        assertThat(why(r, "mi300x-thor2-gpu"))
                .contains("nic: bnxt_re0")
                .contains("gpu: needs 1 × amd GPU (model MI300X), found no GPU");
    }

    @Test
    void connectX6DxHostSelectsCx6DxAndNotTheLx() {
        ProbeReport probe = FakeHosts.probe("cx6dx-host");
        MatchReport r = select(probe);
        assertThat(r.selected()).hasValue("cx6dx-100g");
        assertThat(why(r, "cx6dx-100g"))
                .startsWith("nic: rocep81s0f0, rocep81s0f1 (ConnectX-6 Dx, mlx5_core, fw 22.43.2566, 100 Gb/s ACTIVE)");
        NicRule rule = BUILTINS.profile("cx6dx-100g").match().nic().orElseThrow();
        assertThat(ProfileMatcher.matchingNics(rule, probe))
                .extracting(RdmaDevice::name)
                .containsExactly("rocep81s0f0", "rocep81s0f1");
        assertThat(ProfileMatcher.nicProblems(
                        rule, probe.rdmaDevice("rocep138s0f0").orElseThrow()))
                .containsExactly("PCI device 0x101f, not 0x101d", "link 25 Gb/s, not 100 Gb/s");
        assertThat(why(r, "cx7-400g"))
                .contains("rocep81s0f0 (ConnectX-6 Dx 15b3:101d): PCI device 0x101d, not 0x1021, link 100 Gb/s, not 400"
                        + " Gb/s");
    }

    @Test
    void oldFirmwareAndADownPortAreExplained(@TempDir Path tmp) throws IOException {
        Path root = FakeHosts.copy("cx6dx-host", tmp);
        Files.writeString(root.resolve("sys/class/infiniband/rocep81s0f0/fw_ver"), "22.41.1000\n");
        Files.writeString(root.resolve("sys/class/infiniband/rocep81s0f1/ports/1/state"), "1: DOWN\n");
        MatchReport r = select(new HardwareProbe(root).probe());
        assertThat(r.selected()).hasValue("loopback");
        assertThat(why(r, "cx6dx-100g"))
                .contains("rocep81s0f0 (ConnectX-6 Dx 15b3:101d): firmware 22.41.1000 older than 22.43.2566")
                .contains("rocep81s0f1 (ConnectX-6 Dx 15b3:101d): no ACTIVE port (port 1 DOWN)");
        assertThat(why(r, "loopback")).startsWith("fallback profile");
    }

    @Test
    void gpuHostsSelectTheGpuProfileOverTheirNicProfile() {
        MatchReport amd = select(FakeHosts.probe("mi300x-thor2-host"));
        assertThat(amd.selected()).hasValue("mi300x-thor2-gpu");
        assertThat(why(amd, "mi300x-thor2-gpu")).contains("gpu: 2 × amd MI300X");
        assertThat(why(amd, "thor2-400g")).contains("not chosen: mi300x-thor2-gpu is more specific");

        ProbeReport nv = FakeHosts.probe("h100-cx7-host");
        assertThat(nv.gpus()).hasSize(2).allSatisfy(g -> assertThat(g.model()).isEqualTo("H100 SXM5 80GB"));
        MatchReport nvr = select(nv);
        assertThat(nvr.selected()).hasValue("h100-cx7-gpu");
        assertThat(why(nvr, "h100-cx7-gpu")).contains("nic: mlx5_0", "gpu: 2 × nvidia H100 SXM5 80GB");
        assertThat(why(nvr, "mi300x-thor2-gpu"))
                .contains("gpu: needs 1 × amd GPU (model MI300X), found nvidia H100 SXM5 80GB (vendor nvidia, not amd,"
                        + " model H100 SXM5 80GB, not MI300X)");
    }

    @Test
    void softRoceHostSelectsSoftroce() {
        MatchReport r = select(FakeHosts.probe("rxe-host"));
        assertThat(r.selected()).hasValue("softroce");
        assertThat(why(r, "softroce")).isEqualTo("nic: rxe0 (Soft-RoCE (rxe), rdma_rxe, 100 Gb/s ACTIVE)");
        assertThat(why(r, "cx7-400g")).contains("rxe0 (Soft-RoCE (rxe)): no PCI function (a software device)");
    }

    @Test
    void thisMachineWithoutRdmaGetsTheLoopbackProfile() {
        ProbeReport probe = HardwareProbe.system().probe();
        assumeTrue(probe.rdmaDevices().isEmpty(), "this machine has RDMA devices");
        MatchReport r = select(probe);
        assertThat(r.selected()).hasValue("loopback");
        assertThat(why(r, "cx7-400g")).isEqualTo("nic: no RDMA devices (/sys/class/infiniband is empty or absent)");
        LoadedProfile loaded = new ProfileLoader(java.util.Map.of()).load(() -> probe);
        assertThat(loaded.profile().id()).isEqualTo("loopback");
        assertThat(loaded.selection()).isEqualTo("auto");
        assertThat(loaded.match()).isPresent();
    }

    @Test
    void withNoFallbackAndNoMatchNothingIsSelected() {
        List<HardwareProfile> rdmaOnly =
                BUILTINS.all().stream().filter(p -> !p.match().fallback()).toList();
        MatchReport r = ProfileMatcher.select(rdmaOnly, new HardwareProbe(Path.of("/nonexistent")).probe());
        assertThat(r.selected()).isEmpty();
        assertThat(r.explain()).endsWith("no profile matches this host\n");
    }

    /**
     * An explicit profile never matches, not even on a host with nothing else (where the fallback
     * does), and says how to choose it.
     */
    @Test
    void anExplicitProfileIsNeverChosenByMatching() {
        HardwareProfile explicit = CriteriaEvaluatorTest.profile("id: by-id\nvendor: Lab\nmatch: {explicit: true}\n");
        assertThat(explicit.match().explicit()).isTrue();
        ProbeReport empty = new HardwareProbe(Path.of("/nonexistent")).probe();
        MatchResult r = ProfileMatcher.match(explicit, empty);
        assertThat(r.matched()).isFalse();
        assertThat(r.reasons()).containsExactly("chosen only by its id (linkproof.profile=by-id), never by matching");
        assertThat(ProfileMatcher.select(List.of(explicit), empty).selected()).isEmpty();
        List<HardwareProfile> withFallback = new java.util.ArrayList<>(BUILTINS.all());
        withFallback.add(explicit);
        assertThat(ProfileMatcher.select(withFallback, empty).selected()).contains("loopback");
    }
}
