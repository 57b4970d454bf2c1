package dev.linkproof.transfer.gpu.cuda;

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
import java.lang.foreign.Arena;
import java.lang.foreign.FunctionDescriptor;
import java.lang.foreign.MemoryLayout;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.StructLayout;
import java.lang.invoke.MethodHandle;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The CUDA driver API ({@code libcuda.so.1}) through hand-written FFM bindings: no CUDA toolkit,
 * no runtime library, nothing compiled. Each device is used through its primary context, made
 * current on the calling thread before every call, so any thread may use any device.
 *
 * <p>Symbols are the versioned ones {@code cuda.h} maps its names to ({@code cuMemAlloc} is
 * {@code cuMemAlloc_v2}, {@code cuIpcOpenMemHandle} is {@code cuIpcOpenMemHandle_v2}); the
 * constants are checked against {@code cuda.h} by {@code CudaAbiTest}. Device pointers, host
 * addresses, streams and events travel as {@code long}: on the x86-64 and AArch64 calling
 * conventions a pointer and a 64-bit integer are passed alike, and a {@code long} needs no
 * {@code MemorySegment} wrapper, so the copy path allocates nothing.
 */
public final class CudaRuntime extends VendorRuntime {
    public static final String API = "cuda";
    public static final String LIBRARY = "libcuda.so.1";

    // CUresult
    public static final int CUDA_SUCCESS = 0;
    public static final int CUDA_ERROR_NOT_READY = 600;
    // flags
    public static final int CU_STREAM_NON_BLOCKING = 1;
    public static final int CU_EVENT_DISABLE_TIMING = 2;
    public static final int CU_IPC_MEM_LAZY_ENABLE_PEER_ACCESS = 1;
    public static final int CU_MEM_RANGE_HANDLE_TYPE_DMA_BUF_FD = 1;
    public static final int CU_DEVICE_ATTRIBUTE_DMA_BUF_SUPPORTED = 124;
    public static final int CU_IPC_HANDLE_SIZE = 64;
    // ucs_memory_type_t of CUDA device memory
    public static final int UCS_MEMORY_TYPE_CUDA = 1;

    /**
     * The exported symbol {@code cuda.h} maps each API name to: the binding looks up these, and
     * {@code CudaAbiTest} checks every pair against the header's macros.
     */
    static final Map<String, String> SYMBOLS = Map.ofEntries(
            Map.entry("cuInit", "cuInit"),
            Map.entry("cuDriverGetVersion", "cuDriverGetVersion"),
            Map.entry("cuDeviceGetCount", "cuDeviceGetCount"),
            Map.entry("cuDeviceGet", "cuDeviceGet"),
            Map.entry("cuDeviceGetName", "cuDeviceGetName"),
            Map.entry("cuDeviceGetPCIBusId", "cuDeviceGetPCIBusId"),
            Map.entry("cuDeviceTotalMem", "cuDeviceTotalMem_v2"),
            Map.entry("cuDeviceGetAttribute", "cuDeviceGetAttribute"),
            Map.entry("cuDevicePrimaryCtxRetain", "cuDevicePrimaryCtxRetain"),
            Map.entry("cuCtxSetCurrent", "cuCtxSetCurrent"),
            Map.entry("cuMemAlloc", "cuMemAlloc_v2"),
            Map.entry("cuMemFree", "cuMemFree_v2"),
            Map.entry("cuStreamCreate", "cuStreamCreate"),
            Map.entry("cuStreamDestroy", "cuStreamDestroy_v2"),
            Map.entry("cuStreamQuery", "cuStreamQuery"),
            Map.entry("cuEventCreate", "cuEventCreate"),
            Map.entry("cuEventDestroy", "cuEventDestroy_v2"),
            Map.entry("cuEventRecord", "cuEventRecord"),
            Map.entry("cuEventQuery", "cuEventQuery"),
            Map.entry("cuMemcpyHtoDAsync", "cuMemcpyHtoDAsync_v2"),
            Map.entry("cuMemcpyDtoHAsync", "cuMemcpyDtoHAsync_v2"),
            Map.entry("cuMemcpyDtoDAsync", "cuMemcpyDtoDAsync_v2"),
            Map.entry("cuIpcGetMemHandle", "cuIpcGetMemHandle"),
            Map.entry("cuIpcOpenMemHandle", "cuIpcOpenMemHandle_v2"),
            Map.entry("cuIpcCloseMemHandle", "cuIpcCloseMemHandle"),
            Map.entry("cuGetErrorName", "cuGetErrorName"),
            Map.entry("cuGetErrorString", "cuGetErrorString"),
            Map.entry("cuMemGetHandleForAddressRange", "cuMemGetHandleForAddressRange"));

