package dev.linkproof.transfer.libfabric;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Without a loadable libfabric the transport says so, with the dynamic loader's own error, and
 * nothing crashes; a library without this binding's symbol versions is named as such. Each case in a
 * JVM of its own (the library is loaded once per process).
 */
class LibfabricAbsentTest {
    @TempDir
    Path dir;

    /** Prints the transport's availability and the reason; run in a child JVM. */
    public static void main(String[] args) {
        var t = new LibfabricTransport();
        var a = t.availability();
        System.out.println(a.available() + "|" + a.kind() + "|" + a.reason() + "|" + t.describe() + "|"
                + FabricProvider.discover());
    }

    private static String availabilityWith(String library) throws Exception {
        Process p = new ProcessBuilder(
                        Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                        "--enable-native-access=ALL-UNNAMED",
                        "-D" + Libfabric.LIBRARY_PROPERTY + "=" + library,
                        "-cp",
                        System.getProperty("java.class.path"),
                        LibfabricAbsentTest.class.getName())
                .redirectErrorStream(true)
                .start();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8).trim();
        assertThat(p.waitFor(60, TimeUnit.SECONDS)).isTrue();
        assertThat(p.exitValue()).as(out).isZero();
        return out.lines().reduce((first, second) -> second).orElse("");
    }

    @Test
    void aMissingLibraryMakesTheTransportAbsentWithTheLoadersWords() throws Exception {
        assertThat(availabilityWith("libfabric-absent.so.1"))
                .isEqualTo("false|ABSENT|libfabric-absent.so.1 cannot be loaded: libfabric-absent.so.1: cannot open"
                        + " shared object file: No such file or directory (apt-get install libfabric1 (RHEL:"
                        + " dnf install libfabric))|{}|[]");
    }

    @Test
    void aFileThatIsNotALibrarySaysWhatTheLoaderSaid() throws Exception {
        Path notALibrary =
                Files.writeString(dir.resolve("libfabric.so.1"), "not a shared object, only text. ".repeat(8));
        assertThat(availabilityWith(notALibrary.toString()))
                .startsWith(
                        "false|ABSENT|" + notALibrary + " cannot be loaded: " + notALibrary + ": invalid ELF header");
    }

    /** Another library under the name: it lacks fi_getinfo@FABRIC_1.3, the ABI these layouts are. */
    @Test
    void aLibraryWithoutTheVersionedSymbolsIsNamedAsSuch() throws Exception {
        assertThat(availabilityWith("libc.so.6"))
                .isEqualTo("false|ABSENT|libc.so.6 lacks fi_getinfo@FABRIC_1.3, the ABI of "
                        + "libfabric API 1.17 these bindings use|{}|[]");
    }
}
