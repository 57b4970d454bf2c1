package dev.linkproof.transfer.probe;

import dev.linkproof.transfer.gpu.GpuRuntime;
import dev.linkproof.transfer.gpu.select.GpuRuntimes;
import dev.linkproof.transfer.libfabric.FabricProvider;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.TreeMap;
import java.util.function.Supplier;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Reads what a host has from sysfs and procfs, as {@code ibv_devinfo}, {@code lspci} and
 * {@code numactl -H} would, without running them. Everything is read below a root that stands for
 * {@code /}, so a test can hand it a fake tree. The one native library it may use is a GPU runtime,
 * whose enumeration {@link GpuInventory} joins to sysfs's; a fake tree is probed without one unless
 * a test hands one in. Attribute names follow the kernel's {@code Documentation/ABI} files
 * ({@code sysfs-class-infiniband}, {@code sysfs-class-net}, {@code sysfs-bus-pci}); a driver is
 * read from the {@code driver} link, else from {@code DRIVER=} in {@code uevent}.
 */
public final class HardwareProbe {
    private static final Pattern RATE = Pattern.compile("\\s*([0-9]+(?:\\.[0-9]+)?)\\s*Gb/sec.*");
    private static final String ZERO_GID = "0000:0000:0000:0000:0000:0000:0000:0000";

    private final Sysfs fs;
    private final PciNames names;
    private final Supplier<Optional<GpuRuntime>> gpuRuntime;
    /** libfabric's providers: asked of the library on this machine only (a tree of files has none). */
    private final Supplier<List<FabricProvider>> fabrics;

    /**
     * A probe of the directory tree at {@code root}: {@code /} is this machine, and its GPUs are
     * asked of the GPU runtime too; any other root is a tree of files alone.
     */
    public HardwareProbe(Path root) {
        this(root, root.toAbsolutePath().normalize().equals(Path.of("/")) ? GpuRuntimes::find : Optional::empty);
    }

    /** A probe of {@code root} whose GPU list is joined with what {@code gpuRuntime} supplies. */
    public HardwareProbe(Path root, Supplier<Optional<GpuRuntime>> gpuRuntime) {
        this.fs = new Sysfs(root);
        this.names = new PciNames(fs);
        this.gpuRuntime = gpuRuntime;
        this.fabrics = root.toAbsolutePath().normalize().equals(Path.of("/")) ? FabricProvider::discover : List::of;
    }

    /** A probe of this machine. */
    public static HardwareProbe system() {
        return new HardwareProbe(Path.of("/"));
    }

    public ProbeReport probe() {
        return new ProbeReport(
                fs.root().toString(),
                fs.read(fs.at("/proc/sys/kernel/hostname")).orElse(""),
                rdmaDevices(),
                netInterfaces(),
                GpuInventory.merge(gpus(), gpuRuntime.get()),
                cpu(),
                hugePages(),
                new StackProbe(fs).read(),
                fabrics.get());
    }

    // ---- RDMA ------------------------------------------------------------------------------

    List<RdmaDevice> rdmaDevices() {
        List<RdmaDevice> out = new ArrayList<>();
        for (Path dir : fs.list(fs.at("/sys/class/infiniband"))) {
            String name = dir.getFileName().toString();
            Path dev = dir.resolve("device");
            Optional<PciFunction> pci = pciOf(dev);
            boolean software = pci.isEmpty();
            String driver;
            List<String> netdevs = new ArrayList<>();
            if (software) {
                driver = name.startsWith("siw")
                        ? "siw"
                        : name.startsWith("rxe") || fs.exists(dir.resolve("parent")) ? "rdma_rxe" : "";
                fs.read(dir, "parent").filter(s -> !s.isEmpty()).ifPresent(netdevs::add);
            } else {
                driver = pci.get().driver();
                for (Path n : fs.list(dev.resolve("net"))) {
                    netdevs.add(n.getFileName().toString());
                }
            }
            List<RdmaPort> ports = new ArrayList<>();
            for (Path p : fs.list(dir.resolve("ports"))) {
                OptionalInt number = parseInt(p.getFileName().toString());
                if (number.isPresent()) {
                    ports.add(port(number.getAsInt(), p));
                }
            }
            out.add(new RdmaDevice(
                    name,
                    afterColon(fs.readOr(dir, "node_type", "")),
                    fs.readOr(dir, "fw_ver", ""),
                    fs.readOr(dir, "hca_type", ""),
                    fs.readOr(dir, "board_id", ""),
                    fs.readOr(dir, "node_guid", ""),
                    pci,
                    driver,
                    netdevs,
                    ports,
                    software));
        }
        return out;
    }

