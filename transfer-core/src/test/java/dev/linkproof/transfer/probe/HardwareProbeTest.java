package dev.linkproof.transfer.probe;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.linkproof.transfer.gpu.GpuDeviceInfo;
import dev.linkproof.transfer.gpu.GpuRuntime;
import dev.linkproof.transfer.gpu.GpuStream;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The probe against a tree laid out as the kernel lays out sysfs: class entries are symbolic links
 * into {@code /sys/devices}, {@code device} and {@code driver} are links, attribute files hold what
 * the kernel prints. (The hardware-profiles tests use resource trees without links, which exercises
 * the {@code uevent} fallbacks.)
 */
class HardwareProbeTest {
    @TempDir
    static Path root;

    static ProbeReport report;

    @BeforeAll
    static void buildTree() throws IOException {
        Path pci = Path.of("sys/devices/pci0000:80/0000:80:01.0/0000:81:00.0");
        dir("sys/bus/pci/drivers/mlx5_core");
        dir("sys/bus/pci/drivers/nvidia");
        file(pci.resolve("vendor"), "0x15b3");
        file(pci.resolve("device"), "0x1021");
        file(pci.resolve("subsystem_vendor"), "0x15b3");
        file(pci.resolve("subsystem_device"), "0x0041");
        file(pci.resolve("class"), "0x020000");
        file(pci.resolve("numa_node"), "1");
        file(pci.resolve("local_cpulist"), "48-95,144-191");
        file(pci.resolve("uevent"), "DRIVER=mlx5_core\nPCI_CLASS=20000\nPCI_ID=15B3:1021\nPCI_SLOT_NAME=0000:81:00.0");
        link(pci.resolve("driver"), "../../../../bus/pci/drivers/mlx5_core");
        link(pci.resolve("subsystem"), "../../../../bus/pci");

        Path ib = pci.resolve("infiniband/mlx5_0");
        file(ib.resolve("node_type"), "1: CA");
        file(ib.resolve("fw_ver"), "28.39.1002");
        file(ib.resolve("hca_type"), "MT4129");
        file(ib.resolve("board_id"), "MT_0000000838");
        file(ib.resolve("node_guid"), "b83f:d203:00a1:b2c0");
        link(ib.resolve("device"), "../../../0000:81:00.0");
        Path port = ib.resolve("ports/1");
        file(port.resolve("state"), "4: ACTIVE");
        file(port.resolve("phys_state"), "5: LinkUp");
        file(port.resolve("rate"), "400 Gb/sec (4X NDR)");
        file(port.resolve("link_layer"), "Ethernet");
        file(port.resolve("gids/0"), "fe80:0000:0000:0000:ba3f:d2ff:fea1:b2c0");
        file(port.resolve("gids/1"), "fe80:0000:0000:0000:ba3f:d2ff:fea1:b2c0");
        file(port.resolve("gids/2"), "0000:0000:0000:0000:0000:ffff:c0a8:0101");
        file(port.resolve("gids/3"), "0000:0000:0000:0000:0000:ffff:c0a8:0101");
        file(port.resolve("gids/4"), "0000:0000:0000:0000:0000:0000:0000:0000");
        file(port.resolve("gid_attrs/types/0"), "IB/RoCE v1");
        file(port.resolve("gid_attrs/types/1"), "RoCE v2");
        file(port.resolve("gid_attrs/types/2"), "IB/RoCE v1");
        file(port.resolve("gid_attrs/types/3"), "RoCE v2");
        for (int i = 0; i < 4; i++) {
            file(port.resolve("gid_attrs/ndevs/" + i), "ens1f0np0");
        }
        link(
                Path.of("sys/class/infiniband/mlx5_0"),
                "../../devices/pci0000:80/0000:80:01.0/0000:81:00.0/infiniband/mlx5_0");

        Path net = pci.resolve("net/ens1f0np0");
        file(net.resolve("speed"), "400000");
        file(net.resolve("operstate"), "up");
        file(net.resolve("mtu"), "4200");
        file(net.resolve("address"), "b8:3f:d2:a1:b2:c0");
        link(net.resolve("device"), "../../../0000:81:00.0");
        link(Path.of("sys/class/net/ens1f0np0"), "../../devices/pci0000:80/0000:80:01.0/0000:81:00.0/net/ens1f0np0");
        // A virtual interface: no device, speed unreadable.
        file(Path.of("sys/devices/virtual/net/lo/operstate"), "unknown");
        file(Path.of("sys/devices/virtual/net/lo/mtu"), "65536");
        link(Path.of("sys/class/net/lo"), "../../devices/virtual/net/lo");

        // Soft-RoCE on top of the same interface.
        Path rxe = Path.of("sys/devices/virtual/infiniband/rxe0");
        file(rxe.resolve("node_type"), "1: CA");
        file(rxe.resolve("parent"), "ens1f0np0");
        file(rxe.resolve("ports/1/state"), "4: ACTIVE");
        file(rxe.resolve("ports/1/rate"), "100 Gb/sec (4X EDR)");
        file(rxe.resolve("ports/1/link_layer"), "Ethernet");
        link(Path.of("sys/class/infiniband/rxe0"), "../../devices/virtual/infiniband/rxe0");

        // An H200 with no DRM node, and the BMC's VGA, which is no GPU.
        Path gpu = Path.of("sys/devices/pci0000:10/0000:18:00.0");
        file(gpu.resolve("vendor"), "0x10de");
        file(gpu.resolve("device"), "0x2335");
        file(gpu.resolve("class"), "0x030200");
        file(gpu.resolve("numa_node"), "0");
        link(gpu.resolve("driver"), "../../../bus/pci/drivers/nvidia");
        link(Path.of("sys/bus/pci/devices/0000:18:00.0"), "../../../devices/pci0000:10/0000:18:00.0");
        Path vga = Path.of("sys/devices/pci0000:00/0000:02:00.0");
        file(vga.resolve("vendor"), "0x1a03");
        file(vga.resolve("device"), "0x2000");
        file(vga.resolve("class"), "0x030000");
        link(Path.of("sys/bus/pci/devices/0000:02:00.0"), "../../../devices/pci0000:00/0000:02:00.0");
        link(Path.of("sys/bus/pci/devices/0000:81:00.0"), "../../../devices/pci0000:80/0000:80:01.0/0000:81:00.0");
        file(Path.of("sys/module/nvidia/version"), "550.54.15");

        file(Path.of("sys/devices/system/cpu/online"), "0-191");
        file(Path.of("sys/devices/system/node/node0/cpulist"), "0-47,96-143");
        file(
                Path.of("sys/devices/system/node/node0/meminfo"),
                "Node 0 MemTotal:       792237000 kB\nNode 0 MemFree: 1 kB");
        file(Path.of("sys/devices/system/node/node1/cpulist"), "48-95,144-191");
        file(Path.of("proc/cpuinfo"), "processor\t: 0\nmodel name\t: AMD EPYC 9654 96-Core Processor\n");
        file(
                Path.of("proc/meminfo"),
                "MemTotal: 1584474000 kB\nHugePages_Total:    1024\nHugePages_Free:      1000\n"
                        + "Hugepagesize:       2048 kB\n");
        file(Path.of("proc/sys/kernel/osrelease"), "6.8.0-51-generic");
        file(Path.of("proc/sys/kernel/hostname"), "node1");
        file(Path.of("var/lib/dpkg/status"), """
            Package: libibverbs1
            Status: install ok installed
            Version: 50.0-2ubuntu0.2

            Package: rdma-core
            Status: deinstall ok config-files
            Version: 48.0-1

            Package: libucx0
            Status: install ok installed
            Version: 1.16.0+ds-5ubuntu1
            """);
        file(Path.of("usr/lib/x86_64-linux-gnu/libibverbs.so.1.14.50.0"), "");

        report = new HardwareProbe(root).probe();
    }

