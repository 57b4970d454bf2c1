package dev.linkproof.transfer.probe;

import java.util.Locale;
import java.util.Map;
import java.util.Optional;

/**
 * Short names for the PCI devices profiles care about, and the machine's {@code pci.ids} for the
 * rest. The short names are what a profile's GPU {@code model} rule matches against, so they stay
 * stable whatever the installed {@code pci.ids} spells.
 */
final class PciNames {
    static final int MELLANOX = 0x15b3;
    static final int BROADCOM = 0x14e4;
    static final int AMD = 0x1002;
    static final int NVIDIA = 0x10de;
    static final int INTEL = 0x8086;
    static final int AMAZON = 0x1d0f;

    /** vendor << 16 | device → short name. Ids as the Linux drivers' PCI tables list them. */
    private static final Map<Integer, String> KNOWN = Map.ofEntries(
            // mlx5_core (drivers/net/ethernet/mellanox/mlx5/core/main.c)
            Map.entry(key(MELLANOX, 0x1017), "ConnectX-5"),
            Map.entry(key(MELLANOX, 0x1019), "ConnectX-5 Ex"),
            Map.entry(key(MELLANOX, 0x101b), "ConnectX-6"),
            Map.entry(key(MELLANOX, 0x101d), "ConnectX-6 Dx"),
            Map.entry(key(MELLANOX, 0x101f), "ConnectX-6 Lx"),
            Map.entry(key(MELLANOX, 0x1021), "ConnectX-7"),
            Map.entry(key(MELLANOX, 0x1023), "ConnectX-8"),
            Map.entry(key(MELLANOX, 0xa2dc), "BlueField-3"),
            // bnxt_en (drivers/net/ethernet/broadcom/bnxt/bnxt.c)
            Map.entry(key(BROADCOM, 0x1750), "BCM57508 (Thor)"),
            Map.entry(key(BROADCOM, 0x1760), "BCM57608 (Thor2)"),
            // efa (rdma-core providers/efa/efa.c: efa_table)
            Map.entry(key(AMAZON, 0xefa0), "Elastic Fabric Adapter"),
            Map.entry(key(AMAZON, 0xefa1), "Elastic Fabric Adapter"),
            Map.entry(key(AMAZON, 0xefa2), "Elastic Fabric Adapter"),
            Map.entry(key(AMAZON, 0xefa3), "Elastic Fabric Adapter"),
            // amdgpu
            Map.entry(key(AMD, 0x740c), "MI250X"),
            Map.entry(key(AMD, 0x74a0), "MI300A"),
            Map.entry(key(AMD, 0x74a1), "MI300X"),
            Map.entry(key(AMD, 0x74a5), "MI325X"),
            // NVIDIA data-centre parts
            Map.entry(key(NVIDIA, 0x20b0), "A100 SXM4 40GB"),
            Map.entry(key(NVIDIA, 0x20b2), "A100 SXM4 80GB"),
            Map.entry(key(NVIDIA, 0x20b5), "A100 PCIe 80GB"),
            Map.entry(key(NVIDIA, 0x2321), "H100 NVL"),
            Map.entry(key(NVIDIA, 0x2330), "H100 SXM5 80GB"),
            Map.entry(key(NVIDIA, 0x2331), "H100 PCIe"),
            Map.entry(key(NVIDIA, 0x2335), "H200 SXM 141GB"),
            // virtio (QEMU/KVM guests)
            Map.entry(key(0x1af4, 0x1000), "virtio network device"),
            Map.entry(key(0x1af4, 0x1041), "virtio 1.0 network device"));

    private final Sysfs fs;
    private String[] pciIds;

    PciNames(Sysfs fs) {
        this.fs = fs;
    }

    private static int key(int vendor, int device) {
        return vendor << 16 | device;
    }

    static Optional<String> gpuVendor(int vendorId) {
        return switch (vendorId) {
            case AMD -> Optional.of("amd");
            case NVIDIA -> Optional.of("nvidia");
            case INTEL -> Optional.of("intel");
            default -> Optional.empty();
        };
    }

    String name(int vendor, int device, boolean searchPciIds) {
        if (vendor < 0 || device < 0) {
            return "";
        }
        String known = KNOWN.get(key(vendor, device));
        if (known != null) {
            return known;
        }
        return searchPciIds ? fromPciIds(vendor, device).orElse("") : "";
    }

    /** Looks the pair up in {@code /usr/share/misc/pci.ids} or {@code /usr/share/hwdata/pci.ids} when present. */
    private Optional<String> fromPciIds(int vendor, int device) {
        String[] lines = pciIds;
        if (lines == null) {
            lines = fs.read(fs.at("/usr/share/misc/pci.ids"))
                    .or(() -> fs.read(fs.at("/usr/share/hwdata/pci.ids")))
                    .orElse("")
                    .split("\n");
            pciIds = lines;
        }
        String v = String.format(Locale.ROOT, "%04x", vendor);
        String d = "\t" + String.format(Locale.ROOT, "%04x", device) + "  ";
        boolean inVendor = false;
        for (String line : lines) {
            if (line.startsWith("#") || line.isEmpty()) {
                continue;
            }
            if (!line.startsWith("\t")) {
                if (inVendor) {
                    return Optional.empty();
                }
                inVendor = line.startsWith(v + "  ");
            } else if (inVendor && line.startsWith(d)) {
                return Optional.of(line.substring(d.length()).strip());
            }
        }
        return Optional.empty();
    }
}
