package dev.linkproof.transfer.session;

import dev.linkproof.transfer.Deadline;
import dev.linkproof.transfer.PeerFailureException;
import dev.linkproof.transfer.control.AgentProcess;
import dev.linkproof.transfer.gpu.select.GpuRuntimes;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.TimeUnit;

/**
 * A target agent in its own JVM on this host, started from this JVM's runtime and the class path of
 * {@link AgentClassPath} (in an argument file, as one argument could pass Linux's 128 KiB limit).
 * Its output goes to a log file, and the agent writes its own copy beside it ({@code --log}), which
 * keeps its last lines when this JVM dies with the pipe; the token travels in its environment, not
 * on its command line. It never outlives this JVM: it stops when its standard input, which this JVM
 * holds open, ends or this process is gone ({@code --initiator-pid}).
 */
public final class LocalAgent implements AutoCloseable {
    private final Process process;
    private final String host;
    private final int port;
    private final String token;
    private final Path log;

    private LocalAgent(Process process, String host, int port, String token, Path log) {
        this.process = process;
        this.host = host;
        this.port = port;
        this.token = token;
        this.log = log;
    }

    /**
     * The keys of a local agent's JVM options (space-separated) and log file, declared here, where
     * the agent is started, and listed among the engine's keys by reference; VerbsBenchMain reads them
     * too. Default JVM options {@value #DEFAULT_JVM_ARGS}.
     */
    public static final String JVM_ARGS_KEY = "linkproof.agent.jvmArgs";

    public static final String LOG_KEY = "linkproof.agent.log";
    public static final String DEFAULT_JVM_ARGS = "-Xmx256m";

    /**
     * Starts an agent and waits for its ready line.
     *
     * @param jvmArgs extra JVM options for the agent (heap, CPU pinning wrappers go elsewhere)
     * @param log     file that receives the agent's output
     */
    public static LocalAgent start(List<String> jvmArgs, Path log, Duration startTimeout) throws PeerFailureException {
        return start(jvmArgs, java.util.Map.of(), log, startTimeout);
    }

    /**
     * As {@link #start(List, Path, Duration)}, with extra environment variables for the agent (a
     * profile's transport environment, e.g. {@code UCX_NET_DEVICES}).
     */
    public static LocalAgent start(
            List<String> jvmArgs, java.util.Map<String, String> environment, Path log, Duration startTimeout)
            throws PeerFailureException {
        return start(List.of(), jvmArgs, environment, log, startTimeout);
    }

    /**
     * As {@link #start(List, java.util.Map, Path, Duration)}, run through {@code launcher}: a command
     * prefix such as {@code taskset -c 1}, so a benchmark's agent runs on other CPUs than its initiator.
     */
    public static LocalAgent start(
            List<String> launcher,
            List<String> jvmArgs,
            java.util.Map<String, String> environment,
            Path log,
            Duration startTimeout)
            throws PeerFailureException {
        return start(launcher, "127.0.0.1", jvmArgs, environment, log, startTimeout);
    }

