package dev.linkproof.conformance.e2e;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.linkproof.conformance.e2e.fixtures.OneMiBEachTransport;
import dev.linkproof.transfer.ucx.UcxTransport;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * The fault matrix's registration limits, for the transports this host has (verbs under RLIMIT_MEMLOCK is the
 * Soft-RoCE VM's suite), the engine and its local agent run as one command under the limit. A full {@code /dev/shm}
 * (a filled 1 MiB tmpfs over it, in a private mount namespace): the ucx point fails naming {@code /dev/shm}, its
 * figures and how to make room; the tcp point passes. A locked-memory limit of 64 KiB without CAP_IPC_LOCK: both
 * pass, since host memory over tcp and over UCX's tcp and shared-memory transports is never pinned. Needs root,
 * util-linux's unshare, prlimit and setpriv, and UCX; skips with the reason otherwise.
 */
@Tag("e2e")
class RegistrationLimitsTest {
    @BeforeEach
    void needsRootToolsAndUcx() {
        assumeTrue(
                "root".equals(System.getProperty("user.name")),
                "needs root (running as " + System.getProperty("user.name") + ")");
        for (String tool : List.of("unshare", "prlimit", "setpriv")) {
            assumeTrue(Files.isExecutable(Path.of("/usr/bin", tool)), "needs util-linux's " + tool);
        }
        var ucx = new UcxTransport().availability();
        assumeTrue(ucx.available(), () -> "ucx unavailable: " + ucx.reason());
    }

    private record Run(int exit, String out) {}

    /** {@code prefix} (a shell command line) then the engine on {@link OneMiBEachTransport}, as one shell, its output in {@code log}. */
    private static Run run(String prefix, Path log) throws Exception {
        List<String> java = new ArrayList<>(List.of(
                TwoNamespaces.java(),
                "--enable-native-access=ALL-UNNAMED",
                "-Xmx256m",
                "-Dlinkproof.profile=" + E2e.VALIDATION_ONLY,
                "-Dlinkproof.results="
                        + log.resolveSibling(log.getFileName() + ".jsonl").toAbsolutePath(),
                "-Dallure.results.directory="
                        + Path.of("target", "registration-limits-allure-results")
                                .toAbsolutePath(),
                "-cp",
                System.getProperty("java.class.path"),
                RemoteSweepMain.class.getName(),
                OneMiBEachTransport.class.getName()));
        List<String> cmd = new ArrayList<>(List.of("sh", "-c", prefix + " \"$@\"", "sh"));
        cmd.addAll(java);
        Process p = new ProcessBuilder(cmd)
                .redirectErrorStream(true)
                .redirectOutput(log.toFile())
                .start();
        boolean done = p.waitFor(180, TimeUnit.SECONDS);
        if (!done) {
            p.destroyForcibly().waitFor(5, TimeUnit.SECONDS);
        }
        String out = Files.readString(log);
        assertThat(done).as("the run finished within 180 s; output:%n%s", out).isTrue();
        return new Run(p.exitValue(), out);
    }

    private static String finished(String out, String method) {
        return out.lines()
                .filter(l -> l.startsWith(RemoteSweepMain.FINISHED) && l.contains(method))
                .findFirst()
                .orElse("");
    }

    /**
     * UCX said "ucp_worker_create failed: Out of memory (-4)" (or "No resources are available to initiate the
     * operation (-2)" where a little room was left), and no more.
     */
    @Test
    void aFullDevShmFailsTheUcxPointNamingItAndHowToMakeRoom() throws Exception {
        Run r = run(
                "unshare --mount --propagation private sh -c 'mount -t tmpfs -o size=1m linkproof-full-shm /dev/shm &&"
                        + " (head -c 2000000 /dev/zero > /dev/shm/filler 2>/dev/null; true) && df -k /dev/shm && exec"
                        + " \"$0\" \"$@\"'",
                Path.of("target", "registration-limits-shm.log"));
        assertThat(finished(r.out(), "1 conn · tcp")).as(r.out()).endsWith(" SUCCESSFUL -");
        assertThat(finished(r.out(), "ucx")).as(r.out()).contains(" FAILED ");
        assertThat(r.out())
                .as("the ucx point's failure")
                .containsPattern(
                        "ucp_worker_create failed: [^:]+ \\(-[24]\\): /dev/shm has [0-9.]+ [KMG]?i?B free of 1 MiB,")
                .contains(" free of 1 MiB, and UCX's shared-memory transports keep their buffers and receive queues"
                        + " there")
                .contains("mount -o remount,size=8G /dev/shm")
                .contains("docker run --shm-size=8g")
                .contains("UCX_TLS=tcp");
        assertThat(r.out()).contains("remote-sweep: 1 passed, 1 failed, 0 skipped");
        assertThat(Files.readString(Path.of("/proc/self/mountinfo")))
                .as("the tmpfs stayed in its namespace")
                .doesNotContain("linkproof-full-shm");
    }

    /** Nothing in these transports pins host memory: a 64 KiB limit, with no capability to pass it, changes nothing. */
    @Test
    void aLowLockedMemoryLimitDoesNotStopHostMemoryOverTcpOrUcx() throws Exception {
        Run r = run(
                "prlimit --memlock=65536:65536 setpriv --inh-caps=-ipc_lock --bounding-set=-ipc_lock sh -c 'grep"
                    + " CapEff /proc/self/status; grep \"Max locked memory\" /proc/self/limits; exec \"$0\" \"$@\"'",
                Path.of("target", "registration-limits-memlock.log"));
        String capEff =
                r.out().lines().filter(l -> l.startsWith("CapEff:")).findFirst().orElseThrow();
        assertThat(Long.parseUnsignedLong(capEff.substring(7).trim(), 16) & (1L << 14))
                .as("CAP_IPC_LOCK dropped: " + capEff)
                .isZero();
        assertThat(r.out()).containsPattern("Max locked memory\\s+65536\\s+65536\\s+bytes");
        assertThat(r.exit()).as(r.out()).isZero();
        assertThat(r.out()).contains("remote-sweep: 2 passed, 0 failed, 0 skipped");
    }
}
