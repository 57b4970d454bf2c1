package dev.linkproof.engine.run;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.linkproof.transfer.measure.DetachedBusyLoop;
import dev.linkproof.transfer.measure.HostContention;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
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
        try (DetachedBusyLoop _ = DetachedBusyLoop.start()) {
            double need = Runtime.getRuntime().availableProcessors() - 1;
            long t0 = System.nanoTime();
            HostContention last = RerunWait.forRoom(
                            RerunWait.THIS_HOST, need, Duration.ofMillis(600), Duration.ofMillis(200))
                    .orElseThrow();
            assertThat(last.busyFor(need)).as(last.describe()).isTrue();
            assertThat((System.nanoTime() - t0) / 1e6).isBetween(550.0, 5000.0);
        }
    }

    private static final HostContention BUSY = new HostContention(1.4, 0.0, 2, 250_000_000L);
    private static final HostContention ROOM = new HostContention(0.2, 0.0, 2, 250_000_000L);

    /** The target's agent is looked at the same way, through whatever answers the look. */
    @Test
    void itLooksUntilThereIsRoomAndNoLonger() throws Exception {
        java.util.Deque<HostContention> answers = new java.util.ArrayDeque<>(java.util.List.of(BUSY, BUSY, ROOM, BUSY));
        java.util.List<Duration> asked = new java.util.ArrayList<>();
        RerunWait.Look look = window -> {
            asked.add(window);
            return java.util.Optional.of(answers.pop());
        };
        assertThat(RerunWait.forRoom(look, 0.8, Duration.ofSeconds(10), Duration.ofMillis(250)))
                .contains(ROOM);
        assertThat(asked).containsExactly(Duration.ofMillis(250), Duration.ofMillis(250), Duration.ofMillis(250));
    }

    @Test
    void aHostThatCannotBeMeasuredIsLookedAtOnce() throws Exception {
        int[] looks = {0};
        assertThat(RerunWait.forRoom(
                        window -> {
                            looks[0]++;
                            return java.util.Optional.empty();
                        },
                        0.8,
                        Duration.ofSeconds(10),
                        Duration.ofMillis(250)))
                .isEmpty();
        assertThat(looks[0]).isEqualTo(1);
    }

    @Test
    void aHostThatStaysBusyIsGivenUpOnAtTheLimit() throws Exception {
        long t0 = System.nanoTime();
        RerunWait.Look slowBusy = window -> {
            Thread.sleep(window);
            return java.util.Optional.of(BUSY);
        };
        assertThat(RerunWait.forRoom(slowBusy, 0.8, Duration.ofMillis(300), Duration.ofMillis(100)))
                .contains(BUSY);
        assertThat((System.nanoTime() - t0) / 1e6).isBetween(300.0, 3000.0);
    }
}