    /**
     * As {@link #start(List, List, java.util.Map, Path, Duration)}, listening on {@code bind} instead of
     * 127.0.0.1: for a launcher that puts the agent in another network namespace
     * ({@code ip netns exec NS}), where this host's loopback is not the initiator's.
     */
    public static LocalAgent start(
            List<String> launcher,
            String bind,
            List<String> jvmArgs,
            java.util.Map<String, String> environment,
            Path log,
            Duration startTimeout)
            throws PeerFailureException {
        String token = AgentProcess.newToken();
        List<String> cmd = new ArrayList<>(launcher);
        cmd.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
        cmd.add("--enable-native-access=ALL-UNNAMED");
        cmd.add("-XX:+UseSerialGC");
        cmd.add("-Xshare:auto");
        // The agent runs on this host: it loads the GPU runtime, the UCX and libfabric libraries and the
        // libfabric provider this JVM was told to (its own options win).
        List<String> inherited = new ArrayList<>(GpuRuntimes.jvmOptions());
        for (String key : List.of(
                dev.linkproof.transfer.ucx.Ucx.LIBRARY_PROPERTY,
                dev.linkproof.transfer.libfabric.Libfabric.LIBRARY_PROPERTY,
                dev.linkproof.transfer.libfabric.LibfabricSettings.PROVIDER_PROPERTY)) {
            String value = System.getProperty(key);
            if (value != null && !value.isBlank()) {
                inherited.add("-D" + key + "=" + value);
            }
        }
        for (String option : inherited) {
            String key = option.substring(0, option.indexOf('=') + 1);
            if (jvmArgs.stream().noneMatch(a -> a.startsWith(key))) {
                cmd.add(option);
            }
        }
        cmd.addAll(jvmArgs);
        // In an @argfile, not as one argument: Linux refuses to exec an argument over 128 KiB
        // (MAX_ARG_STRLEN), and a class path of a few hundred jars in a deep repository passes that.
        Path argFile = classPathArgFile(AgentClassPath.of(LocalAgent.class.getClassLoader()));
        cmd.add("@" + argFile);
        cmd.add(AgentProcess.MAIN_CLASS);
        cmd.add("--bind=" + bind);
        cmd.add("--port=0");
        // Its own copy of its output, which its last lines reach even when this JVM died with the pipe.
        cmd.add("--log=" + ownLogPattern(log));
        // The agent ends with this JVM however it dies: it watches this process and the end of its
        // standard input, whose write end only this process holds (the default pipe, never written).
        cmd.add("--initiator-pid=" + ProcessHandle.current().pid());
        ProcessBuilder pb = new ProcessBuilder(cmd).redirectErrorStream(true);
        pb.environment().putAll(environment);
        pb.environment().put(AgentProcess.TOKEN_ENV, token);
        try {
            // The agent's launcher reads the argument file before its JVM starts: once it is ready,
            // or has failed, the file has served.
            return start(pb, cmd, token, log, startTimeout);
        } finally {
            try {
                Files.deleteIfExists(argFile);
            } catch (IOException e) {
                argFile.toFile().deleteOnExit();
            }
        }
    }

