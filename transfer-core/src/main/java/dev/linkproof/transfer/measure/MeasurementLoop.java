package dev.linkproof.transfer.measure;

import dev.linkproof.transfer.Mode;
import dev.linkproof.transfer.TransferException;
import dev.linkproof.transfer.TransferSpec;
import dev.linkproof.transfer.spi.DataPath;
import org.HdrHistogram.Histogram;

/**
 * The timed loop, matching nixlbench and MORI-IO's bench_engine so numbers compare: untimed warmup,
 * one whole-loop timer, at most {@code pipelineDepth} batches in flight. Latency mode times each
 * stop-and-wait iteration into a histogram instead. Nothing here allocates per iteration.
 */
public final class MeasurementLoop {
    private static final long HISTOGRAM_MAX_NANOS = 3_600_000_000_000L;
    /**
     * Warmup batches per call of the timed loop's method. A loop compiled while its one call had never
     * left it traps when it leaves (PrintCompilation: made not entrant at the end of a point), and the
     * next point then ran interpreted; leaving it every 256 batches in the warmup keeps the exit in.
     */
    private static final int WARMUP_CHUNK = 256;

    private MeasurementLoop() {}

    public static Timing run(DataPath path, TransferSpec spec) throws TransferException {
        return run(path, spec, new Phases());
    }

    /** As {@link #run(DataPath, TransferSpec)}, recording the warmup and timed phases. */
    public static Timing run(DataPath path, TransferSpec spec, Phases phases) throws TransferException {
        return run(path, spec, phases, LoopGate.NONE);
    }

    /**
     * As {@link #run(DataPath, TransferSpec, Phases)}, the timed loop started when {@code gate} lets it
     * (a phase "start barrier" while it waits, where it is not {@link LoopGate#NONE}) and its time
     * window told to the gate.
     */
    public static Timing run(DataPath path, TransferSpec spec, Phases phases, LoopGate gate) throws TransferException {
        phases.begin("warmup");
        if (spec.mode() == Mode.LATENCY) {
            // The warmup runs the timed loop's own code, its histogram thrown away: a latency the JIT has
            // not seen yet (the first point of a larger size) deoptimizes the compiled loop here, not in
            // the timed loop, where it cost the first 4 KiB point a third of its average (bench/history).
            Histogram scratch = new Histogram(1, HISTOGRAM_MAX_NANOS, 3);
            for (int done = 0; done < spec.warmup(); done += WARMUP_CHUNK) {
                timeEach(path, Math.min(WARMUP_CHUNK, spec.warmup() - done), scratch);
            }
            Histogram histogram = new Histogram(1, HISTOGRAM_MAX_NANOS, 3);
            awaitStart(phases, gate);
            phases.begin("timed loop");
            long start = System.nanoTime();
            long total = timeEach(path, spec.iterations(), histogram);
            gate.timedLoop(start, System.nanoTime());
            phases.end();
            // A latency sample covers one whole batch; per-transfer figures divide by the batch.
            double perTransfer = (double) total / ((double) spec.iterations() * spec.batch());
            return new Timing(total, spec.iterations(), LatencyStats.of(histogram, perTransfer));
        }
        for (int done = 0; done < spec.warmup(); done += WARMUP_CHUNK) {
            pipelined(path, Math.min(WARMUP_CHUNK, spec.warmup() - done), spec.pipelineDepth());
        }
        awaitStart(phases, gate);
        phases.begin("timed loop");
        long start = System.nanoTime();
        pipelined(path, spec.iterations(), spec.pipelineDepth());
        long end = System.nanoTime();
        long total = end - start;
        gate.timedLoop(start, end);
        phases.end();
        double perTransfer = (double) total / ((double) spec.iterations() * spec.batch());
        return new Timing(total, spec.iterations(), LatencyStats.averageOnly(perTransfer));
    }

    private static void awaitStart(Phases phases, LoopGate gate) throws TransferException {
        if (gate != LoopGate.NONE) {
            phases.begin("start barrier");
            gate.beforeTimedLoop();
        }
    }

    /**
     * How many batches one point posts: warmup, the timed iterations and the verification pass
     * ({@link #once}). The verification batch is the last of them (1-based: this number).
     */
    public static long batchesPerPoint(TransferSpec spec) {
        return (long) spec.warmup() + spec.iterations() + 1;
    }

    /** Runs exactly one more batch, stop-and-wait: the verification pass. */
    public static void once(DataPath path) throws TransferException {
        path.post();
        path.awaitOldest();
    }

    private static void pipelined(DataPath path, int iterations, int depth) throws TransferException {
        int inFlight = 0;
        for (int i = 0; i < iterations; i++) {
            if (inFlight == depth) {
                path.awaitOldest();
                inFlight--;
            }
            path.post();
            inFlight++;
        }
        while (inFlight > 0) {
            path.awaitOldest();
            inFlight--;
        }
    }

    /**
     * Times each of {@code iterations} stop-and-wait batches into {@code histogram}; their total nanoseconds.
     * One clock read per batch, as perftest's latency tests take one timestamp per iteration: a batch's
     * sample runs from the previous batch's end to its own, so the samples tile the loop (their sum is
     * its time) and the previous sample's recording (nanoseconds) is in it. Two reads per batch cost a
     * 24 ns {@code System.nanoTime()} more per sample on this project's VMs, 3 % of a 4 KiB shm write.
     */
    private static long timeEach(DataPath path, int iterations, Histogram histogram) throws TransferException {
        long start = System.nanoTime();
        long previous = start;
        for (int i = 0; i < iterations; i++) {
            path.post();
            path.awaitOldest();
            long now = System.nanoTime();
            long dt = now - previous;
            previous = now;
            histogram.recordValue(Math.max(1, Math.min(dt, HISTOGRAM_MAX_NANOS)));
        }
        return previous - start;
    }
}
