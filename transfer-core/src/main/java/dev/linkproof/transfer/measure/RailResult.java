package dev.linkproof.transfer.measure;

/**
 * One rail of a point that ran several at once: its own measurement and when its timed loop ran, on
 * this JVM's {@link System#nanoTime()}, so a report can show that the rails overlapped and the
 * point's aggregate can span them.
 *
 * @param index  the rail's position, from 0
 * @param label  what the rail ran on, as a report names it ({@code rxe9}, {@code 10.1.0.1->10.1.0.2})
 */
public record RailResult(int index, String label, Measurement measurement, long loopStartNanos, long loopEndNanos) {
    /** "rail 1 (rxe9)": how a failure or a report line names it. */
    public String name() {
        return "rail " + index + " (" + label + ")";
    }
}
