package dev.linkproof.transfer.verbs;

import static org.assertj.core.api.Assertions.assertThat;

import dev.linkproof.transfer.TransferSpec;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class DeviceChooserTest {
    @TempDir
    Path root;

    private void write(String path, String text) throws IOException {
        Path p = root.resolve(path);
        Files.createDirectories(p.getParent());
        Files.writeString(p, text);
    }

    private static VerbsSettings settings(Map<String, String> s) {
        return VerbsSettings.of(
                TransferSpec.builder().transport("verbs").settings(s).build());
    }

    @Test
    void noDirectoryAndEmptyDirectoryAreReasons() throws IOException {
        DeviceChooser c = new DeviceChooser(root);
        assertThat(c.noDeviceReason()).startsWith("no RDMA device: ").contains("does not exist");
        Files.createDirectories(root.resolve("sys/class/infiniband"));
        assertThat(c.noDeviceReason()).startsWith("no RDMA device: ").contains("is empty");
    }

    @Test
    void prefersTheActiveDeviceOnThisProcesssNumaNode() throws Exception {
        write("proc/self/status", "Name:\tjava\nCpus_allowed_list:\t8-15\n");
        write("sys/devices/system/node/node0/cpu0/online", "1");
        write("sys/devices/system/node/node1/cpu8/online", "1");
        for (String d : new String[] {"mlx5_0", "mlx5_1", "mlx5_2"}) {
            write("sys/class/infiniband/" + d + "/ports/1/state", "4: ACTIVE\n");
        }
        write("sys/class/infiniband/mlx5_0/device/numa_node", "0\n");
        write("sys/class/infiniband/mlx5_1/device/numa_node", "1\n");
        write("sys/class/infiniband/mlx5_2/device/numa_node", "1\n");
        write("sys/class/infiniband/mlx5_1/ports/1/state", "1: DOWN\n");
        DeviceChooser c = new DeviceChooser(root);
        assertThat(c.noDeviceReason()).isNull();
        assertThat(c.choose(settings(Map.of()))).isEqualTo("mlx5_2");
        assertThat(c.choose(settings(Map.of("verbs.device", "mlx5_0")))).isEqualTo("mlx5_0");
    }

    @Test
    void gidIndexDefaultsToRoceV2WithIpv4() throws IOException {
        String port = "sys/class/infiniband/rxe0/ports/1/";
        write(port + "gids/0", "fe80:0000:0000:0000:0000:0000:0000:0001\n");
        write(port + "gid_attrs/types/0", "RoCE v2\n");
        write(port + "gids/1", "0000:0000:0000:0000:0000:ffff:0a0b:0c0d\n");
        write(port + "gid_attrs/types/1", "RoCE v2\n");
        DeviceChooser c = new DeviceChooser(root);
        assertThat(c.gidIndex("rxe0", settings(Map.of()))).isEqualTo(1);
        assertThat(c.gidIndex("rxe0", settings(Map.of("verbs.gidIndex", "0")))).isZero();
        assertThat(c.gidIndex("ib0", settings(Map.of()))).isZero();
    }
}
