package dev.linkproof.fleet.rendezvous;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.linkproof.fleet.FleetConfigurationException;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** A host file: one host a line, comments, every bad line by number. */
class HostFileTest {
    @Test
    void hostsInOrderWithoutCommentsOrBlankLines(@TempDir Path dir) throws IOException {
        Path file = Files.writeString(dir.resolve("hosts"), "# rack A\nnode1\n  node2  # new NIC\n\nnode10\n");
        Roster r = HostFile.read(file);

        assertThat(r.launcher()).isEqualTo(Launcher.HOST_FILE);
        assertThat(r.nodes()).containsExactly("node1", "node2", "node10");
        assertThat(r.self()).isEmpty();
        assertThat(r.origin()).isEqualTo("host file " + file);
    }

    @Test
    void everyBadLineIsReportedWithItsNumber() {
        assertThatThrownBy(() -> HostFile.parse("node1\nnode2 slots=8\nnode1\n", "hosts"))
                .isInstanceOfSatisfying(
                        FleetConfigurationException.class,
                        e -> assertThat(e.problems())
                                .containsExactly(
                                        "hosts:2: 'node2 slots=8' is not one host (one host per line)",
                                        "hosts:3: host node1 is already on line 1"));
        assertThatThrownBy(() -> HostFile.parse("# none\n", "hosts"))
                .hasMessage("hosts: no hosts, only comments and blank lines");
        assertThatThrownBy(() -> HostFile.read(Path.of("/nonexistent/hosts")))
                .hasMessageStartingWith("cannot read the host file /nonexistent/hosts");
    }
}
