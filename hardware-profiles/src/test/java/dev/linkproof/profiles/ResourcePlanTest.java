package dev.linkproof.profiles;

import static org.assertj.core.api.Assertions.assertThat;

import dev.linkproof.transfer.MemoryPlacement;
import dev.linkproof.transfer.TransferSpec;
import dev.linkproof.transfer.probe.GpuDevice;
import dev.linkproof.transfer.probe.RdmaDevice;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** Resources resolved against the probe, and the reasons a point cannot run. */
class ResourcePlanTest {
    static final BuiltinProfiles BUILTINS = BuiltinProfiles.standard();

    @Test
    void autoNicsAreTheMatchingActiveOnes() {
        ResourcePlan plan = ResourcePlan.of(BUILTINS.profile("cx6dx-100g"), FakeHosts.probe("cx6dx-host"));
        assertThat(plan.nics()).extracting(RdmaDevice::name).containsExactly("rocep81s0f0", "rocep81s0f1");
        assertThat(plan.gpus()).isEmpty();
        assertThat(plan.notes()).isEmpty();
        TransferSpec verbs = TransferSpec.builder().transport("verbs").build();
        assertThat(plan.unavailable(verbs)).isEmpty();
        assertThat(plan.unavailable(TransferSpec.builder()
                        .initiatorMemory(MemoryPlacement.parse("gpu"))
                        .build()))
                .hasValue("needs GPU memory (gpu), and profile 'cx6dx-100g' provides no GPU on this host");
        assertThat(plan.unavailable(TransferSpec.builder()
                        .targetMemory(MemoryPlacement.parse("hugepage"))
                        .build()))
                .hasValue("needs huge pages, and the host reserves none (HugePages_Total 0)");
    }

    /**
     * A NIC of the kind the rule is for, left out for its state, is unfit, with why; one of another
     * kind (the cx6dx host's ConnectX-6 Lx beside its Dx) is not; a profile with no kind (loopback)
     * finds no NIC unfit.
     */
    @Test
    void aNicOfTheRulesKindLeftOutForItsStateIsUnfitWithWhy(@org.junit.jupiter.api.io.TempDir java.nio.file.Path dir)
            throws Exception {
        java.nio.file.Path down = FakeHosts.copy("cx7-host", dir.resolve("cx7"));
        java.nio.file.Files.writeString(down.resolve("sys/class/infiniband/mlx5_1/ports/1/state"), "1: DOWN\n");
        var probe = new dev.linkproof.transfer.probe.HardwareProbe(down).probe();
        ResourcePlan cx7 = ResourcePlan.of(BUILTINS.profile("cx7-400g"), probe);
        assertThat(cx7.nics()).extracting(RdmaDevice::name).containsExactly("mlx5_0");
        assertThat(cx7.unfitNics()).containsExactly(Map.entry("mlx5_1", "no ACTIVE port (port 1 DOWN)"));
        assertThat(cx7.unfitNic(TransferSpec.builder()
                        .transport("verbs")
                        .settings(Map.of("verbs.device", "mlx5_1"))
                        .build()))
                .hasValue("RDMA device mlx5_1 is of the kind profile 'cx7-400g' is for, and not fit for it: no ACTIVE"
                        + " port (port 1 DOWN)");
        assertThat(cx7.unfitNic(TransferSpec.builder()
                        .transport("tcp")
                        .settings(Map.of("verbs.device", "mlx5_1"))
                        .build()))
                .as("not an RDMA transport")
                .isEmpty();
        assertThat(ResourcePlan.of(BUILTINS.profile("loopback"), probe).unfitNics())
                .isEmpty();
        ResourcePlan cx6dx = ResourcePlan.of(BUILTINS.profile("cx6dx-100g"), FakeHosts.probe("cx6dx-host"));
        assertThat(cx6dx.unfitNics()).as("the ConnectX-6 Lx is not a Dx").isEmpty();
    }

    @Test
    void autoNicsAreNumaLocalToTheGpus() {
        ResourcePlan plan = ResourcePlan.of(BUILTINS.profile("mi300x-thor2-gpu"), FakeHosts.probe("mi300x-thor2-host"));
        assertThat(plan.gpus()).extracting(GpuDevice::model).containsExactly("MI300X", "MI300X");
        assertThat(plan.nics()).extracting(RdmaDevice::name).containsExactly("bnxt_re0");
        assertThat(plan.unavailable(TransferSpec.builder()
                        .initiatorMemory(MemoryPlacement.parse("gpu:1"))
                        .targetMemory(MemoryPlacement.parse("gpu"))
                        .build()))
                .isEmpty();
        assertThat(plan.unavailable(TransferSpec.builder()
                        .initiatorMemory(MemoryPlacement.parse("gpu:2"))
                        .build()))
                .hasValue("needs gpu:2, and profile 'mi300x-thor2-gpu' provides 2 GPU(s)");
    }

