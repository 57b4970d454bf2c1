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
    private FakeHosts() {
    }

    /** The tree of {@code name} (cx7-host, h100-cx7-host, rxe-host, ...), from this module's directory (where Surefire runs). */
    public static String path(String name) {
        Path p = Path.of("..", "hardware-profiles", "src", "test", "resources", "sysfs", name).toAbsolutePath().normalize();
        assertThat(p).as("fake sysfs tree").isDirectory();
        return p.toString();
    }

    /** A copy of {@code host}'s tree under {@code dir} with port 1 of each of {@code devices} DOWN. */
    public static Path portsDown(Path dir, String host, String... devices) throws IOException {
        Path down = dir.resolve(host + "-ports-down");
        Path from = Path.of(path(host));
        try (var files = Files.walk(from)) {
            for (Path f : files.toList()) {
                Files.copy(f, down.resolve(from.relativize(f).toString()), LinkOption.NOFOLLOW_LINKS);
            }
        }
        for (String dev : devices) {
            Files.writeString(down.resolve("sys/class/infiniband/" + dev + "/ports/1/state"), "1: DOWN\n");
        }
        return down;
    }
}
