package dev.linkproof.transfer.measure;

import dev.linkproof.transfer.TransferException;

/**
 * What the timed loop tells, and waits for, when it runs beside others: several rails of one point
 * start their timed loops together (each has provisioned, connected and warmed up before it
 * arrives) and report when their loops ran, so the point's aggregate is all bytes over the wall time
 * from the first start to the last end. A point of one pair uses {@link #NONE}.
 */
public interface LoopGate {
    /** Returns at once: a pair on its own. */
    LoopGate NONE = new LoopGate() {
        @Override
        public void beforeTimedLoop() {}
    };

    /** Called after warmup, right before the timed loop; returns when the loop may start. */
    void beforeTimedLoop() throws TransferException;

    /** The timed loop ran from {@code startNanos} to {@code endNanos} ({@link System#nanoTime()}). */
    default void timedLoop(long startNanos, long endNanos) {}
}
