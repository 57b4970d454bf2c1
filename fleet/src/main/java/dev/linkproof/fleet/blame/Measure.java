package dev.linkproof.fleet.blame;

/** Which figure made a pair a fleet-relative outlier. */
public enum Measure {
    /** Below the fraction of the fleet's median bandwidth. */
    BANDWIDTH,
    /** Above the multiple of the fleet's lowest latency. */
    LATENCY
}