    @Test
    void readsAnRdmaDeviceLikeIbvDevinfo() {
        RdmaDevice d = report.rdmaDevice("mlx5_0").orElseThrow();
        assertThat(d.software()).isFalse();
        assertThat(d.model()).isEqualTo("ConnectX-7");
        assertThat(d.nodeType()).isEqualTo("CA");
        assertThat(d.firmware()).isEqualTo("28.39.1002");
        assertThat(d.hcaType()).isEqualTo("MT4129");
        assertThat(d.driver()).isEqualTo("mlx5_core");
        assertThat(d.numaNode()).isEqualTo(1);
        assertThat(d.netdevs()).containsExactly("ens1f0np0");
        PciFunction pci = d.pci().orElseThrow();
        assertThat(pci.address()).isEqualTo("0000:81:00.0");
        assertThat(pci.ids()).isEqualTo("15b3:1021");
        assertThat(pci.localCpus()).isEqualTo("48-95,144-191");
        RdmaPort p = d.ports().getFirst();
        assertThat(p.active()).isTrue();
        assertThat(p.physState()).isEqualTo("LinkUp");
        assertThat(p.rateGbps()).isEqualTo(400.0);
        assertThat(p.linkLayer()).isEqualTo("Ethernet");
        assertThat(p.gids())
                .hasSize(4)
                .extracting(Gid::type)
                .containsExactly("IB/RoCE v1", "RoCE v2", "IB/RoCE v1", "RoCE v2");
        assertThat(p.gids().get(3))
                .isEqualTo(new Gid(3, "0000:0000:0000:0000:0000:ffff:c0a8:0101", "RoCE v2", "ens1f0np0"));
        assertThat(d.activeRateGbps()).hasValue(400.0);
    }

