package dev.linkproof.transfer.memory;

import dev.linkproof.transfer.Units;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Optional;
import java.util.OptionalLong;

/**
 * The host's limits on memory a transport pins or shares, read when a registration fails, with how
 * to raise them: {@code RLIMIT_MEMLOCK}, which bounds what RDMA registration ({@code ibv_reg_mr},
 * UCX's RDMA transports) may pin without {@code CAP_IPC_LOCK}, and the space left in
 * {@code /dev/shm}, where UCX's shared-memory transports keep their buffers and receive queues.
 * Host memory over tcp, or UCX's tcp and shared-memory transports, is never pinned. Each check decides
 * from the figures (limit, capability, free space), never from an error's text, and is asked only
 * after a failure a limit can cause (ENOMEM or EPERM, UCX's no-memory and no-resource).
 */
public final class HostLimits {
    /** CAP_IPC_LOCK's bit in the capability sets of {@code /proc/.../status}. */
    static final int CAP_IPC_LOCK = 14;

    static final Path SHM = Path.of("/dev/shm");

    private final Path limits;
    private final Path status;
    private final Path shm;

    HostLimits(Path limits, Path status, Path shm) {
        this.limits = limits;
        this.status = status;
        this.shm = shm;
    }

    /** This thread's limits (capabilities are per thread), this process's rlimits, this host's /dev/shm. */
    public static HostLimits here() {
        return new HostLimits(Path.of("/proc/self/limits"), Path.of("/proc/thread-self/status"), SHM);
    }

    /** The soft {@code RLIMIT_MEMLOCK} in bytes, -1 when unlimited; empty when {@code /proc} does not say. */
    OptionalLong lockedMemoryLimit() {
        try {
            for (String line : Files.readAllLines(limits)) {
                if (line.startsWith("Max locked memory")) {
                    String soft =
                            line.substring("Max locked memory".length()).trim().split("\\s+")[0];
                    return OptionalLong.of("unlimited".equals(soft) ? -1 : Long.parseLong(soft));
                }
            }
        } catch (IOException | RuntimeException e) {
            // no /proc: no figure
        }
        return OptionalLong.empty();
    }

    /** Whether this thread's effective capabilities hold CAP_IPC_LOCK, which lifts the limit. */
    boolean lockWithoutLimit() {
        try {
            for (String line : Files.readAllLines(status)) {
                if (line.startsWith("CapEff:")) {
                    long eff = Long.parseUnsignedLong(line.substring(7).trim(), 16);
                    return (eff & (1L << CAP_IPC_LOCK)) != 0;
                }
            }
        } catch (IOException | RuntimeException e) {
            // no /proc: assume the limit applies
        }
        return false;
    }

    /**
     * Why pinning {@code bytes} can fail on the locked-memory limit, naming the limit, its value and
     * how to raise it; empty when the limit does not bind here (unlimited, or CAP_IPC_LOCK) or
     * {@code /proc} does not say.
     */
    public Optional<String> lockedMemoryShortfall(long bytes) {
        OptionalLong limit = lockedMemoryLimit();
        if (limit.isEmpty() || limit.getAsLong() < 0 || lockWithoutLimit()) {
            return Optional.empty();
        }
        return Optional.of("the locked-memory limit (RLIMIT_MEMLOCK, ulimit -l) of this process is "
                + Units.formatApproxSize(limit.getAsLong()) + ", and registering " + Units.formatApproxSize(bytes)
                + " pins that much (with what is pinned already): raise it where the run and its agent start (ulimit"
                + " -l unlimited; a container: docker run --ulimit memlock=-1; a systemd service:"
                + " LimitMEMLOCK=infinity; logins: memlock in /etc/security/limits.conf)");
    }

    /**
     * The same as a clause for a failure whose cause may be the limit, or may not: what the limit is
     * when it binds, else that it is not the limit.
     */
    public String lockedMemoryNote(long bytes) {
        return lockedMemoryShortfall(bytes).orElseGet(() -> {
            OptionalLong limit = lockedMemoryLimit();
            if (lockWithoutLimit()) {
                return "not the locked-memory limit: this process holds CAP_IPC_LOCK";
            }
            if (limit.isPresent() && limit.getAsLong() < 0) {
                return "not the locked-memory limit: RLIMIT_MEMLOCK is unlimited";
            }
            return "the locked-memory limit may be the cause (ulimit -l; raise it: ulimit -l unlimited, docker run "
                    + "--ulimit memlock=-1)";
        });
    }

    /**
     * When {@code /dev/shm} has less than {@code bytes} free: its figures and how to make room (free
     * it, enlarge it, or keep UCX off shared memory); empty when there is room or no such folder.
     */
    public Optional<String> sharedMemoryShortfall(long bytes) {
        try {
            var store = Files.getFileStore(shm);
            long free = store.getUsableSpace();
            if (free >= bytes) {
                return Optional.empty();
            }
            return Optional.of(shm + " has " + Units.formatApproxSize(free) + " free of "
                    + Units.formatApproxSize(store.getTotalSpace())
                    + ", and UCX's shared-memory transports keep their buffers and receive queues there (about "
                    + Units.formatApproxSize(bytes)
                    + " here): remove what is stale there, or make it larger (mount -o remount,size=8G "
                    + shm + "; a container: docker run --shm-size=8g, Kubernetes: an emptyDir of medium Memory at "
                    + shm
                    + "), or keep UCX off shared memory (UCX_TLS=tcp)");
        } catch (IOException | RuntimeException e) {
            return Optional.empty();
        }
    }
}