    /** A point's gpu:k runs on the k-th GPU the plan provides: resources.gpus [1] puts gpu on GPU 1. */
    @Test
    void aPointsGpuIsTheKthGpuThePlanProvides() {
        HardwareProfile p = BUILTINS.profile("h100-cx7-gpu");
        TransferSpec same = TransferSpec.builder()
                .transport("gpu-ipc")
                .initiatorMemory(MemoryPlacement.parse("gpu"))
                .targetMemory(MemoryPlacement.parse("gpu"))
                .build();
        TransferSpec peer = TransferSpec.builder()
                .transport("gpu-ipc")
                .initiatorMemory(MemoryPlacement.parse("gpu"))
                .targetMemory(MemoryPlacement.parse("gpu:1"))
                .build();
        ResourcePlan auto = ResourcePlan.of(p, FakeHosts.probe("h100-cx7-host"));
        assertThat(auto.placeGpus(peer))
                .as("every GPU provided: the same ordinals")
                .isSameAs(peer);

        ResourcePlan second = ResourcePlan.of(withGpus(p, java.util.List.of(1)), FakeHosts.probe("h100-cx7-host"));
        TransferSpec placed = second.placeGpus(same);
        assertThat(placed.initiatorMemory() + "->" + placed.targetMemory()).isEqualTo("gpu:1->gpu:1");
        assertThat(placed.pointId()).isEqualTo(same.pointId());
        assertThat(second.placeGpus(peer))
                .as("beyond the plan: as written, both sides")
                .isSameAs(peer);
        assertThat(second.unavailable(peer)).hasValue("needs gpu:1, and profile 'h100-cx7-gpu' provides 1 GPU(s)");
        TransferSpec host = TransferSpec.builder().build();
        assertThat(second.placeGpus(host)).as("host memory").isSameAs(host);

        ResourcePlan swapped = ResourcePlan.of(withGpus(p, java.util.List.of(1, 0)), FakeHosts.probe("h100-cx7-host"));
        TransferSpec reversed = swapped.placeGpus(peer);
        assertThat(reversed.initiatorMemory() + "->" + reversed.targetMemory()).isEqualTo("gpu:1->gpu");
    }

    private static HardwareProfile withGpus(HardwareProfile p, java.util.List<Integer> gpus) {
        return new HardwareProfile(
                p.id(),
                p.vendor(),
                p.description(),
                p.sources(),
                p.match(),
                new ResourceSpec(java.util.List.of(), gpus, false, java.util.List.of(), 0),
                p.transport(),
                p.defaults(),
                p.baseline(),
                p.fleet(),
                p.criteria(),
                p.layers());
    }

    @Test
    void pinnedCoresPickTheirNodesNicAndNamedDevicesMustExist() {
        HardwareProfile p = new ProfileLoader(Map.of("linkproof.profile", "cx7-400g"))
                .load(() -> null)
                .profile();
        HardwareProfile pinned = new HardwareProfile(
                p.id(),
                p.vendor(),
                p.description(),
                p.sources(),
                p.match(),
                new ResourceSpec(java.util.List.of(), java.util.List.of(), false, java.util.List.of(40, 41), 0),
                p.transport(),
                p.defaults(),
                p.baseline(),
                p.fleet(),
                p.criteria(),
                p.layers());
        ResourcePlan plan = ResourcePlan.of(pinned, FakeHosts.probe("cx7-host"));
        assertThat(plan.nics()).extracting(RdmaDevice::name).containsExactly("mlx5_1");
        assertThat(plan.cpuCores()).containsExactly(40, 41);

        HardwareProfile named = new HardwareProfile(
                p.id(),
                p.vendor(),
                p.description(),
                p.sources(),
                p.match(),
                new ResourceSpec(
                        java.util.List.of("mlx5_0", "mlx5_9"), java.util.List.of(), false, java.util.List.of(), 512),
                p.transport(),
                p.defaults(),
                p.baseline(),
                p.fleet(),
                p.criteria(),
                p.layers());
        ResourcePlan plan2 = ResourcePlan.of(named, FakeHosts.probe("cx7-host"));
        assertThat(plan2.nics()).extracting(RdmaDevice::name).containsExactly("mlx5_0");
        assertThat(plan2.notes()).containsExactly("RDMA device mlx5_9 named in resources.nics is absent");
        // The cx7 host has 2048 free 2 MiB pages: enough for the 512 this plan asks.
        assertThat(plan2.unavailable(TransferSpec.builder()
                        .size(64 << 20)
                        .initiatorMemory(MemoryPlacement.parse("hugepage"))
                        .build()))
                .isEmpty();
        HardwareProfile greedy = new HardwareProfile(
                p.id(),
                p.vendor(),
                p.description(),
                p.sources(),
                p.match(),
                new ResourceSpec(java.util.List.of(), java.util.List.of(), false, java.util.List.of(), 4096),
                p.transport(),
                p.defaults(),
                p.baseline(),
                p.fleet(),
                p.criteria(),
                p.layers());
        assertThat(ResourcePlan.of(greedy, FakeHosts.probe("cx7-host"))
                        .unavailable(TransferSpec.builder()
                                .initiatorMemory(MemoryPlacement.parse("hugepage"))
                                .build()))
                .hasValue("needs 4096 free huge pages of 2048 KiB, and the host has 2048 free of 2048");
    }