    private static LocalAgent start(ProcessBuilder pb, List<String> cmd, String token, Path log, Duration startTimeout)
            throws PeerFailureException {
        Process p;
        try {
            Files.createDirectories(log.toAbsolutePath().getParent());
            p = pb.start();
        } catch (IOException e) {
            throw new PeerFailureException(
                    "cannot start the target agent (" + cmd.getFirst() + "): " + e.getMessage(), e);
        }
        BlockingQueue<String> ready = new ArrayBlockingQueue<>(1);
        Process started = p;
        List<String> firstLines = new java.util.concurrent.CopyOnWriteArrayList<>();
        Thread.ofPlatform().daemon().name("agent-output-" + p.pid()).start(() -> pump(started, log, ready, firstLines));
        String line;
        try {
            line = ready.poll(startTimeout.toMillis(), TimeUnit.MILLISECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            p.destroyForcibly();
            throw new PeerFailureException("interrupted while starting the target agent");
        }
        if (line != null && line.isEmpty()) {
            // Its output ended without the ready line: it exited (or is about to), usually saying why.
            try {
                p.waitFor(2, TimeUnit.SECONDS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
        if (line == null || line.isEmpty()) {
            boolean exited = !p.isAlive();
            p.destroyForcibly();
            String said = firstLines.isEmpty() ? "" : ": " + String.join(" | ", firstLines);
            if (exited) {
                throw new PeerFailureException("the target agent exited with " + exitCode(p) + " before it was ready"
                        + said + "; see " + log.toAbsolutePath());
            }
            throw new PeerFailureException("the target agent did not get ready within " + startTimeout.toMillis()
                            + " ms" + said + "; see " + log.toAbsolutePath())
                    .expired(Deadline.AGENT_START);
        }
        int port = Integer.parseInt(field(line, "port"));
        return new LocalAgent(p, field(line, "host"), port, token, log);
    }

    /**
     * A JVM argument file ({@code java @file}) holding {@code -cp} and the class path, readable by
     * this user only, deleted once the agent has started (or failed to), and at this JVM's exit should
     * that not come. Quoted as the launcher reads such files: backslash escapes within the quotes.
     */
    private static Path classPathArgFile(String classPath) throws PeerFailureException {
        try {
            Path f = Files.createTempFile("linkproof-agent-", ".args");
            f.toFile().deleteOnExit();
            String quoted = classPath.replace("\\", "\\\\").replace("\"", "\\\"");
            Files.writeString(f, "-cp\n\"" + quoted + "\"\n", StandardCharsets.UTF_8);
            return f;
        } catch (IOException e) {
            throw new PeerFailureException(
                    "cannot write the target agent's class path to a file in " + System.getProperty("java.io.tmpdir")
                            + ": " + e.getMessage(),
                    e);
        }
    }

    /**
     * Where an agent logging to {@code log} writes its own copy of its output: beside it, with its
     * pid ({@code linkproof-agent.log} gives {@code linkproof-agent-<pid>.log}); {@code %p} is the
     * pid for the agent's {@code --log}.
     */
    private static String ownLogPattern(Path log) {
        Path abs = log.toAbsolutePath();
        String name = abs.getFileName().toString();
        String stem = name.endsWith(".log") ? name.substring(0, name.length() - 4) : name;
        return abs.resolveSibling(stem + "-%p.log").toString();
    }

    /** The agent's own log file ({@link #ownLogPattern}) for the agent of {@code pid}. */
    static Path ownLog(Path log, long pid) {
        return Path.of(ownLogPattern(log).replace("%p", Long.toString(pid)));
    }

    /** How many of an agent's first output lines a failed start quotes. */
    private static final int QUOTED_LINES = 3;

    private static void pump(Process p, Path log, BlockingQueue<String> ready, List<String> firstLines) {
        boolean signalled = false;
        try (BufferedReader r = new BufferedReader(new InputStreamReader(p.getInputStream(), StandardCharsets.UTF_8));
                Writer w = Files.newBufferedWriter(
                        log, StandardCharsets.UTF_8, StandardOpenOption.CREATE, StandardOpenOption.APPEND)) {
            w.write("--- agent pid " + p.pid() + " ---\n");
            String line;
            while ((line = r.readLine()) != null) {
                w.write(line);
                w.write('\n');
                w.flush();
                if (!signalled && line.startsWith(AgentProcess.READY)) {
                    signalled = ready.offer(line);
                } else if (!signalled && firstLines.size() < QUOTED_LINES && !line.isBlank()) {
                    firstLines.add(line.strip());
                }
            }
        } catch (IOException e) {
            // the agent's output is best effort; its health is judged by the control channel
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

    private static String exitCode(Process p) {
        try {
            return Integer.toString(p.exitValue());
        } catch (IllegalThreadStateException e) {
            return "?";
        }
    }

    public String host() {
        return host;
    }

    public int port() {
        return port;
    }

    public String token() {
        return token;
    }

    public long pid() {
        return process.pid();
    }

    public Path log() {
        return log;
    }

    public boolean alive() {
        return process.isAlive();
    }

    /** Stops the agent: politely first (3 s for its orderly stop), then forcibly; bounded. */
    @Override
    public void close() {
        close(java.time.Duration.ofSeconds(3));
    }

    /**
     * Stops the agent: SIGTERM, then SIGKILL once {@code grace} has passed. After a peer failure the
     * agent may be stopped (SIGSTOP) or wedged, and would ignore SIGTERM: a short grace there keeps
     * the failure from being reported that much later.
     */
    public void close(java.time.Duration grace) {
        if (process.isAlive()) {
            process.destroy();
            try {
                if (!process.waitFor(grace.toMillis(), TimeUnit.MILLISECONDS)) {
                    process.destroyForcibly().waitFor(3, TimeUnit.SECONDS);
                }
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                process.destroyForcibly();
            }
        }
        if (!process.isAlive()) {
            // This JVM read all the agent said into the log: its own copy is only for an agent whose
            // initiator died first, so one left behind says that is what happened.
            Path own = ownLog(log, process.pid());
            try {
                Files.deleteIfExists(own);
                Files.deleteIfExists(own.resolveSibling(own.getFileName() + ".1"));
            } catch (IOException e) {
                // a stale copy of lines the log has anyway
            }
        }
    }
}