    @Test
    void softRoceHasNoPciFunction() {
        RdmaDevice rxe = report.rdmaDevice("rxe0").orElseThrow();
        assertThat(rxe.software()).isTrue();
        assertThat(rxe.driver()).isEqualTo("rdma_rxe");
        assertThat(rxe.netdevs()).containsExactly("ens1f0np0");
        assertThat(rxe.model()).contains("Soft-RoCE");
        assertThat(rxe.numaNode()).isEqualTo(-1);
    }

    @Test
    void readsNetworkInterfaces() {
        NetInterface n = report.netInterface("ens1f0np0").orElseThrow();
        assertThat(n.driver()).isEqualTo("mlx5_core");
        assertThat(n.speedMbps()).isEqualTo(400_000);
        assertThat(n.numaNode()).isEqualTo(1);
        assertThat(n.mtu()).isEqualTo(4200);
        NetInterface lo = report.netInterface("lo").orElseThrow();
        assertThat(lo.pci()).isEmpty();
        assertThat(lo.speedMbps()).isEqualTo(-1);
        assertThat(lo.driver()).isEmpty();
    }

    @Test
    void findsGpusOnThePciBusAndIgnoresTheBmcDisplay() {
        assertThat(report.gpus()).hasSize(1);
        GpuDevice g = report.gpus().getFirst();
        assertThat(g.vendor()).isEqualTo("nvidia");
        assertThat(g.model()).isEqualTo("H200 SXM 141GB");
        assertThat(g.driver()).isEqualTo("nvidia");
        assertThat(g.drmCard()).isEmpty();
        assertThat(g.pci().address()).isEqualTo("0000:18:00.0");
    }

