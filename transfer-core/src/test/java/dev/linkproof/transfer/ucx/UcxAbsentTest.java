package dev.linkproof.transfer.ucx;

import static org.assertj.core.api.Assertions.assertThat;

import dev.linkproof.transfer.testing.CProgram;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Without a loadable libucp the transport says so, with the dynamic loader's own error, and nothing
 * crashes: each case checked in a JVM of its own (the library is loaded once per process).
 */
class UcxAbsentTest {
    @TempDir
    Path dir;

    /** Prints the transport's availability and the reason; run in a child JVM. */
    public static void main(String[] args) {
        var a = new UcxTransport().availability();
        System.out.println(a.available() + "|" + a.reason() + "|" + new UcxTransport().describe());
    }

    private static String availabilityWith(String library) throws Exception {
        Process p = new ProcessBuilder(
                        Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                        "--enable-native-access=ALL-UNNAMED",
                        "-D" + Ucx.LIBRARY_PROPERTY + "=" + library,
                        "-cp",
                        System.getProperty("java.class.path"),
                        UcxAbsentTest.class.getName())
                .redirectErrorStream(true)
                .start();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8).trim();
        assertThat(p.waitFor(60, TimeUnit.SECONDS)).isTrue();
        assertThat(p.exitValue()).as(out).isZero();
        // The JVM may warn about a file it tried to load (stack guard); the answer is the last line.
        return out.lines().reduce((first, second) -> second).orElse("");
    }

    @Test
    void aMissingLibraryMakesTheTransportUnavailableWithTheReason() throws Exception {
        assertThat(availabilityWith("libucp-absent.so.0"))
                .isEqualTo("false|libucp-absent.so.0 cannot be loaded: libucp-absent.so.0: cannot open shared object"
                        + " file: No such file or directory (apt-get install libucx0)|{}");
    }

    /** It said "libucp.so.0 not found" of a file that was there: the loader's own error was dropped. */
    @Test
    void aFileThatIsNotALibrarySaysWhatTheLoaderSaid() throws Exception {
        Path notALibrary = Files.writeString(dir.resolve("libucp.so.0"), "not a shared object, only text. ".repeat(8));
        assertThat(availabilityWith(notALibrary.toString()))
                .isEqualTo("false|" + notALibrary + " cannot be loaded: " + notALibrary
                        + ": invalid ELF header (apt-get install libucx0)|{}");
    }

    /** A library whose own dependency is gone: the loader names the dependency. */
    @Test
    void aLibraryWhoseDependencyIsMissingNamesTheDependency() throws Exception {
        Path c = Files.writeString(dir.resolve("dep.c"), "int lp_dep(void) { return 1; }\n");
        Path user =
                Files.writeString(dir.resolve("user.c"), "int lp_dep(void);\nint lp_user(void) { return lp_dep(); }\n");
        Path dep = dir.resolve("liblpdep.so");
        Path lib = dir.resolve("libucp-broken.so.0");
        assertThat(CProgram.run(List.of("gcc", "-shared", "-fPIC", "-o", dep.toString(), c.toString()))
                        .exitCode())
                .isZero();
        assertThat(CProgram.run(List.of(
                                "gcc",
                                "-shared",
                                "-fPIC",
                                "-o",
                                lib.toString(),
                                user.toString(),
                                "-L" + dir,
                                "-llpdep"))
                        .exitCode())
                .isZero();
        Files.delete(dep);
        assertThat(availabilityWith(lib.toString()))
                .isEqualTo("false|" + lib + " cannot be loaded: liblpdep.so: cannot open "
                        + "shared object file: No such file or directory (apt-get install libucx0)|{}");
    }
}
