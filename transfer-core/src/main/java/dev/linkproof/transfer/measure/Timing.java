package dev.linkproof.transfer.measure;

/**
 * Raw timing of a point.
 *
 * @param totalNanos   the whole-loop timer over the timed iterations
 * @param iterations   timed iterations
 * @param latency      per-transfer average, and percentiles in latency mode
 */
public record Timing(long totalNanos, int iterations, LatencyStats latency) {}
