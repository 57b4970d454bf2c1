package dev.linkproof.transfer.ucx;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/** Without libucp the transport says so and why, and nothing crashes: checked in a JVM of its own. */
class UcxAbsentTest {
    /** Prints the transport's availability and the reason; run in a child JVM. */
    public static void main(String[] args) {
        var a = new UcxTransport().availability();
        System.out.println(a.available() + "|" + a.reason() + "|" + new UcxTransport().describe());
    }

    @Test
    void aMissingLibraryMakesTheTransportUnavailableWithTheReason() throws Exception {
        Process p = new ProcessBuilder(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "--enable-native-access=ALL-UNNAMED", "-D" + Ucx.LIBRARY_PROPERTY + "=libucp-absent.so.0",
                "-cp", System.getProperty("java.class.path"), UcxAbsentTest.class.getName())
                .redirectErrorStream(true).start();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8).trim();
        assertThat(p.waitFor(60, TimeUnit.SECONDS)).isTrue();
        assertThat(p.exitValue()).as(out).isZero();
        assertThat(out).isEqualTo("false|libucp-absent.so.0 not found (apt-get install libucx0)|{}");
    }
}
