package dev.linkproof.transfer.probe;

import dev.linkproof.transfer.libfabric.FabricProvider;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * What {@link HardwareProbe} found on one host. Plain data: a profile matcher, a report writer or a
 * person can read it without touching the machine again. RDMA devices and network interfaces are in
 * name order, GPUs in {@link GpuDevice#index()} order.
 *
 * @param root     the directory that stood for {@code /} (not {@code /} only in tests)
 * @param fabrics  libfabric's providers and domains with reliable-datagram endpoints, their
 *                 capabilities and MR modes: this machine's only, a tree of files has none
 */
public record ProbeReport(
        String root,
        String hostname,
        List<RdmaDevice> rdmaDevices,
        List<NetInterface> netInterfaces,
        List<GpuDevice> gpus,
        CpuLayout cpu,
        HugePages hugePages,
        StackVersions stack,
        List<FabricProvider> fabrics) {
    public ProbeReport {
        rdmaDevices = List.copyOf(rdmaDevices);
        netInterfaces = List.copyOf(netInterfaces);
        gpus = List.copyOf(gpus);
        fabrics = List.copyOf(fabrics);
    }

    /** A report without libfabric's providers. */
    public ProbeReport(
            String root,
            String hostname,
            List<RdmaDevice> rdmaDevices,
            List<NetInterface> netInterfaces,
            List<GpuDevice> gpus,
            CpuLayout cpu,
            HugePages hugePages,
            StackVersions stack) {
        this(root, hostname, rdmaDevices, netInterfaces, gpus, cpu, hugePages, stack, List.of());
    }

    public Optional<RdmaDevice> rdmaDevice(String name) {
        return rdmaDevices.stream().filter(d -> d.name().equals(name)).findFirst();
    }

    public Optional<NetInterface> netInterface(String name) {
        return netInterfaces.stream().filter(n -> n.name().equals(name)).findFirst();
    }

    /** Flat facts for a report's environment section ({@code rdma.mlx5_0 = ConnectX-7 fw 28.39.1002 ...}). */
    public Map<String, String> environment() {
        Map<String, String> m = new LinkedHashMap<>();
        if (!hostname.isEmpty()) {
            m.put("host", hostname);
        }
        for (RdmaDevice d : rdmaDevices) {
            StringBuilder sb = new StringBuilder(d.model());
            if (!d.firmware().isEmpty()) {
                sb.append(" fw ").append(d.firmware());
            }
            sb.append(" driver ").append(d.driver().isEmpty() ? "none" : d.driver());
            for (RdmaPort p : d.ports()) {
                sb.append(" port ")
                        .append(p.number())
                        .append(' ')
                        .append(p.state())
                        .append(' ')
                        .append(p.rate());
            }
            m.put("rdma." + d.name(), sb.toString());
        }
        for (GpuDevice g : gpus) {
            m.put(
                    "gpu." + g.index(),
                    g.vendor() + " " + g.model() + " @" + g.pci().address()
                            + g.runtime().map(v -> " · " + v.runtime()).orElse(""));
        }
        m.put(
                "cpu",
                cpu.modelName().isEmpty() ? cpu.online() + " cpus" : cpu.modelName() + " · " + cpu.online() + " cpus");
        m.put("numa nodes", String.valueOf(cpu.nodes().size()));
        m.put(
                "hugepages",
                hugePages.free() + " free of " + hugePages.total() + " × " + hugePages.pageSizeKiB() + " KiB");
        for (FabricProvider f : fabrics) {
            m.put("libfabric." + f.provider() + "." + f.domain(), f.caps() + " · MR " + f.mrModes());
        }
        stack.asMap().forEach((k, v) -> m.put("stack." + k, v));
        return m;
    }
}
