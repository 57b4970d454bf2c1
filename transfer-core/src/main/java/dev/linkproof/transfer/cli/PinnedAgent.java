package dev.linkproof.transfer.cli;

import dev.linkproof.transfer.PeerFailureException;
import dev.linkproof.transfer.agent.AgentMain;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.security.SecureRandom;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.TimeUnit;

/**
 * A local target agent started under {@code taskset -c CPUS}, so it runs on other CPUs than the
 * initiator (a benchmark on one host needs that; {@link dev.linkproof.transfer.session.LocalAgent}
 * starts its agent unpinned). Same contract as LocalAgent: this JVM's runtime and class path, the
 * token in the environment, the ready line on standard output, the rest of the output to a log.
 */
final class PinnedAgent implements AutoCloseable {
    private final Process process;
    final String host;
    final int port;
    final String token;

    private PinnedAgent(Process process, String host, int port, String token) {
        this.process = process;
        this.host = host;
        this.port = port;
        this.token = token;
    }

    static PinnedAgent start(String cpus, List<String> jvmArgs, Path log, Duration timeout) throws PeerFailureException {
        byte[] raw = new byte[16];
        new SecureRandom().nextBytes(raw);
        String token = HexFormat.of().formatHex(raw);
        List<String> cmd = new ArrayList<>(List.of("taskset", "-c", cpus,
                Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "--enable-native-access=ALL-UNNAMED", "-XX:+UseSerialGC", "-Xshare:auto"));
        cmd.addAll(jvmArgs);
        cmd.addAll(List.of("-cp", System.getProperty("java.class.path"), AgentMain.class.getName(),
                "--bind=127.0.0.1", "--port=0"));
        ProcessBuilder pb = new ProcessBuilder(cmd).redirectErrorStream(true);
        pb.environment().put(AgentMain.TOKEN_ENV, token);
        Process p;
        try {
            Path parent = log.toAbsolutePath().getParent();
            if (parent != null) {
                Files.createDirectories(parent);
            }
            p = pb.start();
        } catch (IOException e) {
            throw new PeerFailureException("cannot start the target agent under taskset (is util-linux installed?): "
                    + e.getMessage(), e);
        }
        BlockingQueue<String> ready = new ArrayBlockingQueue<>(1);
        Thread.ofPlatform().daemon().name("agent-output-" + p.pid()).start(() -> pump(p, log, ready));
        String line;
        try {
            line = ready.poll(timeout.toMillis(), TimeUnit.MILLISECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            p.destroyForcibly();
            throw new PeerFailureException("interrupted while starting the target agent");
        }
        if (line == null || line.isEmpty()) {
            p.destroyForcibly();
            throw new PeerFailureException("the pinned target agent (taskset -c " + cpus + ") did not get ready within "
                    + timeout.toSeconds() + " s; see " + log.toAbsolutePath());
        }
        return new PinnedAgent(p, field(line, "host"), Integer.parseInt(field(line, "port")), token);
    }

    private static void pump(Process p, Path log, BlockingQueue<String> ready) {
        boolean signalled = false;
        try (BufferedReader r = new BufferedReader(new InputStreamReader(p.getInputStream(), StandardCharsets.UTF_8));
             Writer w = Files.newBufferedWriter(log, StandardCharsets.UTF_8, StandardOpenOption.CREATE, StandardOpenOption.APPEND)) {
            w.write("--- pinned agent pid " + p.pid() + " ---\n");
            String line;
            while ((line = r.readLine()) != null) {
                w.write(line);
                w.write('\n');
                w.flush();
                if (!signalled && line.startsWith(AgentMain.READY)) {
                    signalled = ready.offer(line);
                }
            }
        } catch (IOException e) {
            // best effort; the agent's health is judged by the control channel
        } finally {
            if (!signalled) {
                ready.offer("");
            }
        }
    }

    private static String field(String line, String name) {
        for (String part : line.split(" ")) {
            if (part.startsWith(name + "=")) {
                return part.substring(name.length() + 1);
            }
        }
        throw new IllegalStateException("agent ready line lacks " + name + ": " + line);
    }

    @Override
    public void close() {
        if (!process.isAlive()) {
            return;
        }
        process.destroy();
        try {
            if (!process.waitFor(3, TimeUnit.SECONDS)) {
                process.destroyForcibly().waitFor(3, TimeUnit.SECONDS);
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            process.destroyForcibly();
        }
    }
}
