package dev.linkproof.transfer.agent;

import java.io.IOException;
import java.io.InputStream;
import java.time.Duration;
import java.time.Instant;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.Consumer;

/**
 * Watches the initiator that started this agent, so the agent never outlives it however it dies
 * (SIGTERM, SIGKILL, an OOM kill, a Surefire fork timeout). Two watches, either enough:
 * <ol>
 *   <li><b>the pipe</b>: the initiator holds the write end of the agent's standard input and never
 *       writes to it. The kernel closes it when the initiator's process ends, by whatever cause,
 *       and the agent's read returns end-of-file at once;</li>
 *   <li><b>the process</b>: every {@link #POLL} the agent checks the initiator's pid: when the
 *       initiator is its parent, that its parent is still that process (the kernel reparents the
 *       agent the moment the initiator exits, before anyone reaps it); otherwise that a process of
 *       that pid and start time still runs. It covers a pipe whose write end some other process
 *       inherited and keeps open.</li>
 * </ol>
 * Not {@code prctl(PR_SET_PDEATHSIG)}: Linux sends that signal when the <em>thread</em> that forked
 * the child ends, and in a JVM that is whichever thread called {@code ProcessBuilder.start()} (a
 * JUnit or ForkJoin worker, a re-provisioning thread) and may end while the initiator runs on,
 * which would kill a healthy agent mid-run; and a thread that ends before the child's
 * {@code prctl} call leaves the child with no watch at all.
 */
final class InitiatorWatch {
    /** How often the process watch looks. */
    static final Duration POLL = Duration.ofMillis(250);

    private final long pid;
    private final Consumer<String> onGone;
    private final AtomicBoolean fired = new AtomicBoolean();

    private InitiatorWatch(long pid, Consumer<String> onGone) {
        this.pid = pid;
        this.onGone = onGone;
    }

    /**
     * Starts both watches on daemon threads. {@code onGone} runs once, on the first that sees the
     * initiator gone, with how it was seen.
     */
    static InitiatorWatch start(long pid, InputStream pipe, Consumer<String> onGone) {
        InitiatorWatch w = new InitiatorWatch(pid, onGone);
        Thread.ofPlatform().daemon().name("initiator-pipe").start(() -> w.readUntilEnd(pipe));
        Optional<ProcessHandle> initiator = ProcessHandle.of(pid);
        boolean parent =
                ProcessHandle.current().parent().map(ProcessHandle::pid).orElse(-1L) == pid;
        Optional<Instant> started = initiator.flatMap(p -> p.info().startInstant());
        Thread.ofPlatform().daemon().name("initiator-process").start(() -> w.poll(parent, started));
        return w;
    }

    private void readUntilEnd(InputStream pipe) {
        byte[] sink = new byte[256];
        try {
            while (pipe.read(sink) >= 0) {
                // the initiator writes nothing; anything it does write is ignored
            }
            fire("its end of the agent's standard input closed");
        } catch (IOException e) {
            fire("the agent's standard input failed: " + e.getMessage());
        }
    }

    private void poll(boolean parent, Optional<Instant> started) {
        while (!fired.get()) {
            String gone = parent ? reparented() : ended(started);
            if (gone != null) {
                fire(gone);
                return;
            }
            try {
                Thread.sleep(POLL);
            } catch (InterruptedException e) {
                return;
            }
        }
    }

    private String reparented() {
        long now = ProcessHandle.current().parent().map(ProcessHandle::pid).orElse(-1L);
        return now == pid ? null : "the agent's parent is now pid " + now;
    }

    private String ended(Optional<Instant> started) {
        Optional<ProcessHandle> p = ProcessHandle.of(pid).filter(ProcessHandle::isAlive);
        if (p.isEmpty()) {
            return "no process " + pid + " runs";
        }
        if (started.isPresent() && !started.equals(p.get().info().startInstant())) {
            return "pid " + pid + " is another process now";
        }
        return null;
    }

    private void fire(String how) {
        if (fired.compareAndSet(false, true)) {
            onGone.accept("the initiator (pid " + pid + ") is gone: " + how);
        }
    }
}