    private RdmaPort port(int number, Path p) {
        String rate = fs.readOr(p, "rate", "");
        Matcher m = RATE.matcher(rate);
        double gbps = m.matches() ? Double.parseDouble(m.group(1)) : 0;
        List<Gid> gids = new ArrayList<>();
        for (Path g : fs.list(p.resolve("gids"))) {
            String idx = g.getFileName().toString();
            OptionalInt index = parseInt(idx);
            String value = fs.read(g).orElse("");
            if (index.isEmpty() || value.isEmpty() || value.equals(ZERO_GID)) {
                continue;
            }
            gids.add(new Gid(
                    index.getAsInt(),
                    value,
                    fs.readOr(p.resolve("gid_attrs/types"), idx, ""),
                    fs.readOr(p.resolve("gid_attrs/ndevs"), idx, "")));
        }
        return new RdmaPort(
                number,
                afterColon(fs.readOr(p, "state", "")),
                afterColon(fs.readOr(p, "phys_state", "")),
                gbps,
                rate,
                fs.readOr(p, "link_layer", ""),
                gids);
    }

    // ---- network interfaces ----------------------------------------------------------------

    List<NetInterface> netInterfaces() {
        List<NetInterface> out = new ArrayList<>();
        for (Path dir : fs.list(fs.at("/sys/class/net"))) {
            if (!fs.isDirectory(dir)) {
                continue; // bonding_masters and the like
            }
            Path dev = dir.resolve("device");
            String driver = fs.isDirectory(dev) ? driverOf(dev) : "";
            long speed = fs.readLong(dir, "speed").orElse(-1);
            out.add(new NetInterface(
                    dir.getFileName().toString(),
                    driver,
                    pciOf(dev),
                    speed < 0 ? -1 : speed,
                    fs.readOr(dir, "operstate", "unknown"),
                    (int) fs.readLong(dir, "mtu").orElse(-1),
                    fs.readOr(dir, "address", "")));
        }
        return out;
    }

    // ---- GPUs ------------------------------------------------------------------------------

    List<GpuDevice> gpus() {
        Map<String, PciFunction> byAddress = new TreeMap<>();
        Map<String, String> cards = new HashMap<>();
        for (Path card : fs.list(fs.at("/sys/class/drm"))) {
            String cname = card.getFileName().toString();
            if (!cname.matches("card\\d+")) {
                continue; // renderD128, card0-HDMI-A-1, version
            }
            Optional<PciFunction> pci = pciOf(card.resolve("device"));
            if (pci.isPresent()
                    && isGpu(pci.get(), true)
                    && !pci.get().address().isEmpty()) {
                byAddress.putIfAbsent(pci.get().address(), pci.get());
                cards.putIfAbsent(pci.get().address(), cname);
            }
        }
        // GPUs with no DRM node (NVIDIA without nvidia-drm, or a driver not loaded) are still on the bus.
        for (Path dev : fs.list(fs.at("/sys/bus/pci/devices"))) {
            Optional<PciFunction> pci = pciOf(dev, false);
            if (pci.isPresent()
                    && isGpu(pci.get(), false)
                    && !byAddress.containsKey(pci.get().address())) {
                PciFunction f = pci.get();
                byAddress.put(f.address(), f.withName(names.name(f.vendorId(), f.deviceId(), true)));
            }
        }
        List<GpuDevice> out = new ArrayList<>();
        int index = 0;
        for (Map.Entry<String, PciFunction> e : byAddress.entrySet()) {
            PciFunction f = e.getValue();
            String vendor = PciNames.gpuVendor(f.vendorId()).orElseThrow();
            String model = f.name();
            if (model.isEmpty() && vendor.equals("nvidia")) {
                model = nvidiaModel(f.address()).orElse("");
            }
            out.add(new GpuDevice(
                    index++,
                    vendor,
                    model.isEmpty() ? "unknown" : model,
                    f,
                    Optional.ofNullable(cards.get(e.getKey()))));
        }
        return out;
    }

