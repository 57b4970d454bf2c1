package dev.linkproof.transfer.gpu.hip;

import static dev.linkproof.transfer.nativeaccess.StatusCalls.call;
import static java.lang.foreign.ValueLayout.ADDRESS;
import static java.lang.foreign.ValueLayout.JAVA_BYTE;
import static java.lang.foreign.ValueLayout.JAVA_INT;
import static java.lang.foreign.ValueLayout.JAVA_LONG;

import dev.linkproof.transfer.gpu.EventRingStream;
import dev.linkproof.transfer.gpu.GpuDeviceInfo;
import dev.linkproof.transfer.gpu.GpuException;
import dev.linkproof.transfer.gpu.GpuStream;
import dev.linkproof.transfer.gpu.VendorRuntime;
import dev.linkproof.transfer.nativeaccess.NativeLibrary;
import dev.linkproof.transfer.nativeaccess.StatusCalls;
import java.lang.foreign.Arena;
import java.lang.foreign.FunctionDescriptor;
import java.lang.foreign.MemoryLayout;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.StructLayout;
import java.lang.invoke.MethodHandle;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Optional;

/**
 * HIP ({@code libamdhip64.so}, ROCm 5 and 6) through hand-written FFM bindings: the same operations
 * as the CUDA binding, so the transports above cannot tell them apart. HIP keeps a current device
 * per thread; every call sets it first.
 *
 * <p>One difference between ROCm releases matters: {@code hipIpcMemLazyEnablePeerAccess} is 0 in
 * ROCm 5's headers and 1 in ROCm 6's, and ROCm 6 refuses any other flag, so the flag follows the
 * loaded runtime's version. Constants are checked against Debian's {@code libamdhip64-dev}
 * headers by {@code HipAbiTest}.
 */
public final class HipRuntime extends VendorRuntime {
    public static final String API = "hip";

    // hipError_t
    public static final int HIP_SUCCESS = 0;
    public static final int HIP_ERROR_NOT_READY = 600;
    // hipMemcpyKind
    public static final int HIP_MEMCPY_HOST_TO_DEVICE = 1;
    public static final int HIP_MEMCPY_DEVICE_TO_HOST = 2;
    public static final int HIP_MEMCPY_DEVICE_TO_DEVICE = 3;
    /** hipMemcpyKind by EventRingStream's copy direction. */
    private static final int[] KIND = new int[4];

    static {
        KIND[EventRingStream.HOST_TO_DEVICE] = HIP_MEMCPY_HOST_TO_DEVICE;
        KIND[EventRingStream.DEVICE_TO_HOST] = HIP_MEMCPY_DEVICE_TO_HOST;
        KIND[EventRingStream.DEVICE_TO_DEVICE] = HIP_MEMCPY_DEVICE_TO_DEVICE;
    }
    // flags
    public static final int HIP_STREAM_NON_BLOCKING = 1;
    public static final int HIP_EVENT_DISABLE_TIMING = 2;
    public static final int HIP_MEM_RANGE_HANDLE_TYPE_DMA_BUF_FD = 1;
    public static final int HIP_IPC_HANDLE_SIZE = 64;
    /** HIP_VERSION of ROCm 6.0: from there on hipIpcMemLazyEnablePeerAccess is 1. */
    static final int ROCM6 = 60_000_000;
    // ucs_memory_type_t of ROCm device memory
    public static final int UCS_MEMORY_TYPE_ROCM = 3;

    /** {@code hipIpcMemHandle_t}: 64 opaque bytes, passed by value to hipIpcOpenMemHandle. */
    static final StructLayout IPC_HANDLE = MemoryLayout.structLayout(
            MemoryLayout.sequenceLayout(HIP_IPC_HANDLE_SIZE, JAVA_BYTE).withName("reserved")).withName("hipIpcMemHandle_t");