    /** {@code CUipcMemHandle}: 64 opaque bytes, passed by value to cuIpcOpenMemHandle. */
    static final StructLayout IPC_HANDLE = MemoryLayout.structLayout(
            MemoryLayout.sequenceLayout(CU_IPC_HANDLE_SIZE, JAVA_BYTE).withName("reserved")).withName("CUipcMemHandle");

    /** The constants and sizes the binding depends on, as {@code CudaAbiTest} compares them with cuda.h. */
    static Map<String, Long> abiFacts() {
        Map<String, Long> f = new java.util.LinkedHashMap<>();
        f.put("const.CUDA_SUCCESS", (long) CUDA_SUCCESS);
        f.put("const.CUDA_ERROR_NOT_READY", (long) CUDA_ERROR_NOT_READY);
        f.put("const.CU_STREAM_NON_BLOCKING", (long) CU_STREAM_NON_BLOCKING);
        f.put("const.CU_EVENT_DISABLE_TIMING", (long) CU_EVENT_DISABLE_TIMING);
        f.put("const.CU_IPC_MEM_LAZY_ENABLE_PEER_ACCESS", (long) CU_IPC_MEM_LAZY_ENABLE_PEER_ACCESS);
        f.put("const.CU_MEM_RANGE_HANDLE_TYPE_DMA_BUF_FD", (long) CU_MEM_RANGE_HANDLE_TYPE_DMA_BUF_FD);
        f.put("const.CU_DEVICE_ATTRIBUTE_DMA_BUF_SUPPORTED", (long) CU_DEVICE_ATTRIBUTE_DMA_BUF_SUPPORTED);
        f.put("const.CU_IPC_HANDLE_SIZE", (long) CU_IPC_HANDLE_SIZE);
        f.put("sizeof.CUipcMemHandle", IPC_HANDLE.byteSize());
        // Passed as JAVA_LONG (pointers, device pointers, handles) and JAVA_INT (CUdevice, CUresult).
        f.put("sizeof.CUdeviceptr", JAVA_LONG.byteSize());
        f.put("sizeof.CUdevice", JAVA_INT.byteSize());
        f.put("sizeof.CUstream", JAVA_LONG.byteSize());
        f.put("sizeof.CUevent", JAVA_LONG.byteSize());
        f.put("sizeof.CUcontext", JAVA_LONG.byteSize());
        f.put("sizeof.CUresult", JAVA_INT.byteSize());
        return f;
    }

    private final String library;
    private final Calls cu;
    private final int driverVersion;
    private final Memory memory;
    /** Primary contexts, retained on first use and kept for the life of the process. */
    private final Map<Integer, Long> contexts = new ConcurrentHashMap<>();

    private CudaRuntime(String library, Calls cu, int driverVersion, List<GpuDeviceInfo> devices) {
        super(devices);
        this.library = library;
        this.cu = cu;
        this.driverVersion = driverVersion;
        this.memory = new Memory(cu.memAlloc, "cuMemAlloc_v2", cu.memFree, "cuMemFree_v2",
                cu.ipcGetMemHandle, "cuIpcGetMemHandle", cu.ipcOpenMemHandle, "cuIpcOpenMemHandle_v2",
                cu.ipcCloseMemHandle, "cuIpcCloseMemHandle", IPC_HANDLE, CU_IPC_MEM_LAZY_ENABLE_PEER_ACCESS);
    }

