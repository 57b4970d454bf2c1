package dev.linkproof.transfer.probe;

import dev.linkproof.transfer.libfabric.FabricProvider;
import java.util.Locale;
import java.util.Map;

/**
 * Prints a {@link ProbeReport} for a person: RDMA devices laid out like {@code ibv_devinfo}, then
 * tables of network interfaces and GPUs, the CPU/NUMA layout, huge pages and software versions.
 */
public final class ProbeFormatter {
    private ProbeFormatter() {}

    public static String format(ProbeReport r) {
        StringBuilder sb = new StringBuilder();
        sb.append("RDMA devices (/sys/class/infiniband)\n");
        if (r.rdmaDevices().isEmpty()) {
            sb.append("  none\n");
        }
        for (RdmaDevice d : r.rdmaDevices()) {
            sb.append("  hca_id: ").append(d.name()).append("  ").append(d.model());
            d.pci().ifPresent(p -> sb.append(" (").append(p.ids()).append(") @").append(p.address()));
            sb.append('\n');
            field(sb, "node_type", d.nodeType());
            field(sb, "fw_ver", d.firmware());
            field(sb, "hca_type", d.hcaType());
            field(sb, "board_id", d.boardId());
            field(sb, "node_guid", d.nodeGuid());
            field(sb, "driver", d.driver());
            field(sb, "numa_node", d.pci().isPresent() ? String.valueOf(d.numaNode()) : "");
            field(sb, "netdev", String.join(", ", d.netdevs()));
            for (RdmaPort p : d.ports()) {
                sb.append(String.format(
                        Locale.ROOT,
                        "      %-12s%s (%s), %s, %s%n",
                        "port " + p.number() + ":",
                        p.state(),
                        p.physState().isEmpty() ? "?" : p.physState(),
                        p.rate().isEmpty() ? "rate unknown" : p.rate(),
                        p.linkLayer().isEmpty() ? "?" : p.linkLayer()));
                for (Gid g : p.gids()) {
                    sb.append(String.format(
                            Locale.ROOT,
                            "          GID[%3d]: %s%s%s%n",
                            g.index(),
                            g.gid(),
                            g.type().isEmpty() ? "" : ", " + g.type(),
                            g.netdev().isEmpty() ? "" : ", " + g.netdev()));
                }
            }
        }

        sb.append("\nNetwork interfaces (/sys/class/net)\n");
        TextTable net = new TextTable("NAME", "DRIVER", "PCI", "IDS", "MODEL", "SPEED", "NUMA", "MTU", "STATE");
        for (NetInterface n : r.netInterfaces()) {
            net.row(
                    n.name(),
                    dash(n.driver()),
                    n.pci().map(PciFunction::address).orElse("-"),
                    n.pci().map(PciFunction::ids).orElse("-"),
                    n.pci().map(p -> dash(p.name())).orElse("-"),
                    n.speedMbps() < 0
                            ? "-"
                            : n.speedMbps() % 1000 == 0 ? n.speedMbps() / 1000 + " Gb/s" : n.speedMbps() + " Mb/s",
                    n.pci().isPresent() ? String.valueOf(n.numaNode()) : "-",
                    n.mtu() < 0 ? "-" : String.valueOf(n.mtu()),
                    n.operState());
        }
        sb.append(net.size() == 0 ? "  none\n" : net.render("  "));

        sb.append("\nGPUs (/sys/class/drm, /sys/bus/pci/devices")
                .append(r.gpus().stream()
                        .flatMap(g -> g.runtime().stream())
                        .findFirst()
                        .map(v -> "; " + v.runtime())
                        .orElse(""))
                .append(")\n");
        TextTable gpu =
                new TextTable("#", "VENDOR", "MODEL", "PCI", "IDS", "DRIVER", "NUMA", "DRM", "MEMORY", "DMA-BUF");
        for (GpuDevice g : r.gpus()) {
            gpu.row(
                    g.index(),
                    g.vendor(),
                    g.model(),
                    g.pci().address(),
                    g.pci().ids(),
                    dash(g.driver()),
                    g.numaNode(),
                    g.drmCard().orElse("-"),
                    g.runtime()
                            .map(v -> String.format(Locale.ROOT, "%.0f GiB", v.memoryBytes() / (double) (1L << 30)))
                            .orElse("-"),
                    g.runtime().map(v -> v.dmabuf() ? "yes" : "no").orElse("-"));
        }
        sb.append(gpu.size() == 0 ? "  none\n" : gpu.render("  "));

        CpuLayout c = r.cpu();
        sb.append("\nCPU / NUMA\n");
        sb.append("  ")
                .append(c.modelName().isEmpty() ? "cpu" : c.modelName())
                .append(": ")
                .append(c.online())
                .append(" online (")
                .append(c.onlineList())
                .append(")\n");
        for (NumaNode n : c.nodes()) {
            sb.append("  node ")
                    .append(n.id())
                    .append(": cpus ")
                    .append(n.cpuList().isEmpty() ? "-" : n.cpuList());
            if (n.memTotalKiB() >= 0) {
                sb.append(String.format(Locale.ROOT, ", %.1f GiB", n.memTotalKiB() / (1024.0 * 1024.0)));
            }
            sb.append('\n');
        }
        HugePages h = r.hugePages();
        sb.append("\nHuge pages: ")
                .append(h.free())
                .append(" free of ")
                .append(h.total())
                .append(h.pageSizeKiB() > 0 ? " × " + h.pageSizeKiB() + " KiB" : "")
                .append('\n');

        sb.append("\nlibfabric providers (fi_getinfo, reliable-datagram endpoints)\n");
        TextTable fabric = new TextTable("PROVIDER", "DOMAIN", "CAPS", "MR MODES");
        for (FabricProvider f : r.fabrics()) {
            fabric.row(f.provider(), f.domain(), f.caps(), f.mrModes());
        }
        sb.append(fabric.size() == 0 ? "  none\n" : fabric.render("  "));

        sb.append("\nStack\n");
        TextTable stack = new TextTable("COMPONENT", "VERSION");
        for (Map.Entry<String, String> e : r.stack().asMap().entrySet()) {
            stack.row(e.getKey(), e.getValue());
        }
        sb.append(stack.render("  "));
        return sb.toString();
    }

    private static void field(StringBuilder sb, String name, String value) {
        if (!value.isEmpty()) {
            sb.append(String.format(Locale.ROOT, "      %-12s%s%n", name + ":", value));
        }
    }

    private static String dash(String s) {
        return s == null || s.isEmpty() ? "-" : s;
    }
}