    /** The constants and sizes the binding depends on, as {@code HipAbiTest} compares them with hip_runtime_api.h. */
    static java.util.Map<String, Long> abiFacts(int headerVersion) {
        java.util.Map<String, Long> f = new java.util.LinkedHashMap<>();
        f.put("const.hipSuccess", (long) HIP_SUCCESS);
        f.put("const.hipErrorNotReady", (long) HIP_ERROR_NOT_READY);
        f.put("const.hipMemcpyHostToDevice", (long) HIP_MEMCPY_HOST_TO_DEVICE);
        f.put("const.hipMemcpyDeviceToHost", (long) HIP_MEMCPY_DEVICE_TO_HOST);
        f.put("const.hipMemcpyDeviceToDevice", (long) HIP_MEMCPY_DEVICE_TO_DEVICE);
        f.put("const.hipStreamNonBlocking", (long) HIP_STREAM_NON_BLOCKING);
        f.put("const.hipEventDisableTiming", (long) HIP_EVENT_DISABLE_TIMING);
        f.put("const.HIP_IPC_HANDLE_SIZE", (long) HIP_IPC_HANDLE_SIZE);
        f.put("const.hipIpcMemLazyEnablePeerAccess", (long) lazyPeerAccessFlag(headerVersion));
        f.put("sizeof.hipIpcMemHandle_t", IPC_HANDLE.byteSize());
        // Passed as JAVA_LONG (pointers, streams, events) and JAVA_INT (hipError_t, hipDevice_t).
        f.put("sizeof.hipStream_t", JAVA_LONG.byteSize());
        f.put("sizeof.hipEvent_t", JAVA_LONG.byteSize());
        f.put("sizeof.hipError_t", JAVA_INT.byteSize());
        f.put("sizeof.hipDevice_t", JAVA_INT.byteSize());
        return f;
    }

    private final String library;
    private final Calls hip;
    private final int runtimeVersion;
    private final Memory memory;

    private HipRuntime(String library, Calls hip, int runtimeVersion, List<GpuDeviceInfo> devices) {
        super(devices);
        this.library = library;
        this.hip = hip;
        this.runtimeVersion = runtimeVersion;
        this.memory = new Memory(hip.malloc, "hipMalloc", hip.free, "hipFree", hip.ipcGetMemHandle, "hipIpcGetMemHandle",
                hip.ipcOpenMemHandle, "hipIpcOpenMemHandle", hip.ipcCloseMemHandle, "hipIpcCloseMemHandle", IPC_HANDLE,
                lazyPeerAccessFlag(runtimeVersion));
    }

    /** Loads the first of {@code libraries} found, initialises HIP and lists the devices; fails with the reason. */
    public static HipRuntime load(List<String> libraries) {
        NativeLibrary lib = NativeLibrary.open(libraries, "ROCm provides it; Debian: apt-get install libamdhip64-5");
        Calls hip = new Calls(lib);
        try (Arena a = Arena.ofConfined()) {
            MemorySegment out = a.allocate(JAVA_INT);
            int init = call(hip.init, 0);
            if (init != HIP_SUCCESS) {
                // hipInit reports a missing GPU as an invalid device; the count says it plainly.
                int rc = call(hip.getDeviceCount, out);
                String count = rc == HIP_SUCCESS ? "" : "; hipGetDeviceCount: " + hip.name(rc) + " (" + hip.text(rc) + ")";
                throw new IllegalStateException("hipInit: " + hip.name(init) + " (" + hip.text(init) + ")" + count);
            }
            hip.check(call(hip.runtimeGetVersion, out), "hipRuntimeGetVersion");
            int version = out.get(JAVA_INT, 0);
            hip.check(call(hip.getDeviceCount, out), "hipGetDeviceCount");
            int count = out.get(JAVA_INT, 0);
            if (count == 0) {
                throw new IllegalStateException("hipGetDeviceCount found no HIP device");
            }
            List<GpuDeviceInfo> devices = new ArrayList<>();
            for (int i = 0; i < count; i++) {
                devices.add(hip.deviceInfo(a, i));
            }
            return new HipRuntime(lib.name(), hip, version, List.copyOf(devices));
        } catch (GpuException e) {
            throw new IllegalStateException(e.getMessage(), e);
        }
    }

    @Override
    public String api() {
        return API;
    }

    @Override
    public String vendor() {
        return "amd";
    }

    @Override
    public String describe() {
        return "HIP " + runtimeVersion / 10_000_000 + "." + runtimeVersion / 100_000 % 100 + " (" + library + ")";
    }

