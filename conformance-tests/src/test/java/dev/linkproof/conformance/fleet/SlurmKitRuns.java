package dev.linkproof.conformance.fleet;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * Runs of the Slurm kit's scripts without a cluster, for SlurmKitTest and SlurmSubmitTest: the kit's
 * folder, stand-in commands and a stand-in bundle, and a command run with its output.
 */
final class SlurmKitRuns {
    static final Path SLURM = FleetKitsTest.ROOT.resolve("examples/fleet/slurm");

    private SlurmKitRuns() {}

    /**
     * An unpacked bundle whose bin/linkproof logs "COMMAND NODE TOKEN ARGS..." and, as an agent, runs until stopped;
     * as run, fails with 5.
     */
    static Path fakeBundle(Path home, Path log) throws IOException {
        fake(
                Files.createDirectories(home.resolve("bin")),
                "linkproof",
                "echo \"$1 ${SLURMD_NODENAME:-?} ${LINKPROOF_TOKEN:-} ${*:2}\" >> " + log
                        + "\ncase $1 in agent) exec sleep 30 ;; run) echo 'the suite ran'; exit 5 ;; esac");
        fake(Files.createDirectories(home.resolve("runtime/bin")), "java", "exit 0");
        return home;
    }

    static void fake(Path bin, String name, String body) throws IOException {
        Path f = bin.resolve(name);
        Files.writeString(f, "#!/usr/bin/env bash\n" + body + "\n");
        Files.setPosixFilePermissions(f, PosixFilePermissions.fromString("rwxr-xr-x"));
    }

    /** A command's exit status and its output, stdout and stderr together. */
    record Run(int rc, String out) {}

    /** {@code command} with {@code env} added to this JVM's environment, stdin closed; it must end within 60 s. */
    static Run run(List<String> command, Map<String, String> env) throws Exception {
        ProcessBuilder pb = new ProcessBuilder(command).redirectErrorStream(true);
        pb.environment().putAll(env);
        Process p = pb.start();
        p.getOutputStream().close();
        byte[] out = p.getInputStream().readAllBytes();
        assertThat(p.waitFor(60, TimeUnit.SECONDS)).as("%s ends", command).isTrue();
        return new Run(p.exitValue(), new String(out, StandardCharsets.UTF_8));
    }
}
