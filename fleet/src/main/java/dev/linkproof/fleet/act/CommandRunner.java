package dev.linkproof.fleet.act;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.concurrent.TimeUnit;

/**
 * Runs an {@link ActPlan}'s commands as programs (Slurm's scontrol and sinfo), one after another, each
 * under a deadline, and reports how each went; one failing does not stop the others (each node is
 * drained on its own). No shell: the argv goes to the program as it is. Output goes to a temporary file rather than a pipe, so a chatty
 * command cannot block on a full pipe while we wait for it; its tail is kept for the report.
 */
public final class CommandRunner implements Runner {
    /** How much of a command's output a report keeps. */
    static final int OUTPUT_TAIL = 4096;

    private final Duration deadline;

    public CommandRunner(Duration deadline) {
        if (deadline.isNegative() || deadline.isZero()) {
            throw new IllegalArgumentException("a deadline must be positive, not " + deadline);
        }
        this.deadline = deadline;
    }

    @Override
    public CommandOutcome run(Command c) {
        if (c.edit() != null) {
            return new CommandOutcome.NotStarted(c, "a Kubernetes API call, not a program: KubernetesApi runs it");
        }
        Path out;
        try {
            out = Files.createTempFile("linkproof-act", ".out");
        } catch (IOException e) {
            throw new UncheckedIOException("cannot create a file for a command's output", e);
        }
        try {
            Process p;
            try {
                p = new ProcessBuilder(c.argv())
                        .redirectErrorStream(true)
                        .redirectOutput(out.toFile())
                        .redirectInput(ProcessBuilder.Redirect.from(
                                Path.of("/dev/null").toFile()))
                        .start();
            } catch (IOException e) {
                return new CommandOutcome.NotStarted(
                        c,
                        e.getMessage() != null ? e.getMessage() : e.getClass().getSimpleName());
            }
            boolean ended;
            try {
                ended = p.waitFor(deadline.toMillis(), TimeUnit.MILLISECONDS);
            } catch (InterruptedException e) {
                kill(p);
                Thread.currentThread().interrupt();
                return new CommandOutcome.TimedOut(c, deadline, tail(out));
            }
            if (!ended) {
                kill(p);
                return new CommandOutcome.TimedOut(c, deadline, tail(out));
            }
            int code = p.exitValue();
            return code == 0
                    ? new CommandOutcome.Succeeded(c, tail(out))
                    : new CommandOutcome.Failed(c, code, tail(out));
        } finally {
            try {
                Files.deleteIfExists(out);
            } catch (IOException ignored) {
                // A temporary file left behind is no reason to lose the outcome.
            }
        }
    }

    /** The command and anything it started (a wrapper script's scontrol): none of them may outlive its deadline. */
    private static void kill(Process p) {
        p.descendants().forEach(ProcessHandle::destroyForcibly);
        p.destroyForcibly();
        try {
            p.waitFor(5, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    /** The last {@link #OUTPUT_TAIL} bytes, read from the end: a command may have printed far more. */
    private static String tail(Path out) {
        try (var ch = Files.newByteChannel(out)) {
            long from = Math.max(0, ch.size() - OUTPUT_TAIL);
            java.nio.ByteBuffer b = java.nio.ByteBuffer.allocate((int) (ch.size() - from));
            ch.position(from);
            while (b.hasRemaining() && ch.read(b) >= 0) {
                // read to the end
            }
            return new String(b.array(), 0, b.position(), StandardCharsets.UTF_8).strip();
        } catch (IOException e) {
            return "";
        }
    }
}