    @Override
    protected Memory memory() {
        return memory;
    }

    @Override
    protected String deviceNoun() {
        return "HIP device";
    }

    @Override
    protected GpuException error(int status, String call) {
        return hip.error(status, call);
    }

    /** The flag hipIpcOpenMemHandle accepts from a runtime of {@code version} (HIP_VERSION). */
    static int lazyPeerAccessFlag(int version) {
        return version >= ROCM6 ? 1 : 0;
    }

    @Override
    public GpuStream openStream(int device, int markers) throws GpuException {
        bind(device);
        return EventRingStream.open(new EventRingStream.Vendor(API, HIP_ERROR_NOT_READY,
                hip.streamCreateWithFlags, HIP_STREAM_NON_BLOCKING, hip.streamDestroy, hip.streamQuery,
                hip.eventCreateWithFlags, HIP_EVENT_DISABLE_TIMING, hip.eventDestroy, hip.eventRecord, hip.eventQuery,
                () -> call(hip.setDevice, device),
                (direction, dst, src, bytes, stream) -> call(hip.memcpyAsync, dst, src, bytes, KIND[direction], stream),
                List.of("", "hipMemcpyAsync(HostToDevice)", "hipMemcpyAsync(DeviceToHost)", "hipMemcpyAsync(DeviceToDevice)"),
                hip::error), device, markers);
    }

    @Override
    public int exportDmabuf(int device, long pointer, long bytes) throws GpuException {
        if (hip.getHandleForAddressRange.isEmpty()) {
            throw new GpuException(API, library + " (" + describe() + ") lacks hipMemGetHandleForAddressRange: dma-buf export needs ROCm 6.2 or newer");
        }
        bind(device);
        try (Arena a = Arena.ofConfined()) {
            MemorySegment fd = a.allocate(JAVA_INT);
            hip.check(call(hip.getHandleForAddressRange.get(), fd, pointer, bytes, HIP_MEM_RANGE_HANDLE_TYPE_DMA_BUF_FD, 0L),
                    "hipMemGetHandleForAddressRange(DmaBufFd)");
            return fd.get(JAVA_INT, 0);
        }
    }

    @Override
    public int ucxMemoryType() {
        return UCS_MEMORY_TYPE_ROCM;
    }

    @Override
    protected void makeCurrent(int device) throws GpuException {
        hip.check(call(hip.setDevice, device), "hipSetDevice(" + device + ")");
    }

    /** The downcalls, with the error-code translation every caller needs. */
    static final class Calls {
        final MethodHandle init;
        final MethodHandle runtimeGetVersion;
        final MethodHandle getDeviceCount;
        final MethodHandle deviceGet;
        final MethodHandle deviceGetName;
        final MethodHandle deviceGetPciBusId;
        final MethodHandle deviceTotalMem;
        final MethodHandle setDevice;
        final MethodHandle malloc;
        final MethodHandle free;
        final MethodHandle streamCreateWithFlags;
        final MethodHandle streamDestroy;
        final MethodHandle streamQuery;
        final MethodHandle eventCreateWithFlags;
        final MethodHandle eventDestroy;
        final MethodHandle eventRecord;
        final MethodHandle eventQuery;
        final MethodHandle memcpyAsync;
        final MethodHandle ipcGetMemHandle;
        final MethodHandle ipcOpenMemHandle;
        final MethodHandle ipcCloseMemHandle;
        final MethodHandle getErrorName;
        final MethodHandle getErrorString;
        final Optional<MethodHandle> getHandleForAddressRange;

