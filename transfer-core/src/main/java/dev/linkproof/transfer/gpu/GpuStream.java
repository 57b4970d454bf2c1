package dev.linkproof.transfer.gpu;

/**
 * An ordered queue of copies on one device (a CUDA or HIP stream) plus a ring of markers (events)
 * recorded into it, so several batches can be in flight and each be waited for on its own.
 * Addresses are plain {@code long}s: device pointers as the runtime returned them, host addresses
 * as {@code MemorySegment.address()}; nothing here allocates, so the measured loop can call it.
 * Every wait is bounded by a deadline.
 */
public interface GpuStream extends AutoCloseable {
    /** The device ordinal this stream runs on. */
    int device();

    /** How many markers the ring holds (the pipeline depth it was opened for). */
    int markers();

    void copyHostToDevice(long deviceDst, long hostSrc, long bytes) throws GpuException;

    void copyDeviceToHost(long hostDst, long deviceSrc, long bytes) throws GpuException;

    void copyDeviceToDevice(long deviceDst, long deviceSrc, long bytes) throws GpuException;

    /** Records marker {@code slot} (0..markers-1) behind everything queued so far. */
    void mark(int slot) throws GpuException;

    /** Whether the work queued before marker {@code slot} has completed; never blocks. */
    boolean reached(int slot) throws GpuException;

    /** Whether everything queued on the stream has completed; never blocks. */
    boolean idle() throws GpuException;

    /**
     * Waits until marker {@code slot} is reached, spinning briefly and then yielding, and fails
     * once {@code timeoutNanos} pass with the work still queued (a hung GPU or a wedged peer).
     */
    default void await(int slot, long timeoutNanos) throws GpuException {
        waitUntilDone(slot, timeoutNanos);
    }

    /** Waits until everything queued so far has completed, within {@code timeoutNanos}. */
    default void synchronize(long timeoutNanos) throws GpuException {
        waitUntilDone(-1, timeoutNanos);
    }

    /** {@code slot} < 0 waits for the whole stream. */
    private void waitUntilDone(int slot, long timeoutNanos) throws GpuException {
        long start = 0;
        int spins = 0;
        while (!(slot < 0 ? idle() : reached(slot))) {
            long now = System.nanoTime();
            if (start == 0) {
                start = now;
            } else if (now - start >= timeoutNanos) {
                throw new GpuException(
                        api(),
                        api() + " stream on device " + device() + " did not finish its queued copies within "
                                + timeoutNanos / 1_000_000
                                + " ms (a hung GPU, or a peer mapping that no longer answers)");
            }
            // Spin first: a small copy completes in microseconds and latency points time it.
            if (++spins > 20_000) {
                Thread.yield();
            } else {
                Thread.onSpinWait();
            }
        }
    }

    /** {@code cuda} or {@code hip}. */
    String api();

    /** Destroys the markers and the stream. Idempotent. */
    @Override
    void close();
}