    @Test
    void aLoadedGpuRuntimeGivesTheListItsOrdinalsAndFacts() {
        GpuRuntime rt = new StubRuntime(List.of(
                new GpuDeviceInfo(0, "NVIDIA H200", "0000:99:00.0", 141L << 30, false),
                new GpuDeviceInfo(1, "NVIDIA H200", "0000:18:00.0", 141L << 30, true)));
        ProbeReport r = new HardwareProbe(root, () -> Optional.of(rt)).probe();
        assertThat(r.gpus()).hasSize(2);
        GpuDevice onBus = r.gpus().get(1);
        assertThat(onBus.index()).isEqualTo(1);
        assertThat(onBus.model()).as("sysfs's model, which profiles match").isEqualTo("H200 SXM 141GB");
        assertThat(onBus.numaNode()).isZero();
        assertThat(onBus.runtime())
                .hasValue(new GpuDevice.RuntimeView("stub runtime 1.0", "NVIDIA H200", 141L << 30, true));
        GpuDevice runtimeOnly = r.gpus().getFirst();
        assertThat(runtimeOnly.model()).isEqualTo("NVIDIA H200");
        assertThat(runtimeOnly.pci().address()).isEqualTo("0000:99:00.0");
        assertThat(runtimeOnly.driver()).isEqualTo("stub");
        assertThat(ProbeFormatter.format(r))
                .contains("GPUs (/sys/class/drm, /sys/bus/pci/devices; stub runtime 1.0)")
                .containsPattern("1 +nvidia +H200 SXM 141GB +0000:18:00.0 .* 141 GiB +yes");
        assertThat(r.environment()).containsEntry("gpu.1", "nvidia H200 SXM 141GB @0000:18:00.0 · stub runtime 1.0");
        assertThat(new HardwareProbe(root).probe().gpus())
                .as("a tree of files is probed without a runtime")
                .hasSize(1);
    }

    /** A runtime that lists devices and does nothing else: the probe only asks for the list. */
    private record StubRuntime(List<GpuDeviceInfo> devices) implements GpuRuntime {
        public String api() {
            return "stub";
        }

        public String vendor() {
            return "nvidia";
        }

        public String describe() {
            return "stub runtime 1.0";
        }

        public long allocate(int device, long bytes) {
            throw new UnsupportedOperationException();
        }

        public void free(int device, long pointer) {}

        public GpuStream openStream(int device, int markers) {
            throw new UnsupportedOperationException();
        }

        public byte[] exportIpc(int device, long pointer) {
            throw new UnsupportedOperationException();
        }

        public long openIpc(int device, byte[] handle) {
            throw new UnsupportedOperationException();
        }

        public void closeIpc(int device, long pointer) {}

        public int exportDmabuf(int device, long pointer, long bytes) {
            throw new UnsupportedOperationException();
        }

        public int ucxMemoryType() {
            return 1;
        }
    }

    @Test
    void readsCpuNumaHugePagesAndStack() {
        assertThat(report.hostname()).isEqualTo("node1");
        assertThat(report.cpu().online()).isEqualTo(192);
        assertThat(report.cpu().modelName()).isEqualTo("AMD EPYC 9654 96-Core Processor");
        assertThat(report.cpu().nodes()).extracting(NumaNode::id).containsExactly(0, 1);
        assertThat(report.cpu().nodes().getFirst().cpus()).hasSize(96);
        assertThat(report.cpu().nodes().getFirst().memTotalKiB()).isEqualTo(792_237_000L);
        assertThat(report.hugePages()).isEqualTo(new HugePages(1024, 1000, 2048));
        StackVersions s = report.stack();
        assertThat(s.kernel()).isEqualTo("6.8.0-51-generic");
        assertThat(s.rdmaCore()).hasValue("50.0-2ubuntu0.2 (libibverbs1)");
        assertThat(s.libibverbs()).hasValue("1.14.50.0");
        assertThat(s.ucx()).hasValue("1.16.0+ds-5ubuntu1 (libucx0)");
        assertThat(s.gpuDriver()).hasValue("nvidia 550.54.15");
        assertThat(s.jdk()).startsWith(String.valueOf(Runtime.version().feature()));
    }

