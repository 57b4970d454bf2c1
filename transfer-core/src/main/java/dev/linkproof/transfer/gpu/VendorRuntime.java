package dev.linkproof.transfer.gpu;

import static dev.linkproof.transfer.nativeaccess.StatusCalls.call;
import static java.lang.foreign.ValueLayout.JAVA_BYTE;
import static java.lang.foreign.ValueLayout.JAVA_LONG;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.StructLayout;
import java.lang.invoke.MethodHandle;
import java.util.List;
import java.util.logging.Logger;

/**
 * What the CUDA and HIP bindings do the same way — allocate, free, export and open IPC handles —
 * over each vendor's own downcalls, named in {@link Memory}. A subclass says how it makes a device
 * current on the calling thread and how it turns a status into its exception.
 */
public abstract class VendorRuntime implements GpuRuntime {
    private static final Logger LOG = Logger.getLogger(VendorRuntime.class.getName());

    /**
     * A vendor's memory and IPC calls and the names its messages use for them.
     *
     * @param ipcHandle     the by-value handle layout ({@code CUipcMemHandle}, {@code hipIpcMemHandle_t})
     * @param ipcOpenFlags  the one flag value the vendor's open call accepts
     */
    public record Memory(MethodHandle malloc, String mallocName, MethodHandle free, String freeName,
                         MethodHandle ipcGet, String ipcGetName, MethodHandle ipcOpen, String ipcOpenName,
                         MethodHandle ipcClose, String ipcCloseName, StructLayout ipcHandle, int ipcOpenFlags) {
    }

    private final List<GpuDeviceInfo> devices;

    protected VendorRuntime(List<GpuDeviceInfo> devices) {
        this.devices = devices;
    }

    protected abstract Memory memory();

    /** Makes {@code device} current on the calling thread; {@link #checkDevice} has passed. */
    protected abstract void makeCurrent(int device) throws GpuException;

    /** The vendor's exception for {@code status}, naming {@code call}. */
    protected abstract GpuException error(int status, String call);

    /** What the runtime's messages call a device ("CUDA device", "HIP device"). */
    protected abstract String deviceNoun();

    @Override
    public final List<GpuDeviceInfo> devices() {
        return devices;
    }

    protected final void check(int status, String call) throws GpuException {
        if (status != 0) {
            throw error(status, call);
        }
    }

    /** Refuses a device this process does not see, then makes it current. */
    protected final void bind(int device) throws GpuException {
        checkDevice(device);
        makeCurrent(device);
    }

    protected final void checkDevice(int device) throws GpuException {
        if (device < 0 || device >= devices.size()) {
            throw new GpuException(api(), "no " + deviceNoun() + " " + device + " (this process sees " + devices.size() + ")");
        }
    }

    @Override
    public final long allocate(int device, long bytes) throws GpuException {
        bind(device);
        try (Arena a = Arena.ofConfined()) {
            MemorySegment out = a.allocate(JAVA_LONG);
            check(call(memory().malloc(), out, bytes), memory().mallocName() + "(" + bytes + " bytes on device " + device + ")");
            return out.get(JAVA_LONG, 0);
        }
    }

    @Override
    public final void free(int device, long pointer) {
        try {
            bind(device);
            check(call(memory().free(), pointer), memory().freeName());
        } catch (GpuException e) {
            LOG.warning("cannot free device memory 0x" + Long.toHexString(pointer) + ": " + e.getMessage());
        }
    }

    @Override
    public final byte[] exportIpc(int device, long pointer) throws GpuException {
        bind(device);
        try (Arena a = Arena.ofConfined()) {
            MemorySegment handle = a.allocate(memory().ipcHandle());
            check(call(memory().ipcGet(), handle, pointer), memory().ipcGetName());
            return handle.toArray(JAVA_BYTE);
        }
    }

    @Override
    public final long openIpc(int device, byte[] handle) throws GpuException {
        long size = memory().ipcHandle().byteSize();
        if (handle.length != size) {
            throw new GpuException(api(), "a " + api() + " IPC handle has " + size + " bytes, this one " + handle.length);
        }
        bind(device);
        try (Arena a = Arena.ofConfined()) {
            MemorySegment h = a.allocate(memory().ipcHandle());
            MemorySegment.copy(handle, 0, h, JAVA_BYTE, 0, handle.length);
            MemorySegment out = a.allocate(JAVA_LONG);
            check(call(memory().ipcOpen(), out, h, memory().ipcOpenFlags()), memory().ipcOpenName());
            return out.get(JAVA_LONG, 0);
        }
    }

    @Override
    public final void closeIpc(int device, long pointer) {
        try {
            bind(device);
            check(call(memory().ipcClose(), pointer), memory().ipcCloseName());
        } catch (GpuException e) {
            LOG.warning("cannot close the IPC mapping 0x" + Long.toHexString(pointer) + ": " + e.getMessage());
        }
    }
}
