package dev.linkproof.conformance.e2e;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.io.TempDir;

/**
 * A system this machine is not, for the setup scripts' tests: a file system under
 * {@code LINKPROOF_PREREQ_ROOT} and a PATH of stubs only ({@code sudo}, {@code apt-get} and
 * {@code dnf} record being called), so nothing of this machine is probed or installed. Each test
 * starts from an empty one and adds what its case has.
 */
abstract class SimulatedSystem {
    static final Path ROOT = Path.of("..").toAbsolutePath().normalize();

    @TempDir
    Path dir;
    /** The simulated system's root. */
    Path sys;
    /** The only directory on the PATH. */
    Path bin;
    /** One line per call of sudo, apt-get or dnf. */
    Path calls;

    @BeforeEach
    void emptySystem() throws IOException {
        sys = Files.createDirectories(dir.resolve("root"));
        bin = Files.createDirectories(dir.resolve("bin"));
        calls = dir.resolve("calls");
        for (String installer : List.of("sudo", "apt-get", "dnf")) {
            stub(installer, "echo \"" + installer + " $*\" >> " + calls);
        }
    }

    /** Debian 12 with rdma-core's libibverbs and two providers, libfabric, a JDK 25 and Maven: all but UCX. */
    void debianWithVerbs() throws IOException {
        debian();
        Files.writeString(
                file("etc/ld.so.conf.d/x86_64-linux-gnu.conf"),
                "# Multiarch support\n/usr/local/lib/x86_64-linux-gnu\n"
                        + "/lib/x86_64-linux-gnu\n/usr/lib/x86_64-linux-gnu\n");
        file("usr/lib/x86_64-linux-gnu/libibverbs.so.1");
        file("etc/libibverbs.d/mlx5.driver");
        file("etc/libibverbs.d/rxe.driver");
        file("usr/lib/x86_64-linux-gnu/libfabric.so.1");
        jdk(sys.resolve("usr/lib/jvm/temurin-25-jdk-amd64"), "25", true);
        maven();
    }

    void debian() throws IOException {
        Files.writeString(
                file("etc/os-release"),
                "PRETTY_NAME=\"Debian GNU/Linux 12 (bookworm)\"\nNAME=\"Debian GNU/Linux\"\n"
                        + "VERSION_ID=\"12\"\nID=debian\n");
    }

    void rocky() throws IOException {
        Files.writeString(
                file("etc/os-release"),
                "NAME=\"Rocky Linux\"\nVERSION=\"9.4 (Blue Onyx)\"\nID=\"rocky\"\n"
                        + "ID_LIKE=\"rhel centos fedora\"\nPRETTY_NAME=\"Rocky Linux 9.4 (Blue Onyx)\"\n");
    }

    void root(boolean root) throws IOException {
        stub("id", "[ \"$1\" = -u ] && echo " + (root ? "0" : "1000"));
    }

    void maven() throws IOException {
        stub("mvn", "echo 'Apache Maven 3.9.9'");
    }

    /** UCX's libucp.so.0 in LIBDIR, with its RDMA transport beside it, as Debian's libucx0 and HPC-X have them. */
    void ucx(String libdir) throws IOException {
        file(libdir + "/libucp.so.0");
        file(libdir + "/ucx/libuct_ib.so.0");
    }

    /** An empty file of the simulated system (a library, a provider, a device node). */
    Path file(String path) throws IOException {
        Path f = sys.resolve(path);
        Files.createDirectories(f.getParent());
        if (!Files.exists(f)) {
            Files.createFile(f);
        }
        return f;
    }

    /** A command on the PATH. sudo, apt-get and dnf are there from the start: they record their calls. */
    void stub(String name, String body) throws IOException {
        executable(bin.resolve(name), body);
    }

    /** A JDK whose java reports VERSION the way OpenJDK does, on stderr. */
    static Path jdk(Path home, String version, boolean javac) throws IOException {
        Files.createDirectories(home.resolve("bin"));
        executable(
                home.resolve("bin/java"),
                "echo 'openjdk version \"" + version + "\" 2026-03-17' >&2\n"
                        + "echo 'OpenJDK Runtime Environment (build " + version + "+1)' >&2");
        if (javac) {
            executable(home.resolve("bin/javac"), "echo 'javac " + version + "'");
        }
        return home;
    }

    static void executable(Path f, String body) throws IOException {
        Files.createDirectories(f.getParent());
        Files.writeString(f, "#!/bin/bash\n" + body + "\n");
        Files.setPosixFilePermissions(f, PosixFilePermissions.fromString("rwxr-xr-x"));
    }

    /** A finished command: its status and its output (stdout and stderr together). */
    static final class Run {
        final int rc;
        final String out;

        Run(int rc, String out) {
            this.rc = rc;
            this.out = out;
        }
    }

    /** COMMAND with only PATH (the stubs), LINKPROOF_PREREQ_ROOT (the system) and ENV. */
    Run run(List<String> command, Map<String, String> env) throws Exception {
        ProcessBuilder pb = new ProcessBuilder(command).redirectErrorStream(true);
        pb.environment().clear();
        pb.environment().put("PATH", bin.toString());
        pb.environment().put("LINKPROOF_PREREQ_ROOT", sys.toString());
        pb.environment().putAll(env);
        Process p = pb.start();
        p.getOutputStream().close();
        byte[] out = p.getInputStream().readAllBytes();
        assertThat(p.waitFor(60, TimeUnit.SECONDS)).as("%s ends", command).isTrue();
        return new Run(p.exitValue(), new String(out, StandardCharsets.UTF_8));
    }
}
