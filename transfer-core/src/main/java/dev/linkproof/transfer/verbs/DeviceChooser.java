package dev.linkproof.transfer.verbs;

import dev.linkproof.transfer.TransferException;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import java.util.OptionalInt;
import java.util.stream.Stream;

/**
 * Picks the verbs device and GID index from sysfs, without loading libibverbs: the device named by
 * the settings, else the one with an ACTIVE port on the NUMA node this process runs on, else any
 * with an ACTIVE port; the GID index the settings name, else the first RoCE v2 GID holding an IPv4
 * address (what {@code ib_write_bw -x} is usually given), else the first RoCE v2 one, else 0.
 * The root is a parameter so tests can lay out a fake sysfs.
 */
public final class DeviceChooser {
    private static final String IPV4_MAPPED = "0000:0000:0000:0000:0000:ffff:";
    private static final String ZERO_GID = "0000:0000:0000:0000:0000:0000:0000:0000";
    private final Path root;

    public DeviceChooser(Path root) {
        this.root = root;
    }

    public static DeviceChooser system() {
        return new DeviceChooser(Path.of("/"));
    }

    Path infiniband() {
        return root.resolve("sys/class/infiniband");
    }

    /** Device names under /sys/class/infiniband, sorted; empty when there are none or no such directory. */
    public List<String> devices() {
        try (Stream<Path> s = Files.list(infiniband())) {
            return s.map(p -> p.getFileName().toString()).sorted().toList();
        } catch (IOException e) {
            return List.of();
        }
    }

    /** Why there is no RDMA device here, or null when sysfs lists one. */
    public String noDeviceReason() {
        if (!Files.isDirectory(infiniband())) {
            return "no RDMA device: " + infiniband() + " does not exist (a kernel without RDMA support, or no RDMA "
                    + "driver loaded; Soft-RoCE needs the rdma_rxe module)";
        }
        if (devices().isEmpty()) {
            return "no RDMA device: " + infiniband() + " is empty (no RDMA NIC, and no Soft-RoCE link: "
                    + "rdma link add rxe0 type rxe netdev <interface>)";
        }
        return null;
    }

    public String choose(VerbsSettings settings) throws TransferException {
        if (settings.device().isPresent()) {
            return settings.device().get();
        }
        List<String> all = devices();
        if (all.isEmpty()) {
            throw new TransferException(noDeviceReason());
        }
        int node = localNumaNode();
        List<String> active = new ArrayList<>();
        for (String d : all) {
            if (portActive(d, settings.port())) {
                active.add(d);
            }
        }
        List<String> pool = active.isEmpty() ? all : active;
        return pool.stream()
                .min(Comparator.comparingInt((String d) -> numaNode(d) == node ? 0 : 1))
                .orElseThrow();
    }

    boolean portActive(String device, int port) {
        return read(infiniband().resolve(device).resolve("ports/" + port + "/state"))
                .toUpperCase(Locale.ROOT)
                .contains("ACTIVE");
    }

    int numaNode(String device) {
        try {
            return Integer.parseInt(read(infiniband().resolve(device).resolve("device/numa_node"))
                    .trim());
        } catch (NumberFormatException e) {
            return -1;
        }
    }

    /** The NUMA node of the first CPU this process may run on (Cpus_allowed_list), -1 when unknown. */
    int localNumaNode() {
        String allowed = "";
        for (String line : read(root.resolve("proc/self/status")).split("\n")) {
            if (line.startsWith("Cpus_allowed_list:")) {
                allowed = line.substring(18).trim();
            }
        }
        if (allowed.isEmpty()) {
            return -1;
        }
        int cpu;
        try {
            cpu = Integer.parseInt(allowed.split("[,-]")[0].trim());
        } catch (NumberFormatException e) {
            return -1;
        }
        try (Stream<Path> s = Files.list(root.resolve("sys/devices/system/node"))) {
            for (Path n : s.filter(p -> p.getFileName().toString().matches("node[0-9]+"))
                    .toList()) {
                if (Files.exists(n.resolve("cpu" + cpu))) {
                    return Integer.parseInt(n.getFileName().toString().substring(4));
                }
            }
        } catch (IOException | NumberFormatException e) {
            return -1;
        }
        return -1;
    }

    /** The settings' GID index, else the best RoCE v2 entry of the port, else 0 (InfiniBand). */
    public int gidIndex(String device, VerbsSettings settings) {
        OptionalInt fixed = settings.gidIndex();
        if (fixed.isPresent()) {
            return fixed.getAsInt();
        }
        Path port = infiniband().resolve(device).resolve("ports/" + settings.port());
        int firstV2 = -1;
        for (int i = 0; i < 256; i++) {
            String gid = read(port.resolve("gids/" + i)).trim();
            if (gid.isEmpty()) {
                break;
            }
            if (gid.equals(ZERO_GID)) {
                continue;
            }
            String type = read(port.resolve("gid_attrs/types/" + i)).trim();
            if (type.equalsIgnoreCase("RoCE v2")) {
                if (gid.startsWith(IPV4_MAPPED)) {
                    return i;
                }
                if (firstV2 < 0) {
                    firstV2 = i;
                }
            }
        }
        return Math.max(firstV2, 0);
    }

    private static String read(Path p) {
        try {
            return Files.readString(p);
        } catch (IOException | RuntimeException e) {
            return "";
        }
    }
}