    /** Display controllers (class 0x03xxxx) and processing accelerators (0x1200xx) of a GPU vendor. */
    private static boolean isGpu(PciFunction f, boolean fromDrm) {
        if (PciNames.gpuVendor(f.vendorId()).isEmpty()) {
            return false; // e.g. the ASPEED BMC's VGA function
        }
        int cls = f.classCode();
        if (cls < 0) {
            return fromDrm;
        }
        return (cls >> 16) == 0x03 || (cls >> 8) == 0x1200;
    }

    private Optional<String> nvidiaModel(String address) {
        return fs.read(fs.at("/proc/driver/nvidia/gpus/" + address + "/information"))
                .flatMap(text -> {
                    for (String line : text.split("\n")) {
                        if (line.startsWith("Model:")) {
                            return Optional.of(line.substring(6).strip().replaceFirst("^NVIDIA ", ""));
                        }
                    }
                    return Optional.empty();
                });
    }

    // ---- CPU, NUMA, huge pages -------------------------------------------------------------

    CpuLayout cpu() {
        String online = fs.readOr(fs.at("/sys/devices/system/cpu"), "online", "");
        int count = CpuList.parseLenient(online).size();
        if (count == 0) {
            count = Runtime.getRuntime().availableProcessors();
            online = count == 1 ? "0" : "0-" + (count - 1);
        }
        List<NumaNode> nodes = new ArrayList<>();
        for (Path n : fs.list(fs.at("/sys/devices/system/node"))) {
            String nn = n.getFileName().toString();
            if (!nn.matches("node\\d+")) {
                continue;
            }
            long mem = -1;
            for (String line : fs.readOr(n, "meminfo", "").split("\n")) {
                // "Node 0 MemTotal:        4286200 kB"
                int at = line.indexOf("MemTotal:");
                if (at >= 0) {
                    mem = parseKb(line.substring(at + 9));
                }
            }
            nodes.add(new NumaNode(Integer.parseInt(nn.substring(4)), fs.readOr(n, "cpulist", ""), mem));
        }
        if (nodes.isEmpty()) {
            nodes.add(new NumaNode(0, online, -1));
        }
        String model = "";
        for (String line : fs.readOr(fs.at("/proc"), "cpuinfo", "").split("\n")) {
            if (line.startsWith("model name")) {
                int colon = line.indexOf(':');
                model = colon < 0 ? "" : line.substring(colon + 1).strip();
                break;
            }
        }
        return new CpuLayout(model, online, count, nodes);
    }

    HugePages hugePages() {
        Map<String, Long> mi = meminfo();
        if (!mi.containsKey("HugePages_Total")) {
            return HugePages.NONE;
        }
        return new HugePages(
                mi.getOrDefault("HugePages_Total", 0L),
                mi.getOrDefault("HugePages_Free", 0L),
                mi.getOrDefault("Hugepagesize", 0L));
    }

    private Map<String, Long> meminfo() {
        Map<String, Long> out = new LinkedHashMap<>();
        for (String line : fs.readOr(fs.at("/proc"), "meminfo", "").split("\n")) {
            int colon = line.indexOf(':');
            if (colon > 0) {
                long v = parseKb(line.substring(colon + 1));
                if (v >= 0) {
                    out.put(line.substring(0, colon).strip(), v);
                }
            }
        }
        return out;
    }

