package dev.linkproof.transfer.measure;

import java.util.Locale;

/**
 * How much CPU processes other than ours took on a host while a point ran, and whether that made it
 * busy ({@link #busy()}), as {@link HostCpuMeter} measures it. A loopback point is paced by system
 * calls and wake-ups, so another build on a 2-core host can halve it while the memory-copy baseline
 * hardly moves (best of 5 × 64 MiB: 23-26 GB/s beside two busy loops, 26-28 without).
 *
 * @param otherCpus  CPUs' worth of time other processes (and the hypervisor, as steal) took, on average
 * @param ownCpus    CPUs' worth of time this JVM, its descendants and the processes named ours took
 */
public record HostContention(double otherCpus, double ownCpus, int cpus, long wallNanos) {
    /** Other processes taking less than half a CPU never make a host busy. */
    public static final double BUSY_CPUS = 0.5;

    /**
     * True when other processes took {@link #BUSY_CPUS} or more and, with ours, left less than one
     * CPU idle on average: our threads had to wait for a CPU others held. A 128-core runner whose
     * monitoring daemons take two CPUs is not busy; a 2-core runner compiling beside the suite is.
     */
    public boolean busy() {
        return busyFor(ownCpus);
    }

    /** As {@link #busy()}, for work of ours that needs {@code ownCpus} (a rerun of an attempt that took that). */
    public boolean busyFor(double ownCpus) {
        return otherCpus >= BUSY_CPUS && cpus - otherCpus - ownCpus < 1;
    }

    /** "other processes used 1.42 of 2 CPUs (ours 1.10) over 812 ms". */
    public String describe() {
        return String.format(
                Locale.ROOT,
                "other processes used %.2f of %d CPUs (ours %.2f) over %d ms",
                otherCpus,
                cpus,
                ownCpus,
                wallNanos / 1_000_000);
    }
}
