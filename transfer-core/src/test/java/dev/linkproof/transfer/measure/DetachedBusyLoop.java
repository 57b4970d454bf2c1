package dev.linkproof.transfer.measure;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.TimeUnit;

/**
 * A shell busy loop that is no descendant of this JVM: the shell that starts it exits, so the loop
 * is re-parented, and the host accounting counts its CPU as another process's. Close kills it.
 * Published in transfer-core's test jar for the engine's busy-host tests.
 */
public final class DetachedBusyLoop implements AutoCloseable {
    private final long pid;

    private DetachedBusyLoop(long pid) {
        this.pid = pid;
    }

    public static DetachedBusyLoop start() throws IOException, InterruptedException {
        Process starter =
                new ProcessBuilder("sh", "-c", "sh -c 'while :; do :; done' >/dev/null 2>&1 & echo $!").start();
        long pid =
                Long.parseLong(new String(starter.getInputStream().readAllBytes(), StandardCharsets.US_ASCII).trim());
        starter.waitFor(10, TimeUnit.SECONDS);
        return new DetachedBusyLoop(pid);
    }

    public long pid() {
        return pid;
    }

    @Override
    public void close() {
        ProcessHandle.of(pid).ifPresent(ProcessHandle::destroyForcibly);
    }
}
