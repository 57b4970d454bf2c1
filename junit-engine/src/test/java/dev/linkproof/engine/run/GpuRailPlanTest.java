package dev.linkproof.engine.run;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.linkproof.engine.FakeHosts;
import dev.linkproof.engine.api.SweepPoint;
import dev.linkproof.engine.judging.ProfilePlacement;
import dev.linkproof.engine.judging.RunProfile;
import dev.linkproof.transfer.MemoryPlacement;
import dev.linkproof.transfer.TransferSpec;
import dev.linkproof.transfer.probe.CpuLayout;
import dev.linkproof.transfer.probe.GpuDevice;
import dev.linkproof.transfer.probe.HugePages;
import dev.linkproof.transfer.probe.PciFunction;
import dev.linkproof.transfer.probe.ProbeReport;
import dev.linkproof.transfer.probe.RdmaDevice;
import dev.linkproof.transfer.probe.StackVersions;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Rails on GPUs, planned before any session: gpu-ipc's rails as pairs of GPUs (rail k the point's
 * pair shifted by k over the profile's GPUs, on their runtime ordinals), and a verbs or ucx point with
 * GPU memory putting each rail on the GPU NUMA-local to its NIC, nearest PCI bus first, else GPU k
 * with the reason. The runs are in conformance-tests' GpuRailsOnFakeRuntimeTest.
 */
class GpuRailPlanTest {
    /** Two H100s (0000:1b:00.0, 0000:43:00.0) and mlx5_0 (0000:18:00.0), all on NUMA node 0. */
    static final String H100 = FakeHosts.path("h100-cx7-host");

    @TempDir
    Path dir;

    private static RunProfile profile(String root, String... overlay) {
        Map<String, String> p = new java.util.HashMap<>(Map.of("linkproof.probe.root", root));
        if (overlay.length > 0) {
            p.put("linkproof.profile.overlay", overlay[0]);
        }
        return RunProfile.load(p, new ProfilePlacement.DeviceChoice(true, Optional.empty()));
    }

    private static SweepPoint point(String transport, String memory, int rails, boolean bothWays) {
        String[] sides = memory.split("->");
        TransferSpec spec = TransferSpec.builder()
                .transport(transport)
                .initiatorMemory(MemoryPlacement.parse(sides[0]))
                .targetMemory(MemoryPlacement.parse(sides[1]))
                .build();
        return new SweepPoint(spec, transport, "seg", rails, bothWays);
    }

    private static List<String> memories(RailPlan.Plan plan) {
        return plan.spots().stream()
                .map(s -> s.memory().orElseThrow().toString())
                .toList();
    }

    @Test
    void gpuIpcRailsArePairsOfGpusEachShiftedByItsRail() {
        RunProfile h100 = profile(H100);
        assertThat(h100.placement().gpuCount()).isEqualTo(2);

        RailPlan.Plan next = RailPlan.of(h100.placement(), List.of(), point("gpu-ipc", "gpu->gpu:1", 2, false));
        assertThat(next.shortfall()).isEmpty();
        assertThat(next.spots()).extracting(RailPlan.Spot::label).containsExactly("GPU 0→GPU 1", "GPU 1→GPU 0");
        assertThat(memories(next)).containsExactly("gpu->gpu:1", "gpu:1->gpu");
        assertThat(next.spots()).allSatisfy(s -> {
            assertThat(s.back()).isFalse();
            assertThat(s.settings()).isEmpty();
        });
        assertThat(next.notes()).isEmpty();

        assertThat(memories(RailPlan.of(h100.placement(), List.of(), point("gpu-ipc", "gpu->gpu", 0, false))))
                .as("every GPU, each to itself")
                .containsExactly("gpu->gpu", "gpu:1->gpu:1");
        assertThat(RailPlan.of(h100.placement(), List.of(), point("gpu-ipc", "gpu->gpu:1", 3, false))
                        .shortfall())
                .contains("3 rails asked, and only 2 available (GPU 0→GPU 1, GPU 1→GPU 0)");
        assertThat(RailPlan.of(h100.placement(), List.of(), point("gpu-ipc", "host->host", 2, false))
                        .shortfall())
                .contains("2 rails asked, and the gpu-ipc transport's rails are pairs of GPUs, and the point's memory"
                        + " names none (host->host)");
        assertThat(RailPlan.of(h100.placement(), List.of(), point("gpu-ipc", "gpu->gpu:2", 2, false))
                        .shortfall())
                .contains("2 rails asked, and the point needs gpu->gpu:2, and the profile provides 2 GPU(s)");
    }

