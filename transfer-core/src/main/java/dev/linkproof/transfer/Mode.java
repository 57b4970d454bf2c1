package dev.linkproof.transfer;

/** How a point is timed (see docs/design.md, timing methodology). */
public enum Mode {
    /** One whole-loop timer; bandwidth = bytes / total, latency = total / (iterations × batch). */
    BANDWIDTH,
    /** Stop-and-wait with a sample per iteration; percentiles from the samples, perftest style. */
    LATENCY
}
