package dev.linkproof.transfer.measure;

import java.util.ArrayList;
import java.util.List;

/**
 * When each phase of a point ran (provision, connect, warmup, timed loop, verify), so reports can
 * show them as steps with real start and stop times. Recorded outside the measured loop only.
 */
public final class Phases {
    /** One phase: wall-clock start (epoch ms, for reports) and its duration from the monotonic clock. */
    public record Phase(String name, long startEpochMillis, long nanos) {
        public long stopEpochMillis() {
            return startEpochMillis + nanos / 1_000_000;
        }
    }

    private final List<Phase> phases = new ArrayList<>();
    private String current;
    private long startMillis;
    private long startNanos;

    /** Ends the running phase, if any, and starts {@code name}. */
    public void begin(String name) {
        end();
        current = name;
        startMillis = System.currentTimeMillis();
        startNanos = System.nanoTime();
    }

    /** Ends the running phase. */
    public void end() {
        if (current != null) {
            phases.add(new Phase(current, startMillis, System.nanoTime() - startNanos));
            current = null;
        }
    }

    public List<Phase> list() {
        end();
        return List.copyOf(phases);
    }
}