    /** Both ways on one host: each pair also runs reversed (GPU j to GPU i), driven from here, not by the agent. */
    @Test
    void gpuIpcBothWaysRunsEachPairReversedToo() {
        RailPlan.Plan both = RailPlan.of(profile(H100).placement(), List.of(), point("gpu-ipc", "gpu->gpu:1", 1, true));
        assertThat(both.spots()).extracting(RailPlan.Spot::label).containsExactly("GPU 0→GPU 1", "GPU 1→GPU 0 back");
        assertThat(memories(both)).containsExactly("gpu->gpu:1", "gpu:1->gpu");
        assertThat(both.spots()).noneMatch(RailPlan.Spot::back);

        RailPlan.Plan all = RailPlan.of(profile(H100).placement(), List.of(), point("gpu-ipc", "gpu->gpu:1", 0, true));
        assertThat(memories(all)).containsExactly("gpu->gpu:1", "gpu:1->gpu", "gpu:1->gpu", "gpu->gpu:1");
    }

    /**
     * The profile's GPUs in its order ({@code resources.gpus: [1, 0]}): rail k shifts over the profile's
     * GPUs, then each lands on its runtime ordinal, per rail (ProfilePlacement#placeGpus once per point would
     * put every rail on rail 0's GPUs).
     */
    @Test
    void eachRailsGpusAreTheOnesTheProfileProvides() throws Exception {
        Path swapped = Files.writeString(dir.resolve("swapped.yaml"), "resources:\n  gpus: [1, 0]\n");
        RunProfile profile = profile(H100, swapped.toString());
        RailPlan.Plan plan = RailPlan.of(profile.placement(), List.of(), point("gpu-ipc", "gpu->gpu", 2, false));
        assertThat(plan.spots()).extracting(RailPlan.Spot::label).containsExactly("GPU 1→GPU 1", "GPU 0→GPU 0");
        TransferSpec rail1 = plan.spots()
                .get(1)
                .placed(profile.placement()
                        .placeGpus(point("gpu-ipc", "gpu->gpu", 2, false).spec()));
        assertThat(rail1.initiatorMemory() + "->" + rail1.targetMemory()).isEqualTo("gpu->gpu");

        Path one = Files.writeString(dir.resolve("one.yaml"), "resources:\n  gpus: [1]\n");
        assertThat(RailPlan.of(
                                profile(H100, one.toString()).placement(),
                                List.of(),
                                point("gpu-ipc", "gpu->gpu", 0, false))
                        .spots())
                .extracting(RailPlan.Spot::label)
                .containsExactly("GPU 1→GPU 1");
    }

    /** A transport of one host named by its capability (a decorator of gpu-ipc): GPU pairs too; verbs is not one. */
    @Test
    void aOneHostTransportsRailsAreGpuPairs() {
        RunProfile h100 = profile(H100);
        assertThat(RailPlan.of(h100.placement(), List.of(), point("gpu-ipc-bitflip", "gpu->gpu:1", 2, false), true)
                        .spots())
                .extracting(RailPlan.Spot::label)
                .containsExactly("GPU 0→GPU 1", "GPU 1→GPU 0");
        assertThat(RailPlan.of(h100.placement(), List.of(), point("gpu-ipc-bitflip", "gpu->gpu:1", 2, false))
                        .shortfall())
                .hasValueSatisfying(why -> assertThat(why).contains("the gpu-ipc-bitflip transport has no rails"));
    }

    /** verbs and ucx with GPU memory: rail k's GPU sides on the GPU beside its NIC, the label naming both. */
    @Test
    void aNicRailWithGpuMemoryUsesTheGpuBesideItsNic() {
        RunProfile h100 = profile(H100);
        RailPlan.Plan verbs = RailPlan.of(h100.placement(), List.of(), point("verbs", "gpu->gpu", 0, false));
        assertThat(verbs.spots()).singleElement().satisfies(s -> {
            assertThat(s.label()).isEqualTo("mlx5_0 · GPU 0");
            assertThat(s.settings()).containsExactly(Map.entry("verbs.device", "mlx5_0"));
            assertThat(s.memory().orElseThrow()).hasToString("gpu->gpu");
        });
        assertThat(verbs.notes()).as("NUMA-local: nothing to say").isEmpty();
        RailPlan.Plan ucx = RailPlan.of(h100.placement(), List.of(), point("ucx", "host->gpu:1", 0, true));
        assertThat(ucx.spots())
                .extracting(RailPlan.Spot::label)
                .containsExactly("mlx5_0 · host→GPU 0", "mlx5_0 · host→GPU 0 back");
        assertThat(memories(ucx)).containsExactly("host->gpu", "host->gpu");
        assertThat(ucx.spots().get(1).back()).isTrue();
        assertThat(RailPlan.of(h100.placement(), List.of(), point("verbs", "host->host", 0, false))
                        .spots())
                .allSatisfy(s -> assertThat(s.memory()).isEmpty())
                .extracting(RailPlan.Spot::label)
                .containsExactly("mlx5_0");
    }

