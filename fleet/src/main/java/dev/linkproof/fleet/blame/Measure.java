package dev.linkproof.fleet.blame;

/** The figure a point is judged on against the fleet, and so the one that makes a pair an outlier. */
public enum Measure {
    /** Below the fraction of the fleet's median bandwidth, and below its spread. */
    BANDWIDTH,
    /** Above the multiple of the fleet's lowest latency, and above its spread. */
    LATENCY
}
