package dev.linkproof.profiles;

import dev.linkproof.transfer.probe.HardwareProbe;
import dev.linkproof.transfer.probe.ProbeReport;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URISyntaxException;
import java.net.URL;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.stream.Stream;

/** The fake host trees under {@code src/test/resources/sysfs}. */
final class FakeHosts {
    private FakeHosts() {}

    static Path root(String host) {
        URL url = FakeHosts.class.getResource("/sysfs/" + host);
        if (url == null) {
            throw new IllegalArgumentException("no fake host " + host);
        }
        try {
            return Path.of(url.toURI());
        } catch (URISyntaxException e) {
            throw new IllegalStateException(e);
        }
    }

    static ProbeReport probe(String host) {
        return new HardwareProbe(root(host)).probe();
    }

    /** A writable copy of a fake host, to change one attribute in a test. */
    static Path copy(String host, Path into) {
        Path from = root(host);
        try (Stream<Path> all = Files.walk(from)) {
            for (Path p : (Iterable<Path>) all::iterator) {
                Path to = into.resolve(from.relativize(p).toString());
                if (Files.isDirectory(p)) {
                    Files.createDirectories(to);
                } else {
                    Files.copy(p, to);
                }
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return into;
    }
}