    /**
     * Loads {@code library}, initialises the driver and lists the devices. Fails with the reason
     * (library absent, {@code cuInit} refused, no device) as an {@link IllegalStateException}.
     */
    public static CudaRuntime load(String library) {
        NativeLibrary lib = NativeLibrary.open(List.of(library), "the NVIDIA driver provides it");
        Calls cu = new Calls(lib);
        try {
            cu.check(call(cu.init, 0), "cuInit");
            int version;
            int count;
            try (Arena a = Arena.ofConfined()) {
                MemorySegment out = a.allocate(JAVA_INT);
                cu.check(call(cu.driverGetVersion, out), "cuDriverGetVersion");
                version = out.get(JAVA_INT, 0);
                cu.check(call(cu.deviceGetCount, out), "cuDeviceGetCount");
                count = out.get(JAVA_INT, 0);
            }
            if (count == 0) {
                throw new IllegalStateException("cuDeviceGetCount found no CUDA device");
            }
            List<GpuDeviceInfo> devices = new ArrayList<>();
            for (int i = 0; i < count; i++) {
                devices.add(cu.deviceInfo(i));
            }
            return new CudaRuntime(lib.name(), cu, version, List.copyOf(devices));
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
        return "nvidia";
    }

    @Override
    public String describe() {
        return "CUDA driver API " + driverVersion / 1000 + "." + driverVersion % 1000 / 10 + " (" + library + ")";
    }

    @Override
    protected Memory memory() {
        return memory;
    }

    @Override
    protected String deviceNoun() {
        return "CUDA device";
    }

    @Override
    protected GpuException error(int status, String call) {
        return cu.error(status, call);
    }

    @Override
    public GpuStream openStream(int device, int markers) throws GpuException {
        checkDevice(device);
        long context = context(device);
        cu.check(cu.ctxSetCurrent(context), "cuCtxSetCurrent");
        return EventRingStream.open(new EventRingStream.Vendor(API, CUDA_ERROR_NOT_READY,
                cu.streamCreate, CU_STREAM_NON_BLOCKING, cu.streamDestroy, cu.streamQuery,
                cu.eventCreate, CU_EVENT_DISABLE_TIMING, cu.eventDestroy, cu.eventRecord, cu.eventQuery,
                () -> cu.ctxSetCurrent(context),
                (direction, dst, src, bytes, stream) -> call(switch (direction) {
                    case EventRingStream.HOST_TO_DEVICE -> cu.memcpyHtoDAsync;
                    case EventRingStream.DEVICE_TO_HOST -> cu.memcpyDtoHAsync;
                    default -> cu.memcpyDtoDAsync;
                }, dst, src, bytes, stream),
                List.of("", "cuMemcpyHtoDAsync_v2", "cuMemcpyDtoHAsync_v2", "cuMemcpyDtoDAsync_v2"), cu::error), device, markers);
    }

    @Override
    public int exportDmabuf(int device, long pointer, long bytes) throws GpuException {
        if (cu.getHandleForAddressRange.isEmpty()) {
            throw new GpuException(API, library + " lacks cuMemGetHandleForAddressRange: dma-buf export needs CUDA driver 515 or newer");
        }
        checkDevice(device);
        if (!devices().get(device).dmabufSupported()) {
            throw new GpuException(API, "device " + device + " (" + devices().get(device).name()
                    + ") reports CU_DEVICE_ATTRIBUTE_DMA_BUF_SUPPORTED = 0 (the open kernel module, nvidia-open, is needed for dma-buf)");
        }
        bind(device);
        try (Arena a = Arena.ofConfined()) {
            MemorySegment fd = a.allocate(JAVA_INT);
            cu.check(call(cu.getHandleForAddressRange.get(), fd, pointer, bytes, CU_MEM_RANGE_HANDLE_TYPE_DMA_BUF_FD, 0L), "cuMemGetHandleForAddressRange(DMA_BUF_FD)");
            return fd.get(JAVA_INT, 0);
        }
    }

    @Override
    public int ucxMemoryType() {
        return UCS_MEMORY_TYPE_CUDA;
    }

    @Override
    protected void makeCurrent(int device) throws GpuException {
        cu.check(cu.ctxSetCurrent(context(device)), "cuCtxSetCurrent");
    }

    /** {@code device}'s primary context, retained on first use. */
    private long context(int device) throws GpuException {
        Long ctx = contexts.get(device);
        if (ctx == null) {
            synchronized (contexts) {
                ctx = contexts.get(device);
                if (ctx == null) {
                    ctx = cu.retainPrimaryContext(device);
                    contexts.put(device, ctx);
                }
            }
        }
        return ctx;
    }

    /** The downcalls, with the error-code translation every caller needs. */
    static final class Calls {
        final MethodHandle init;
        final MethodHandle driverGetVersion;
        final MethodHandle deviceGetCount;
        final MethodHandle deviceGet;
        final MethodHandle deviceGetName;
        final MethodHandle deviceGetPciBusId;
        final MethodHandle deviceTotalMem;
        final MethodHandle deviceGetAttribute;
        final MethodHandle primaryCtxRetain;
        final MethodHandle ctxSetCurrent;
        final MethodHandle memAlloc;
        final MethodHandle memFree;
        final MethodHandle streamCreate;
        final MethodHandle streamDestroy;
        final MethodHandle streamQuery;
        final MethodHandle eventCreate;
        final MethodHandle eventDestroy;
        final MethodHandle eventRecord;
        final MethodHandle eventQuery;
        final MethodHandle memcpyHtoDAsync;
        final MethodHandle memcpyDtoHAsync;
        final MethodHandle memcpyDtoDAsync;
        final MethodHandle ipcGetMemHandle;
        final MethodHandle ipcOpenMemHandle;
        final MethodHandle ipcCloseMemHandle;
        final MethodHandle getErrorName;
        final MethodHandle getErrorString;
        final Optional<MethodHandle> getHandleForAddressRange;

        Calls(NativeLibrary lib) {
            FunctionDescriptor intOut = FunctionDescriptor.of(JAVA_INT, ADDRESS);
            init = lib.require(SYMBOLS.get("cuInit"), FunctionDescriptor.of(JAVA_INT, JAVA_INT));
            driverGetVersion = lib.require(SYMBOLS.get("cuDriverGetVersion"), intOut);
            deviceGetCount = lib.require(SYMBOLS.get("cuDeviceGetCount"), intOut);
            deviceGet = lib.require(SYMBOLS.get("cuDeviceGet"), FunctionDescriptor.of(JAVA_INT, ADDRESS, JAVA_INT));
            deviceGetName = lib.require(SYMBOLS.get("cuDeviceGetName"), FunctionDescriptor.of(JAVA_INT, ADDRESS, JAVA_INT, JAVA_INT));
            deviceGetPciBusId = lib.require(SYMBOLS.get("cuDeviceGetPCIBusId"), FunctionDescriptor.of(JAVA_INT, ADDRESS, JAVA_INT, JAVA_INT));
            deviceTotalMem = lib.require(SYMBOLS.get("cuDeviceTotalMem"), FunctionDescriptor.of(JAVA_INT, ADDRESS, JAVA_INT));
            deviceGetAttribute = lib.require(SYMBOLS.get("cuDeviceGetAttribute"), FunctionDescriptor.of(JAVA_INT, ADDRESS, JAVA_INT, JAVA_INT));
            primaryCtxRetain = lib.require(SYMBOLS.get("cuDevicePrimaryCtxRetain"), FunctionDescriptor.of(JAVA_INT, ADDRESS, JAVA_INT));
            ctxSetCurrent = lib.require(SYMBOLS.get("cuCtxSetCurrent"), FunctionDescriptor.of(JAVA_INT, JAVA_LONG));
            memAlloc = lib.require(SYMBOLS.get("cuMemAlloc"), FunctionDescriptor.of(JAVA_INT, ADDRESS, JAVA_LONG));
            memFree = lib.require(SYMBOLS.get("cuMemFree"), FunctionDescriptor.of(JAVA_INT, JAVA_LONG));
            streamCreate = lib.require(SYMBOLS.get("cuStreamCreate"), FunctionDescriptor.of(JAVA_INT, ADDRESS, JAVA_INT));
            streamDestroy = lib.require(SYMBOLS.get("cuStreamDestroy"), FunctionDescriptor.of(JAVA_INT, JAVA_LONG));
            streamQuery = lib.require(SYMBOLS.get("cuStreamQuery"), FunctionDescriptor.of(JAVA_INT, JAVA_LONG));
            eventCreate = lib.require(SYMBOLS.get("cuEventCreate"), FunctionDescriptor.of(JAVA_INT, ADDRESS, JAVA_INT));
            eventDestroy = lib.require(SYMBOLS.get("cuEventDestroy"), FunctionDescriptor.of(JAVA_INT, JAVA_LONG));
            eventRecord = lib.require(SYMBOLS.get("cuEventRecord"), FunctionDescriptor.of(JAVA_INT, JAVA_LONG, JAVA_LONG));
            eventQuery = lib.require(SYMBOLS.get("cuEventQuery"), FunctionDescriptor.of(JAVA_INT, JAVA_LONG));
            FunctionDescriptor copy = FunctionDescriptor.of(JAVA_INT, JAVA_LONG, JAVA_LONG, JAVA_LONG, JAVA_LONG);
            memcpyHtoDAsync = lib.require(SYMBOLS.get("cuMemcpyHtoDAsync"), copy);
            memcpyDtoHAsync = lib.require(SYMBOLS.get("cuMemcpyDtoHAsync"), copy);
            memcpyDtoDAsync = lib.require(SYMBOLS.get("cuMemcpyDtoDAsync"), copy);
            ipcGetMemHandle = lib.require(SYMBOLS.get("cuIpcGetMemHandle"), FunctionDescriptor.of(JAVA_INT, ADDRESS, JAVA_LONG));
            ipcOpenMemHandle = lib.require(SYMBOLS.get("cuIpcOpenMemHandle"), FunctionDescriptor.of(JAVA_INT, ADDRESS, IPC_HANDLE, JAVA_INT));
            ipcCloseMemHandle = lib.require(SYMBOLS.get("cuIpcCloseMemHandle"), FunctionDescriptor.of(JAVA_INT, JAVA_LONG));
            getErrorName = lib.require(SYMBOLS.get("cuGetErrorName"), FunctionDescriptor.of(JAVA_INT, JAVA_INT, ADDRESS));
            getErrorString = lib.require(SYMBOLS.get("cuGetErrorString"), FunctionDescriptor.of(JAVA_INT, JAVA_INT, ADDRESS));
            getHandleForAddressRange = lib.optional(SYMBOLS.get("cuMemGetHandleForAddressRange"),
                    FunctionDescriptor.of(JAVA_INT, ADDRESS, JAVA_LONG, JAVA_LONG, JAVA_INT, JAVA_LONG));
        }

        void check(int result, String call) throws GpuException {
            if (result != CUDA_SUCCESS) {
                throw error(result, call);
            }
        }

        GpuException error(int result, String call) {
            return new GpuException(API, call, result, text(getErrorName, result, "CUDA_ERROR_" + result),
                    text(getErrorString, result, "no description"));
        }

        private static String text(MethodHandle lookup, int result, String fallback) {
            try (Arena a = Arena.ofConfined()) {
                MemorySegment out = a.allocate(ADDRESS);
                int rc = (int) lookup.invokeExact(result, out);
                MemorySegment s = out.get(ADDRESS, 0);
                return rc == CUDA_SUCCESS && !s.equals(MemorySegment.NULL) ? s.reinterpret(512).getString(0) : fallback;
            } catch (Throwable t) {
                return fallback;
            }
        }

        GpuDeviceInfo deviceInfo(int ordinal) throws GpuException {
            try (Arena a = Arena.ofConfined()) {
                MemorySegment dev = a.allocate(JAVA_INT);
                check(call(deviceGet, dev, ordinal), "cuDeviceGet(" + ordinal + ")");
                int handle = dev.get(JAVA_INT, 0);
                MemorySegment name = a.allocate(256);
                check(call(deviceGetName, name, 256, handle), "cuDeviceGetName");
                MemorySegment bus = a.allocate(64);
                check(call(deviceGetPciBusId, bus, 64, handle), "cuDeviceGetPCIBusId");
                MemorySegment total = a.allocate(JAVA_LONG);
                check(call(deviceTotalMem, total, handle), "cuDeviceTotalMem_v2");
                MemorySegment attr = a.allocate(JAVA_INT);
                boolean dmabuf = getHandleForAddressRange.isPresent()
                        && attribute(attr, CU_DEVICE_ATTRIBUTE_DMA_BUF_SUPPORTED, handle) == CUDA_SUCCESS
                        && attr.get(JAVA_INT, 0) != 0;
                return new GpuDeviceInfo(ordinal, name.getString(0), bus.getString(0).toLowerCase(Locale.ROOT),
                        total.get(JAVA_LONG, 0), dmabuf);
            }
        }

        long retainPrimaryContext(int device) throws GpuException {
            try (Arena a = Arena.ofConfined()) {
                MemorySegment dev = a.allocate(JAVA_INT);
                check(call(deviceGet, dev, device), "cuDeviceGet(" + device + ")");
                MemorySegment ctx = a.allocate(JAVA_LONG);
                check(call(primaryCtxRetain, ctx, dev.get(JAVA_INT, 0)), "cuDevicePrimaryCtxRetain");
                return ctx.get(JAVA_LONG, 0);
            }
        }

        int attribute(MemorySegment out, int attribute, int device) {
            return call(deviceGetAttribute, out, attribute, device);
        }

        int ctxSetCurrent(long ctx) {
            return call(ctxSetCurrent, ctx);
        }
    }
}
