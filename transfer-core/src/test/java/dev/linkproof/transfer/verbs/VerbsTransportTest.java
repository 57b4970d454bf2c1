package dev.linkproof.transfer.verbs;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.linkproof.transfer.spi.Transports;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class VerbsTransportTest {
    @TempDir
    Path dir;

    @Test
    void isFoundThroughTheServiceLoaderAndCallsItsConnectionsQps() {
        var t = Transports.discover().require(VerbsTransport.ID);
        assertThat(t).isInstanceOf(VerbsTransport.class);
        assertThat(t.connectionNoun()).isEqualTo("QP");
    }

    /** On a machine without RDMA devices the reason says so, and it comes from sysfs alone. */
    @Test
    void withoutAnRdmaDeviceAvailabilitySaysNoRdmaDevice() {
        assumeTrue(DeviceChooser.system().noDeviceReason() != null, "this machine has an RDMA device");
        var a = new VerbsTransport().availability();
        assertThat(a.available()).isFalse();
        assertThat(a.reason()).startsWith("no RDMA device: ");
    }

    /**
     * A device in sysfs and a library that cannot be loaded: the reason is the library's, once; the
     * engine puts "verbs unavailable: " before it (it said "verbs unavailable: unavailable: ...").
     */
    @Test
    void aLibraryThatCannotBeLoadedIsTheWholeReason() throws Exception {
        Files.createDirectories(dir.resolve("sys/class/infiniband/rxe0"));
        var a = VerbsTransport.probe(
                new DeviceChooser(dir), () -> Optional.of("libibverbs.so.1 cannot be loaded: why"));
        assertThat(a.available()).isFalse();
        assertThat(a.reason()).isEqualTo("libibverbs.so.1 cannot be loaded: why");
    }

    /**
     * Prints what {@link LibIbverbs} says of the library, and the transport's reason with a sysfs
     * device at args[0]; run in a child JVM.
     */
    public static void main(String[] args) {
        System.out.println("library|" + LibIbverbs.unavailable().orElse("loaded"));
        System.out.println("transport|"
                + VerbsTransport.probe(new DeviceChooser(Path.of(args[0])), LibIbverbs::unavailable)
                        .reason());
    }

    /**
     * A libibverbs.so.1 the loader finds first and cannot load: the reason carries the loader's own
     * error (the JDK's was only "Cannot open library"), and the transport's reason is that, once.
     */
    @Test
    void aLibraryTheLoaderCannotLoadSaysWhatTheLoaderSaid() throws Exception {
        Path libs = Files.createDirectories(dir.resolve("lib"));
        Path bogus = Files.writeString(libs.resolve(LibIbverbs.LIBRARY), "not a shared object, only text. ".repeat(8));
        Path root = dir.resolve("root");
        Files.createDirectories(root.resolve("sys/class/infiniband/rxe0"));
        ProcessBuilder pb = new ProcessBuilder(
                        Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                        "--enable-native-access=ALL-UNNAMED",
                        "-cp",
                        System.getProperty("java.class.path"),
                        VerbsTransportTest.class.getName(),
                        root.toString())
                .redirectErrorStream(true);
        pb.environment().put("LD_LIBRARY_PATH", libs.toString());
        Process p = pb.start();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertThat(p.waitFor(60, TimeUnit.SECONDS)).isTrue();
        assertThat(p.exitValue()).as(out).isZero();
        String why = "libibverbs.so.1 cannot be loaded: " + bogus
                + ": invalid ELF header (install Debian's libibverbs1 " + "and ibverbs-providers)";
        assertThat(out).contains("library|" + why + "\n").contains("transport|" + why + "\n");
    }
}