    @Test
    void formatsLikeIbvDevinfo() {
        String text = ProbeFormatter.format(report);
        assertThat(text)
                .contains("hca_id: mlx5_0  ConnectX-7 (15b3:1021) @0000:81:00.0")
                .contains("fw_ver:     28.39.1002")
                .contains("port 1:     ACTIVE (LinkUp), 400 Gb/sec (4X NDR), Ethernet")
                .contains("GID[  3]: 0000:0000:0000:0000:0000:ffff:c0a8:0101, RoCE v2, ens1f0np0")
                .containsPattern("ens1f0np0 +mlx5_core +0000:81:00.0 +15b3:1021 +ConnectX-7 +400 Gb/s +1 +4200 +up")
                .containsPattern("0 +nvidia +H200 SXM 141GB +0000:18:00.0");
        assertThat(report.environment())
                .containsEntry("gpu.0", "nvidia H200 SXM 141GB @0000:18:00.0")
                .containsKey("rdma.mlx5_0");
    }

    @Test
    void anEmptyRootIsAnEmptyHostNotAnError(@TempDir Path empty) {
        ProbeReport r = new HardwareProbe(empty).probe();
        assertThat(r.rdmaDevices()).isEmpty();
        assertThat(r.gpus()).isEmpty();
        assertThat(r.hugePages()).isEqualTo(HugePages.NONE);
        assertThat(r.cpu().online()).isPositive();
        assertThat(r.stack().kernel()).isEqualTo("unknown");
    }

    @Test
    void probesThisMachine() {
        ProbeReport r = HardwareProbe.system().probe();
        assertThat(r.netInterfaces()).extracting(NetInterface::name).contains("lo");
        assertThat(r.cpu().online()).isPositive();
        assertThat(ProbeFormatter.format(r)).contains("RDMA devices", "Stack");
    }

    /** libfabric's providers are asked of the library on this machine: shm and tcp;ofi_rxm with their caps and MR modes. */
    @Test
    void probesThisMachinesLibfabricProviders() {
        org.junit.jupiter.api.Assumptions.assumeTrue(
                dev.linkproof.transfer.libfabric.Libfabric.unavailableReason() == null, "libfabric absent");
        ProbeReport r = HardwareProbe.system().probe();
        assertThat(r.fabrics())
                .extracting(dev.linkproof.transfer.libfabric.FabricProvider::provider)
                .contains("shm", "tcp;ofi_rxm");
        var shm = r.fabrics().stream()
                .filter(f -> f.provider().equals("shm"))
                .findFirst()
                .orElseThrow();
        assertThat(shm.caps()).contains("FI_RMA", "FI_ATOMIC");
        assertThat(shm.domain()).isEqualTo("shm");
        assertThat(ProbeFormatter.format(r))
                .contains("libfabric providers")
                .containsPattern("tcp;ofi_rxm +lo +FI_MSG \\| FI_RMA");
        assertThat(r.stack().asMap().get("libfabric")).startsWith("1.");
        assertThat(r.environment()).containsKey("libfabric.shm.shm").containsKey("stack.libfabric");
        // A tree of files is no machine to ask.
        assertThat(new HardwareProbe(root).probe().fabrics()).isEmpty();
    }

    @Test
    void cpuListsParseStrictly() {
        assertThat(CpuList.parse("0-3,8,10-11")).containsExactly(0, 1, 2, 3, 8, 10, 11);
        assertThatThrownBy(() -> CpuList.parse("3-1")).hasMessageContaining("descending");
        assertThatThrownBy(() -> CpuList.parse("0-")).hasMessageContaining("bad cpu list");
    }

    @Test
    void memoryCopyBaselineIsPositive() {
        MemoryCopyBaseline b = MemoryCopyBaseline.measure(4L << 20, 3);
        assertThat(b.bestGBps()).isPositive().isGreaterThanOrEqualTo(b.medianGBps());
        assertThat(b.describe()).contains("best of 3 × 4 MiB");
    }

    private static void dir(String rel) throws IOException {
        Files.createDirectories(root.resolve(rel));
    }

    private static void file(Path rel, String content) throws IOException {
        Path p = root.resolve(rel);
        Files.createDirectories(p.getParent());
        Files.writeString(p, content.isEmpty() ? "" : content + "\n");
    }

    private static void link(Path rel, String target) throws IOException {
        Path p = root.resolve(rel);
        Files.createDirectories(p.getParent());
        Files.createSymbolicLink(p, Path.of(target));
    }
}
