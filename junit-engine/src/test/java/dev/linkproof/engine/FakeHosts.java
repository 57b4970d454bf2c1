package dev.linkproof.engine;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;

/**
 * The fake sysfs trees of hardware-profiles' tests (hardware-profiles/src/test/resources/sysfs), as
 * this module's tests hand them to a run through {@code linkproof.probe.root}.
 */
public final class FakeHosts {
    private FakeHosts() {}

    /** The tree of {@code name} (cx7-host, h100-cx7-host, rxe-host, ...), from this module's directory (where Surefire runs). */
    public static String path(String name) {
        Path p = Path.of("..", "hardware-profiles", "src", "test", "resources", "sysfs", name)
                .toAbsolutePath()
                .normalize();
        assertThat(p).as("fake sysfs tree").isDirectory();
        return p.toString();
    }

    /** A copy of {@code host}'s tree under {@code dir} with port 1 of each of {@code devices} DOWN. */
    public static Path portsDown(Path dir, String host, String... devices) throws IOException {
        Path down = copy(dir, host, "-ports-down");
        for (String dev : devices) {
            Files.writeString(down.resolve("sys/class/infiniband/" + dev + "/ports/1/state"), "1: DOWN\n");
        }
        return down;
    }

    /** A copy of {@code host}'s tree under {@code dir} without its RDMA devices (a GPU node with no RDMA NIC). */
    public static Path withoutRdma(Path dir, String host) throws IOException {
        Path bare = copy(dir, host, "-no-rdma");
        try (var files = Files.walk(bare.resolve("sys/class/infiniband"))) {
            for (Path f : files.sorted(java.util.Comparator.reverseOrder()).toList()) {
                Files.delete(f);
            }
        }
        return bare;
    }

    /** A copy of {@code host}'s tree under {@code dir} in which RDMA device {@code device}'s NUMA node is {@code node} (-1: none known). */
    public static Path numaNode(Path dir, String host, String device, int node) throws IOException {
        Path moved = copy(dir, host, "-" + device + "-numa" + node);
        Files.writeString(moved.resolve("sys/class/infiniband/" + device + "/device/numa_node"), node + "\n");
        return moved;
    }

    private static Path copy(Path dir, String host, String suffix) throws IOException {
        Path to = dir.resolve(host + suffix);
        Path from = Path.of(path(host));
        try (var files = Files.walk(from)) {
            for (Path f : files.toList()) {
                Files.copy(f, to.resolve(from.relativize(f).toString()), LinkOption.NOFOLLOW_LINKS);
            }
        }
        return to;
    }
}
