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
 * (SIGTERM, SIGKILL, an OOM kill, a Surefire fork timeout). Two watches, either enough: the pipe of
 * the agent's standard input, whose write end the kernel closes when the initiator ends; and every
 * {@link #POLL} the process, for a write end another process inherited (while the initiator is the
 * agent's parent, that it still is; otherwise that a process of its pid and start time still runs).
 * Not {@code prctl(PR_SET_PDEATHSIG)}: Linux sends it when the forking <em>thread</em> ends, in a JVM
 * whichever thread called {@code ProcessBuilder.start()}, which may end while the initiator runs on.
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