    // ---- PCI ---------------------------------------------------------------------------------

    /**
     * The PCI function a {@code device} directory stands for. A virtio device's directory is a child
     * of its PCI function; a software device has no {@code device} at all.
     */
    private Optional<PciFunction> pciOf(Path dev) {
        return pciOf(dev, true);
    }

    /** {@code lookUpName}: also search {@code pci.ids}, not only the built-in table. */
    private Optional<PciFunction> pciOf(Path dev, boolean lookUpName) {
        if (!fs.isDirectory(dev)) {
            return Optional.empty();
        }
        Map<String, String> uevent = uevent(dev);
        String subsystem = fs.linkName(dev.resolve("subsystem")).orElse("");
        if (subsystem.equals("virtio")) {
            try {
                Path parent = dev.toRealPath().getParent();
                return parent == null ? Optional.empty() : pciOf(parent, lookUpName);
            } catch (java.io.IOException e) {
                return Optional.empty();
            }
        }
        boolean pci = subsystem.equals("pci")
                || uevent.containsKey("PCI_SLOT_NAME")
                || (subsystem.isEmpty() && fs.exists(dev.resolve("vendor")) && fs.exists(dev.resolve("device")));
        if (!pci) {
            return Optional.empty();
        }
        String address = uevent.getOrDefault("PCI_SLOT_NAME", "");
        if (address.isEmpty()) {
            address = fs.linkName(dev).orElse(dev.getFileName().toString());
            if (!address.matches("[0-9a-fA-F]{4}:[0-9a-fA-F]{2}:[0-9a-fA-F]{2}\\.[0-7]")) {
                try {
                    Path real = dev.toRealPath().getFileName();
                    address = real == null ? "" : real.toString();
                } catch (java.io.IOException e) {
                    address = "";
                }
            }
        }
        int vendor = fs.readHex(dev, "vendor").orElse(-1);
        int device = fs.readHex(dev, "device").orElse(-1);
        return Optional.of(new PciFunction(
                address.toLowerCase(Locale.ROOT),
                vendor,
                device,
                fs.readHex(dev, "subsystem_vendor").orElse(-1),
                fs.readHex(dev, "subsystem_device").orElse(-1),
                fs.readHex(dev, "class").orElse(-1),
                driverOf(dev),
                (int) fs.readLong(dev, "numa_node").orElse(-1),
                fs.readOr(dev, "local_cpulist", ""),
                names.name(vendor, device, lookUpName)));
    }

    private String driverOf(Path dev) {
        return fs.linkName(dev.resolve("driver")).orElseGet(() -> uevent(dev).getOrDefault("DRIVER", ""));
    }

    private Map<String, String> uevent(Path dev) {
        Map<String, String> m = new HashMap<>();
        for (String line : fs.readOr(dev, "uevent", "").split("\n")) {
            int eq = line.indexOf('=');
            if (eq > 0) {
                m.put(line.substring(0, eq).strip(), line.substring(eq + 1).strip());
            }
        }
        return m;
    }

    // ---- small parsers -----------------------------------------------------------------------

    /** "4: ACTIVE" → "ACTIVE"; "1: CA" → "CA". */
    private static String afterColon(String s) {
        int colon = s.indexOf(':');
        return colon < 0 ? s : s.substring(colon + 1).strip();
    }

    private static OptionalInt parseInt(String s) {
        try {
            return OptionalInt.of(Integer.parseInt(s));
        } catch (NumberFormatException e) {
            return OptionalInt.empty();
        }
    }

    /** "   4286200 kB" → 4286200; "0" → 0; garbage → -1. */
    private static long parseKb(String s) {
        String t = s.strip();
        if (t.endsWith("kB")) {
            t = t.substring(0, t.length() - 2).strip();
        }
        try {
            return Long.parseLong(t);
        } catch (NumberFormatException e) {
            return -1;
        }
    }
}
