package dev.linkproof.transfer.memory;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The limits as /proc and statvfs give them, and the messages that name them and how to raise them. */
class HostLimitsTest {
    @TempDir
    Path dir;

    private HostLimits limits(String memlock, String capEff) throws Exception {
        Path limits = Files.writeString(dir.resolve("limits"), """
            Limit                     Soft Limit           Hard Limit           Units
            Max cpu time              unlimited            unlimited            seconds
            Max locked memory         %s                %s                bytes
            Max address space         unlimited            unlimited            bytes
            """.formatted(memlock, memlock));
        Path status = Files.writeString(
                dir.resolve("status"), "Name:\tjava\nCapInh:\t0000000000000000\nCapEff:\t" + capEff + "\n");
        return new HostLimits(limits, status, dir);
    }

    /** 0x1ffffffffff is root's full set; CAP_IPC_LOCK (bit 14) taken out of it. */
    private static final String ROOT = "000001ffffffffff";

    private static final String ROOT_WITHOUT_IPC_LOCK = "000001ffffffbfff";

    @Test
    void aFiniteLimitWithoutCapIpcLockIsNamedWithItsValueAndHowToRaiseIt() throws Exception {
        HostLimits h = limits("65536", ROOT_WITHOUT_IPC_LOCK);
        assertThat(h.lockedMemoryLimit()).hasValue(65536);
        assertThat(h.lockWithoutLimit()).isFalse();
        assertThat(h.lockedMemoryShortfall(1 << 20))
                .hasValue("the locked-memory limit (RLIMIT_MEMLOCK, ulimit -l) of this process is 64 KiB, and"
                        + " registering 1 MiB pins that much (with what is pinned already): raise it where the"
                        + " run and its agent start (ulimit -l unlimited; a container: docker run --ulimit"
                        + " memlock=-1; a systemd service: LimitMEMLOCK=infinity; logins: memlock in"
                        + " /etc/security/limits.conf)");
        assertThat(h.lockedMemoryNote(1 << 20))
                .startsWith("the locked-memory limit (RLIMIT_MEMLOCK, ulimit -l) of this process is 64 KiB");
    }

    @Test
    void theLimitDoesNotBindWithCapIpcLockOrWhenUnlimited() throws Exception {
        HostLimits root = limits("65536", ROOT);
        assertThat(root.lockWithoutLimit()).isTrue();
        assertThat(root.lockedMemoryShortfall(1 << 20)).isEmpty();
        assertThat(root.lockedMemoryNote(1 << 20))
                .isEqualTo("not the locked-memory limit: this process holds CAP_IPC_LOCK");
        HostLimits unlimited = limits("unlimited", "0000000000000000");
        assertThat(unlimited.lockedMemoryLimit()).hasValue(-1);
        assertThat(unlimited.lockedMemoryShortfall(1 << 20)).isEmpty();
        assertThat(unlimited.lockedMemoryNote(1 << 20))
                .isEqualTo("not the locked-memory limit: RLIMIT_MEMLOCK is unlimited");
    }

    @Test
    void sharedMemoryIsNamedOnlyWhenItHasLessThanIsNeeded() throws Exception {
        HostLimits h = limits("unlimited", ROOT);
        assertThat(h.sharedMemoryShortfall(1)).isEmpty();
        assertThat(h.sharedMemoryShortfall(Long.MAX_VALUE / 2))
                .hasValueSatisfying(m -> assertThat(m)
                        .startsWith(dir + " has ")
                        .contains(" free of ")
                        .contains("UCX's shared-memory transports keep their buffers and receive queues there")
                        .contains("mount -o remount,size=8G " + dir)
                        .contains("docker run --shm-size=8g")
                        .contains("UCX_TLS=tcp"));
    }

    /** This process's own figures can be read (CI runs where /proc exists). */
    @Test
    void thisProcessesFiguresAreRead() {
        HostLimits here = HostLimits.here();
        assertThat(here.lockedMemoryLimit()).isPresent();
        assertThat(here.sharedMemoryShortfall(1)).isEmpty();
    }

    @Test
    void sizesAreRoundedToTwoPlaces() {
        assertThat(dev.linkproof.transfer.Units.formatApproxSize(65536)).isEqualTo("64 KiB");
        assertThat(dev.linkproof.transfer.Units.formatApproxSize(8L << 20)).isEqualTo("8 MiB");
        assertThat(dev.linkproof.transfer.Units.formatApproxSize(1536L << 20)).isEqualTo("1.5 GiB");
        assertThat(dev.linkproof.transfer.Units.formatApproxSize(1000)).isEqualTo("1000 B");
    }
}
