package dev.linkproof.engine;

import static org.assertj.core.api.Assertions.fail;

import java.io.File;
import java.io.IOException;
import java.net.ServerSocket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Assumptions;

/**
 * Prometheus' own tools, as Debian packages them (scripts/setup.sh --test installs both): promtool
 * ({@code prometheus}) checks an exposition as Prometheus' linter does, and a real Pushgateway
 * ({@code prometheus-pushgateway}) takes a push. Where a tool is missing a test skips saying which
 * package brings it, except under CI ({@code CI} set, as .ci/run has it), where it fails: CI must
 * really run these checks.
 */
public final class PrometheusTools {
    private PrometheusTools() {}

    /** The tool on the PATH, else the test skips (fails under CI) naming the package. */
    public static Path require(String tool, String debianPackage) {
        Optional<Path> found = onPath(tool);
        if (found.isPresent()) {
            return found.get();
        }
        String why = tool + " is not on the PATH: Debian's " + debianPackage
                + " package brings it (scripts/setup.sh --test installs it)";
        if (System.getenv("CI") != null && !System.getenv("CI").isBlank()) {
            fail("CI must run this check, and " + why);
        }
        Assumptions.abort(why);
        throw new AssertionError("unreachable");
    }

    static Optional<Path> onPath(String tool) {
        for (String dir : System.getenv().getOrDefault("PATH", "/usr/bin:/bin").split(File.pathSeparator)) {
            Path p = Path.of(dir.isEmpty() ? "." : dir, tool);
            if (Files.isExecutable(p)) {
                return Optional.of(p);
            }
        }
        return Optional.empty();
    }

    /** What {@code promtool check metrics} said of a text: its exit code and output. */
    public record Check(int exit, String output) {
        public boolean passed() {
            return exit == 0;
        }
    }

    /** {@code promtool check metrics < text}. */
    public static Check promtool(String text) throws IOException, InterruptedException {
        Path promtool = require("promtool", "prometheus");
        Process p = new ProcessBuilder(promtool.toString(), "check", "metrics")
                .redirectErrorStream(true)
                .start();
        try {
            p.getOutputStream().write(text.getBytes(StandardCharsets.UTF_8));
            p.getOutputStream().close();
            String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
            if (!p.waitFor(60, TimeUnit.SECONDS)) {
                fail("promtool check metrics did not end within 60 s");
            }
            return new Check(p.exitValue(), out);
        } finally {
            p.destroyForcibly();
        }
    }

    /**
     * A Pushgateway of its own on a free loopback port, persistence off (no {@code --persistence.file}):
     * started by the test, stopped (and waited for) by {@link #close}, so no process outlives it.
     */
    public static final class Pushgateway implements AutoCloseable {
        private final Process process;
        private final int port;
        private final Path log;

        private Pushgateway(Process process, int port, Path log) {
            this.process = process;
            this.port = port;
            this.log = log;
        }

        public static Pushgateway start(Path dir) throws Exception {
            Path binary = require("prometheus-pushgateway", "prometheus-pushgateway");
            int port;
            try (ServerSocket s = new ServerSocket(0, 1, java.net.InetAddress.getLoopbackAddress())) {
                port = s.getLocalPort();
            }
            Path log = dir.resolve("pushgateway.log");
            Process p = new ProcessBuilder(binary.toString(), "--web.listen-address=127.0.0.1:" + port)
                    .redirectErrorStream(true)
                    .redirectOutput(log.toFile())
                    .start();
            Pushgateway gateway = new Pushgateway(p, port, log);
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
            while (true) {
                try {
                    if (gateway.get("/-/ready").statusCode() == 200) {
                        return gateway;
                    }
                } catch (IOException notYet) {
                    // not listening yet
                }
                if (!p.isAlive() || System.nanoTime() > deadline) {
                    gateway.close();
                    fail("the Pushgateway did not come up on 127.0.0.1:" + port + ": " + Files.readString(log));
                }
                Thread.sleep(100);
            }
        }

        public URI url() {
            return URI.create("http://127.0.0.1:" + port);
        }

        public HttpResponse<String> get(String path) throws IOException, InterruptedException {
            try (HttpClient c = HttpClient.newBuilder()
                    .connectTimeout(Duration.ofSeconds(5))
                    .build()) {
                return c.send(
                        HttpRequest.newBuilder(url().resolve(path))
                                .timeout(Duration.ofSeconds(10))
                                .build(),
                        HttpResponse.BodyHandlers.ofString());
            }
        }

        public String log() throws IOException {
            return Files.readString(log);
        }

        @Override
        public void close() throws InterruptedException {
            process.destroy();
            if (!process.waitFor(10, TimeUnit.SECONDS)) {
                process.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
            }
        }
    }
}