        Calls(NativeLibrary lib) {
            FunctionDescriptor intOut = FunctionDescriptor.of(JAVA_INT, ADDRESS);
            FunctionDescriptor onLong = FunctionDescriptor.of(JAVA_INT, JAVA_LONG);
            init = lib.require("hipInit", FunctionDescriptor.of(JAVA_INT, JAVA_INT));
            runtimeGetVersion = lib.require("hipRuntimeGetVersion", intOut);
            getDeviceCount = lib.require("hipGetDeviceCount", intOut);
            deviceGet = lib.require("hipDeviceGet", FunctionDescriptor.of(JAVA_INT, ADDRESS, JAVA_INT));
            deviceGetName = lib.require("hipDeviceGetName", FunctionDescriptor.of(JAVA_INT, ADDRESS, JAVA_INT, JAVA_INT));
            deviceGetPciBusId = lib.require("hipDeviceGetPCIBusId", FunctionDescriptor.of(JAVA_INT, ADDRESS, JAVA_INT, JAVA_INT));
            deviceTotalMem = lib.require("hipDeviceTotalMem", FunctionDescriptor.of(JAVA_INT, ADDRESS, JAVA_INT));
            setDevice = lib.require("hipSetDevice", FunctionDescriptor.of(JAVA_INT, JAVA_INT));
            malloc = lib.require("hipMalloc", FunctionDescriptor.of(JAVA_INT, ADDRESS, JAVA_LONG));
            free = lib.require("hipFree", onLong);
            streamCreateWithFlags = lib.require("hipStreamCreateWithFlags", FunctionDescriptor.of(JAVA_INT, ADDRESS, JAVA_INT));
            streamDestroy = lib.require("hipStreamDestroy", onLong);
            streamQuery = lib.require("hipStreamQuery", onLong);
            eventCreateWithFlags = lib.require("hipEventCreateWithFlags", FunctionDescriptor.of(JAVA_INT, ADDRESS, JAVA_INT));
            eventDestroy = lib.require("hipEventDestroy", onLong);
            eventRecord = lib.require("hipEventRecord", FunctionDescriptor.of(JAVA_INT, JAVA_LONG, JAVA_LONG));
            eventQuery = lib.require("hipEventQuery", onLong);
            memcpyAsync = lib.require("hipMemcpyAsync",
                    FunctionDescriptor.of(JAVA_INT, JAVA_LONG, JAVA_LONG, JAVA_LONG, JAVA_INT, JAVA_LONG));
            ipcGetMemHandle = lib.require("hipIpcGetMemHandle", FunctionDescriptor.of(JAVA_INT, ADDRESS, JAVA_LONG));
            ipcOpenMemHandle = lib.require("hipIpcOpenMemHandle", FunctionDescriptor.of(JAVA_INT, ADDRESS, IPC_HANDLE, JAVA_INT));
            ipcCloseMemHandle = lib.require("hipIpcCloseMemHandle", onLong);
            getErrorName = lib.require("hipGetErrorName", FunctionDescriptor.of(ADDRESS, JAVA_INT));
            getErrorString = lib.require("hipGetErrorString", FunctionDescriptor.of(ADDRESS, JAVA_INT));
            getHandleForAddressRange = lib.optional("hipMemGetHandleForAddressRange",
                    FunctionDescriptor.of(JAVA_INT, ADDRESS, JAVA_LONG, JAVA_LONG, JAVA_INT, JAVA_LONG));
        }

        String name(int rc) {
            return StatusCalls.string(getErrorName, rc, "hipError " + rc);
        }

        String text(int rc) {
            return StatusCalls.string(getErrorString, rc, "no description");
        }

        void check(int rc, String call) throws GpuException {
            if (rc != HIP_SUCCESS) {
                throw error(rc, call);
            }
        }

        GpuException error(int rc, String call) {
            return new GpuException(API, call, rc, name(rc), text(rc));
        }

        GpuDeviceInfo deviceInfo(Arena a, int ordinal) throws GpuException {
            MemorySegment dev = a.allocate(JAVA_INT);
            check(call(deviceGet, dev, ordinal), "hipDeviceGet(" + ordinal + ")");
            int handle = dev.get(JAVA_INT, 0);
            MemorySegment name = a.allocate(256);
            check(call(deviceGetName, name, 256, handle), "hipDeviceGetName");
            MemorySegment bus = a.allocate(64);
            check(call(deviceGetPciBusId, bus, 64, ordinal), "hipDeviceGetPCIBusId");
            MemorySegment total = a.allocate(JAVA_LONG);
            check(call(deviceTotalMem, total, handle), "hipDeviceTotalMem");
            return new GpuDeviceInfo(ordinal, name.getString(0), bus.getString(0).toLowerCase(Locale.ROOT),
                    total.get(JAVA_LONG, 0), getHandleForAddressRange.isPresent());
        }
    }
}
