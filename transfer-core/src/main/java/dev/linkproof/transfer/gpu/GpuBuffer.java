package dev.linkproof.transfer.gpu;

import dev.linkproof.transfer.MemoryKind;
import dev.linkproof.transfer.MemoryPlacement;
import dev.linkproof.transfer.TransferException;
import dev.linkproof.transfer.memory.Buffer;
import dev.linkproof.transfer.memory.HostMemory;
import java.lang.foreign.MemorySegment;
import java.time.Duration;

/**
 * Device memory on one GPU, with a page-aligned host copy the pattern is written into and the
 * checksums are read from. Transports that move device memory directly (gpu-ipc, verbs through a
 * dma-buf, UCX with a memory type) use {@link #devicePointer()}; tcp stages through the host copy
 * one transfer at a time, inside its timed loop.
 */
public final class GpuBuffer implements Buffer {
    /** Bound on one staging copy; a GPU that takes longer is hung, not slow. */
    static final Duration STAGING_DEADLINE = Duration.ofSeconds(30);

    private final GpuRuntime runtime;
    private final int device;
    private final long pointer;
    private final Buffer host;
    private final GpuStream stream;
    private boolean closed;

    private GpuBuffer(GpuRuntime runtime, int device, long pointer, Buffer host, GpuStream stream) {
        this.runtime = runtime;
        this.device = device;
        this.pointer = pointer;
        this.host = host;
        this.stream = stream;
    }

    /**
     * Allocates {@code bytes} on {@code device}, rounded up to whole pages on the device (dma-buf
     * export wants page-aligned ranges), and a host copy of exactly {@code bytes}.
     */
    public static GpuBuffer allocate(GpuRuntime runtime, int device, long bytes) throws GpuException {
        if (bytes <= 0) {
            throw new IllegalArgumentException("buffer size must be positive, was " + bytes);
        }
        long rounded = (bytes + HostMemory.PAGE - 1) / HostMemory.PAGE * HostMemory.PAGE;
        long pointer = runtime.allocate(device, rounded);
        Buffer host = null;
        try {
            host = HostMemory.pageAligned(bytes);
            GpuStream stream = runtime.openStream(device, 1);
            return new GpuBuffer(runtime, device, pointer, host, stream);
        } catch (GpuException | RuntimeException | OutOfMemoryError e) {
            if (host != null) {
                host.close();
            }
            runtime.free(device, pointer);
            throw e;
        }
    }

    public GpuRuntime runtime() {
        return runtime;
    }

    public int device() {
        return device;
    }

    /** The device address of byte 0, as the runtime returned it. */
    public long devicePointer() {
        return pointer;
    }

    @Override
    public MemorySegment segment() {
        return host.segment();
    }

    @Override
    public MemoryPlacement placement() {
        return new MemoryPlacement(MemoryKind.GPU, device);
    }

    @Override
    public boolean hostViewIsCopy() {
        return true;
    }

    // Serialised: several tcp connections may stage slots of one buffer at once, on one stream.
    @Override
    public synchronized void pushHostView(long offset, long length) throws TransferException {
        check(offset, length);
        stream.copyHostToDevice(pointer + offset, host.segment().address() + offset, length);
        stream.synchronize(STAGING_DEADLINE.toNanos());
    }

    @Override
    public synchronized void pullHostView(long offset, long length) throws TransferException {
        check(offset, length);
        stream.copyDeviceToHost(host.segment().address() + offset, pointer + offset, length);
        stream.synchronize(STAGING_DEADLINE.toNanos());
    }

    private void check(long offset, long length) {
        if (closed) {
            throw new IllegalStateException("GPU buffer already freed");
        }
        if (offset < 0 || length < 0 || offset > size() - length) {
            throw new IndexOutOfBoundsException(
                    "range [" + offset + ", +" + length + ") outside the buffer of " + size() + " bytes");
        }
    }

    @Override
    public synchronized void close() {
        if (closed) {
            return;
        }
        closed = true;
        try {
            stream.close();
        } finally {
            runtime.free(device, pointer);
            host.close();
        }
    }

    @Override
    public String toString() {
        return "GPU " + device + " (" + runtime.api() + ") 0x" + Long.toHexString(pointer) + " +" + size();
    }
}
