package dev.linkproof.engine.execution;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.linkproof.transfer.measure.HostContention;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

class RerunWaitTest {
    /**
     * A busy loop outside this JVM holds a CPU throughout, so a point that needs all the others never
     * finds room: the wait gives up at its limit (other processes may add to the loop, never take
     * from it) and says the host is still busy for it.
     */
    @Test
    @Timeout(30)
    void theWaitGivesUpAtItsLimitWhileTheHostStaysBusy() throws Exception {
        assumeTrue(Files.isReadable(Path.of("/proc/stat")), "no /proc on this host");
        Process starter = new ProcessBuilder("sh", "-c", "sh -c 'while :; do :; done' >/dev/null 2>&1 & echo $!").start();
        long loop = Long.parseLong(new String(starter.getInputStream().readAllBytes(), StandardCharsets.US_ASCII).trim());
        starter.waitFor(10, TimeUnit.SECONDS);
        try {
            double need = Runtime.getRuntime().availableProcessors() - 1;
            long t0 = System.nanoTime();
            HostContention last = RerunWait.forRoom(need, Duration.ofMillis(600), Duration.ofMillis(200)).orElseThrow();
            assertThat(last.busyFor(need)).as(last.describe()).isTrue();
            assertThat((System.nanoTime() - t0) / 1e6).isBetween(550.0, 5000.0);
        } finally {
            ProcessHandle.of(loop).ifPresent(ProcessHandle::destroyForcibly);
        }
    }
}
