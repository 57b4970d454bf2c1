package dev.linkproof.transfer.gpu;

import java.util.List;

/**
 * One vendor's GPU runtime, bound through FFM: the CUDA driver API ({@code libcuda.so.1}) or HIP
 * ({@code libamdhip64.so}). Everything above this interface — memory, the transports, the probe —
 * is vendor-neutral: a test never knows which one it runs on.
 *
 * <p>Device pointers are {@code long}s as the runtime returned them; they are never dereferenced in
 * Java. Calls may come from any thread: each implementation makes its device current on the
 * calling thread before it acts (the CUDA primary context, {@code hipSetDevice}).
 */
public interface GpuRuntime {
    /** Bytes of an IPC memory handle, the same in CUDA ({@code CU_IPC_HANDLE_SIZE}) and HIP. */
    int IPC_HANDLE_BYTES = 64;

    /** {@code cuda} or {@code hip}. */
    String api();

    /** {@code nvidia} or {@code amd}, as the probe names GPU vendors. */
    String vendor();

    /** The library that was loaded and its driver/runtime version, for reports. */
    String describe();

    /** The devices this process can use, in the runtime's ordinal order. */
    List<GpuDeviceInfo> devices();

    default int deviceCount() {
        return devices().size();
    }

    /** Allocates {@code bytes} of device memory on {@code device}. */
    long allocate(int device, long bytes) throws GpuException;

    /** Frees what {@link #allocate} returned; failures are logged, not thrown (it runs in cleanup). */
    void free(int device, long pointer);

    /** Opens a stream on {@code device} with a ring of {@code markers} events. */
    GpuStream openStream(int device, int markers) throws GpuException;

    /** Exports {@code pointer} (the base of an allocation) for another process: {@link #IPC_HANDLE_BYTES} bytes. */
    byte[] exportIpc(int device, long pointer) throws GpuException;

    /** Maps another process's exported allocation into this one, on {@code device}; returns its base here. */
    long openIpc(int device, byte[] handle) throws GpuException;

    /** Unmaps what {@link #openIpc} mapped; failures are logged, not thrown. */
    void closeIpc(int device, long pointer);

    /**
     * Exports {@code [pointer, pointer + bytes)} as a dma-buf file descriptor for
     * {@code ibv_reg_dmabuf_mr}; the caller closes it. Fails with the reason where the driver or the
     * runtime version cannot.
     */
    int exportDmabuf(int device, long pointer, long bytes) throws GpuException;

    /** The {@code ucs_memory_type_t} UCX knows this runtime's memory by (CUDA 1, ROCm 3). */
    int ucxMemoryType();
}