    @Test
    void thePlansNicBecomesTheVerbsDeviceOfVerbsPointsOnly() {
        TransferSpec verbs = TransferSpec.builder().transport("verbs").build();
        ResourcePlan rxe = ResourcePlan.of(BUILTINS.profile("softroce"), FakeHosts.probe("rxe-host"));
        assertThat(rxe.settingsFor(verbs)).containsExactly(Map.entry("verbs.device", "rxe0"));
        assertThat(rxe.settingsFor(TransferSpec.builder().transport("tcp").build()))
                .isEmpty();
        assertThat(rxe.settingsFor(TransferSpec.builder().transport("ucx").build()))
                .isEmpty();

        // auto on the MI300X host: the Thor2 NIC on the GPUs' NUMA node.
        ResourcePlan gpu = ResourcePlan.of(BUILTINS.profile("mi300x-thor2-gpu"), FakeHosts.probe("mi300x-thor2-host"));
        assertThat(gpu.settingsFor(verbs)).containsExactly(Map.entry("verbs.device", "bnxt_re0"));

        // Cores pinned on node 1 of the CX7 host: its NIC there, not the first by name.
        HardwareProfile p = BUILTINS.profile("cx7-400g");
        HardwareProfile pinned = new HardwareProfile(
                p.id(),
                p.vendor(),
                p.description(),
                p.sources(),
                p.match(),
                new ResourceSpec(java.util.List.of(), java.util.List.of(), false, java.util.List.of(40, 41), 0),
                p.transport(),
                p.defaults(),
                p.baseline(),
                p.fleet(),
                p.criteria(),
                p.layers());
        assertThat(ResourcePlan.of(pinned, FakeHosts.probe("cx7-host")).settingsFor(verbs))
                .containsExactly(Map.entry("verbs.device", "mlx5_1"));

        ResourcePlan none = ResourcePlan.of(
                BUILTINS.profile("loopback"),
                new dev.linkproof.transfer.probe.HardwareProbe(java.nio.file.Path.of("/nonexistent")).probe());
        assertThat(none.settingsFor(verbs)).isEmpty();
    }

    @Test
    void verbsWithoutAnRdmaDeviceIsUnavailable() {
        ResourcePlan plan = ResourcePlan.of(
                BUILTINS.profile("loopback"),
                new dev.linkproof.transfer.probe.HardwareProbe(java.nio.file.Path.of("/nonexistent")).probe());
        assertThat(plan.unavailable(TransferSpec.builder().transport("verbs").build()))
                .hasValue("transport verbs needs an RDMA device, and profile 'loopback' resolves none on this host");
        assertThat(plan.unavailable(TransferSpec.builder().build())).isEmpty();
        // The two kinds the engine treats apart (a required transport fails on the first, never on the second).
        assertThat(plan.noDevice(TransferSpec.builder().transport("verbs").build()))
                .isPresent();
        assertThat(plan.notProvided(TransferSpec.builder().transport("verbs").build()))
                .isEmpty();
        TransferSpec gpu = TransferSpec.builder()
                .transport("verbs")
                .initiatorMemory(MemoryPlacement.parse("gpu"))
                .build();
        assertThat(plan.noDevice(gpu)).isPresent();
        assertThat(plan.notProvided(gpu))
                .hasValue("needs GPU memory (gpu), and profile 'loopback' provides no GPU on this host");
    }
}
