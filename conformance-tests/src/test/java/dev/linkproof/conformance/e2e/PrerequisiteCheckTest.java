package dev.linkproof.conformance.e2e;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The main job's prerequisite scripts on systems this machine is not: {@code scripts/lib/jdk25.sh}
 * (any JDK 25 or later) and {@code scripts/lib/prereq.sh} (the check the main job and the release
 * bundle run). Each case builds a file system under {@code LINKPROOF_PREREQ_ROOT} and a PATH of
 * stubs only ({@code id}, {@code ldconfig}, {@code ofed_info}, {@code mvn}, and {@code sudo},
 * {@code apt-get}, {@code dnf} that record being called), so nothing of this machine is probed or
 * installed, and a system without dpkg is simply one without it. Tagged e2e: it tests the product's
 * scripts, not the hardware.
 */
@Tag("e2e")
class PrerequisiteCheckTest {
    static final Path ROOT = Path.of("..").toAbsolutePath().normalize();
    static final Path JDK25 = ROOT.resolve("scripts/lib/jdk25.sh");

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
    }

    // ---- jdk25.sh

    @Test
    void findJdk25TakesAnyJdk25OrLaterAndRefusesOlderOnes() throws Exception {
        for (String version : List.of("26", "25.0.1", "25", "27-ea")) {
            Path home = jdk(dir.resolve("jdks/" + version), version, true);
            Run r = findJdk25(Map.of("JAVA_HOME", home.toString()));
            assertThat(r.rc).as("version %s: %s", version, r.out).isZero();
            assertThat(r.out.strip()).as("version %s", version).isEqualTo(home.toString());
        }
        for (String version : List.of("21", "17.0.12", "1.8.0_392")) {
            Path home = jdk(dir.resolve("jdks/" + version), version, true);
            Run r = findJdk25(Map.of("JAVA_HOME", home.toString()));
            assertThat(r.rc).as("version %s: %s", version, r.out).isEqualTo(1);
            assertThat(r.out).as("version %s", version).isEqualTo("test: no JDK 25 or later under /usr/lib/jvm, and JAVA_HOME ("
                    + home + ") is not one; install one (e.g. Temurin 25) or point JAVA_HOME at it\n");
        }
    }

    @Test
    void findJdk25LooksUnderUsrLibJvmFirstThenAtJavaHome() throws Exception {
        jdk(sys.resolve("usr/lib/jvm/java-21-openjdk"), "21.0.5", true);
        Path jdk26 = jdk(sys.resolve("usr/lib/jvm/temurin-26-jdk"), "26", true);
        Path javaHome = jdk(dir.resolve("jdks/25"), "25.0.1", true);
        Run r = findJdk25(Map.of("JAVA_HOME", javaHome.toString()));
        assertThat(r.out.strip()).as(r.out).isEqualTo(jdk26.toString());
        Files.delete(jdk26.resolve("bin/java"));
        assertThat(findJdk25(Map.of("JAVA_HOME", javaHome.toString())).out.strip()).isEqualTo(javaHome.toString());
    }

    // ---- helpers

    /** A JDK whose java reports VERSION the way OpenJDK does, on stderr. */
    private static Path jdk(Path home, String version, boolean javac) throws IOException {
        Files.createDirectories(home.resolve("bin"));
        executable(home.resolve("bin/java"), "echo 'openjdk version \"" + version + "\" 2026-03-17' >&2\n"
                + "echo 'OpenJDK Runtime Environment (build " + version + "+1)' >&2");
        if (javac) {
            executable(home.resolve("bin/javac"), "echo 'javac " + version + "'");
        }
        return home;
    }

    private Run findJdk25(Map<String, String> env) throws Exception {
        return run(List.of("/bin/bash", "-c", ". \"$1\" && find_jdk25 test", "jdk25", JDK25.toString()), env);
    }

    private static void executable(Path f, String body) throws IOException {
        Files.createDirectories(f.getParent());
        Files.writeString(f, "#!/bin/bash\n" + body + "\n");
        Files.setPosixFilePermissions(f, PosixFilePermissions.fromString("rwxr-xr-x"));
    }

    record Run(int rc, String out) {
    }

    /** COMMAND with only PATH (the stubs), LINKPROOF_PREREQ_ROOT (the system) and ENV. */
    private Run run(List<String> command, Map<String, String> env) throws Exception {
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