    /** A NIC whose NUMA node the probe does not know: GPU k, and the point's notes say so. */
    @Test
    void aNicWithoutANumaNodeFallsBackToGpuKAndSaysSo() throws Exception {
        Path host = FakeHosts.numaNode(dir, "h100-cx7-host", "mlx5_0", -1);
        RailPlan.Plan plan =
                RailPlan.of(profile(host.toString()).placement(), List.of(), point("verbs", "gpu->gpu", 0, false));
        assertThat(plan.spots()).extracting(RailPlan.Spot::label).containsExactly("mlx5_0 · GPU 0");
        assertThat(plan.notes())
                .containsExactly(
                        "rail 0 (mlx5_0) on GPU 0, the profile's GPU 0, not by NUMA: the probe gives no NUMA node for"
                                + " mlx5_0");
    }

    /**
     * The pairing itself: the GPU on the NIC's NUMA node, nearest PCI bus among those not taken, then
     * shared; a software NIC or a node without a GPU gets GPU k (modulo the GPUs there are) and why.
     */
    @Test
    void eachNicGetsTheNearestFreeGpuOnItsNumaNode() {
        List<GpuDevice> gpus = List.of(
                gpu(0, "0000:43:00.0", 0),
                gpu(1, "0000:1b:00.0", 0),
                gpu(2, "0000:9d:00.0", 1),
                gpu(3, "0000:c1:00.0", 1));
        ProbeReport probe = probe(
                List.of(
                        nic("mlx5_0", "0000:18:00.0", 0),
                        nic("mlx5_1", "0000:40:00.0", 0),
                        nic("mlx5_2", "0000:9a:00.0", 1),
                        rxe("rxe0"),
                        nic("mlx5_3", "0000:b0:00.0", 2),
                        nic("mlx5_4", "0000:20:00.0", 0)),
                gpus);
        List<RailPlan.GpuChoice> choices = RailPlan.gpusForNics(
                List.of("mlx5_0", "mlx5_1", "mlx5_2", "rxe0", "mlx5_3", "mlx5_4", "absent"), probe, gpus);
        assertThat(choices).extracting(RailPlan.GpuChoice::position).containsExactly(1, 0, 2, 3, 0, 1, 2);
        assertThat(choices.subList(0, 3))
                .allSatisfy(c -> assertThat(c.fallback()).isEmpty());
        assertThat(choices.get(3).fallback()).contains("the probe gives no NUMA node for rxe0 (a software device)");
        assertThat(choices.get(4).fallback()).contains("no GPU the profile provides is on mlx5_3's NUMA node 2");
        assertThat(choices.get(5).fallback())
                .as("node 0's GPUs both taken: shared, nearest first")
                .isEmpty();
        assertThat(choices.get(6).fallback()).contains("the probe does not list absent");
        assertThatThrownBy(() -> RailPlan.gpusForNics(List.of("mlx5_0"), probe, List.of()))
                .isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void busDistanceIsWithinOneDomainOnly() {
        assertThat(RailPlan.busDistance("0000:18:00.0", "0000:1b:00.0")).isEqualTo(3);
        assertThat(RailPlan.busDistance("0000:18:00.0", "0001:18:00.0")).isEqualTo(Long.MAX_VALUE);
        assertThat(RailPlan.busDistance("", "0000:18:00.0")).isEqualTo(Long.MAX_VALUE);
    }

    private static GpuDevice gpu(int index, String address, int node) {
        return new GpuDevice(index, "nvidia", "H100 SXM5 80GB", pci(address, node), Optional.empty());
    }

    private static PciFunction pci(String address, int node) {
        return new PciFunction(address, 0x10de, 0x2330, -1, -1, 0x030200, "nvidia", node, "", "");
    }

    private static RdmaDevice nic(String name, String address, int node) {
        return new RdmaDevice(
                name,
                "CA",
                "28.39.1002",
                "MT4129",
                "",
                "",
                Optional.of(pci(address, node)),
                "mlx5_core",
                List.of(),
                List.of(),
                false);
    }

    private static RdmaDevice rxe(String name) {
        return new RdmaDevice(name, "CA", "", "", "", "", Optional.empty(), "rdma_rxe", List.of(), List.of(), true);
    }

    private static ProbeReport probe(List<RdmaDevice> nics, List<GpuDevice> gpus) {
        return new ProbeReport(
                "/",
                "host",
                nics,
                List.of(),
                gpus,
                new CpuLayout("cpu", "0", 1, List.of()),
                HugePages.NONE,
                new StackVersions("6.1", Optional.empty(), Optional.empty(), Optional.empty(), Optional.empty(), "25"));
    }
}
