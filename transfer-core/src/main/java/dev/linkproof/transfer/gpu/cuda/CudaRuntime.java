package dev.linkproof.transfer.gpu.cuda;

import static dev.linkproof.transfer.nativeaccess.StatusCalls.call;
import static java.lang.foreign.ValueLayout.ADDRESS;
import static java.lang.foreign.ValueLayout.JAVA_BYTE;
import static java.lang.foreign.ValueLayout.JAVA_INT;
import static java.lang.foreign.ValueLayout.JAVA_LONG;

import dev.linkproof.transfer.gpu.EventRingStream;
import dev.linkproof.transfer.gpu.GpuException;
import dev.linkproof.transfer.gpu.VendorRuntime;
import dev.linkproof.transfer.nativeaccess.NativeLibrary;
import java.lang.foreign.Arena;
import java.lang.foreign.FunctionDescriptor;
import java.lang.foreign.MemoryLayout;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.StructLayout;
import java.lang.invoke.MethodHandle;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.stream.Stream;

/**
 * The CUDA driver API ({@code libcuda.so.1}) through hand-written FFM bindings: no CUDA toolkit, no
 * runtime library, nothing compiled. Each device is used through its primary context, made current
 * on the calling thread before every call, so any thread may use any device. Symbols are the
 * versioned ones {@code cuda.h} maps its names to ({@code cuMemAlloc_v2}); {@code CudaAbiTest} checks
 * the constants against {@code cuda.h}. Device pointers, streams and events travel as {@code long}:
 * the x86-64 and AArch64 calling conventions pass a pointer and a 64-bit integer alike, and a
 * {@code long} needs no {@code MemorySegment}, so the copy path allocates nothing.
 */
public final class CudaRuntime extends VendorRuntime {
    public static final String API = "cuda";
    public static final String LIBRARY = "libcuda.so.1";

    /** The cuda.h values only CUDA's own calls use; those the shared code uses are in {@link #VENDOR}. */
    static final Defined CU_IPC_MEM_LAZY_ENABLE_PEER_ACCESS = new Defined("CU_IPC_MEM_LAZY_ENABLE_PEER_ACCESS", 1);

    static final Defined CU_MEM_RANGE_HANDLE_TYPE_DMA_BUF_FD = new Defined("CU_MEM_RANGE_HANDLE_TYPE_DMA_BUF_FD", 1);
    static final Defined CU_DEVICE_ATTRIBUTE_DMA_BUF_SUPPORTED =
            new Defined("CU_DEVICE_ATTRIBUTE_DMA_BUF_SUPPORTED", 124);
    static final int CUDA_SUCCESS = 0;
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
                    MemoryLayout.sequenceLayout(IPC_HANDLE_BYTES, JAVA_BYTE).withName("reserved"))
            .withName("CUipcMemHandle");

    /** The constants and sizes the binding depends on, as {@code CudaAbiTest} compares them with cuda.h. */
    static Map<String, Long> abiFacts() {
        Map<String, Long> f = new LinkedHashMap<>(VENDOR.abiFacts());
        for (Defined d : List.of(
                CU_IPC_MEM_LAZY_ENABLE_PEER_ACCESS,
                CU_MEM_RANGE_HANDLE_TYPE_DMA_BUF_FD,
                CU_DEVICE_ATTRIBUTE_DMA_BUF_SUPPORTED)) {
            f.put("const." + d.name(), (long) d.value());
        }
        return f;
    }

    /** The {@link Call}s' symbols: the versioned ones of {@link #SYMBOLS}. */
    private static final Map<Call, String> CALLS = Call.named(Stream.of(
                    "cuInit",
                    "cuDriverGetVersion",
                    "cuDeviceGetCount",
                    "cuDeviceGet",
                    "cuDeviceGetName",
                    "cuDeviceGetPCIBusId",
                    "cuDeviceTotalMem",
                    "cuMemAlloc",
                    "cuMemFree",
                    "cuStreamCreate",
                    "cuStreamDestroy",
                    "cuStreamQuery",
                    "cuEventCreate",
                    "cuEventDestroy",
                    "cuEventRecord",
                    "cuEventQuery",
                    "cuIpcGetMemHandle",
                    "cuIpcOpenMemHandle",
                    "cuIpcCloseMemHandle",
                    "cuMemGetHandleForAddressRange")
            .map(SYMBOLS::get)
            .toArray(String[]::new));

    /** CUDA as the shared code sees it; {@code CudaAbiTest} checks its values against cuda.h. */
    static final Vendor VENDOR = new Vendor(
            API,
            "nvidia",
            "CUDA device",
            CALLS,
            IPC_HANDLE,
            new Defined("CUDA_SUCCESS", CUDA_SUCCESS),
            new Defined("CUDA_ERROR_NOT_READY", 600),
            new Defined("CU_STREAM_NON_BLOCKING", 1),
            new Defined("CU_EVENT_DISABLE_TIMING", 2),
            new Defined("CU_IPC_HANDLE_SIZE", IPC_HANDLE_BYTES),
            CU_MEM_RANGE_HANDLE_TYPE_DMA_BUF_FD.value(),
            "DMA_BUF_FD",
            List.of(
                    "",
                    SYMBOLS.get("cuMemcpyHtoDAsync"),
                    SYMBOLS.get("cuMemcpyDtoHAsync"),
                    SYMBOLS.get("cuMemcpyDtoDAsync")),
            // Passed as JAVA_LONG (pointers, device pointers, handles) and JAVA_INT (CUdevice, CUresult).
            List.of("CUdeviceptr", "CUstream", "CUevent", "CUcontext"),
            List.of("CUdevice", "CUresult"));

    private final String library;
    private final Cuda cu;
    private final int driverVersion;
    /** Primary contexts, retained on first use and kept for the life of the process. */
    private final Map<Integer, Long> contexts = new ConcurrentHashMap<>();

    private CudaRuntime(String library, Calls calls, Cuda cu, Found found) {
        super(VENDOR, calls, found.devices(), CU_IPC_MEM_LAZY_ENABLE_PEER_ACCESS.value());
        this.library = library;
        this.cu = cu;
        this.driverVersion = found.version();
    }

    /**
     * Loads {@code library}, initialises the driver and lists the devices. Fails with the reason
     * (library absent, {@code cuInit} refused, no device) as an {@link IllegalStateException}.
     */
    public static CudaRuntime load(String library) {
        NativeLibrary lib = NativeLibrary.open(List.of(library), "the NVIDIA driver provides it");
        Calls calls = Calls.bind(VENDOR, lib);
        Cuda cu = new Cuda(lib, calls);
        try (Arena a = Arena.ofConfined()) {
            cu.check(call(calls.get(Call.INIT), 0), "cuInit");
            MemorySegment attr = a.allocate(JAVA_INT);
            Found found = calls.find(
                    cu::error,
                    handle -> call(cu.deviceGetAttribute, attr, CU_DEVICE_ATTRIBUTE_DMA_BUF_SUPPORTED.value(), handle)
                                    == CUDA_SUCCESS
                            && attr.get(JAVA_INT, 0) != 0);
            return new CudaRuntime(lib.name(), calls, cu, found);
        } catch (GpuException e) {
            throw new IllegalStateException(e.getMessage(), e);
        }
    }

    @Override
    public String describe() {
        return "CUDA driver API " + driverVersion / 1000 + "." + driverVersion % 1000 / 10 + " (" + library + ")";
    }

    @Override
    protected GpuException error(int status, String call) {
        return cu.error(status, call);
    }

    @Override
    protected void makeCurrent(int device) throws GpuException {
        cu.check(cu.ctxSetCurrent(context(device)), "cuCtxSetCurrent");
    }

    @Override
    protected EventRingStream.Current current(int device) throws GpuException {
        long context = context(device);
        return () -> cu.ctxSetCurrent(context);
    }

    @Override
    protected EventRingStream.Copy copy() {
        return (direction, dst, src, bytes, stream) -> call(
                switch (direction) {
                    case EventRingStream.HOST_TO_DEVICE -> cu.memcpyHtoDAsync;
                    case EventRingStream.DEVICE_TO_HOST -> cu.memcpyDtoHAsync;
                    default -> cu.memcpyDtoDAsync;
                },
                dst,
                src,
                bytes,
                stream);
    }

    @Override
    protected String whyNoDmabuf(int device, boolean symbolMissing) {
        return symbolMissing
                ? library + " lacks cuMemGetHandleForAddressRange: dma-buf export needs CUDA driver 515 or newer"
                : "device " + device + " (" + devices().get(device).name()
                        + ") reports CU_DEVICE_ATTRIBUTE_DMA_BUF_SUPPORTED = 0 (the open kernel module, nvidia-open,"
                        + " is needed for dma-buf)";
    }

    @Override
    public int ucxMemoryType() {
        return UCS_MEMORY_TYPE_CUDA;
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

    /** The calls only CUDA has (contexts, attributes, a copy call per direction), and its error decoding. */
    static final class Cuda {
        final MethodHandle deviceGet;
        final MethodHandle deviceGetAttribute;
        final MethodHandle primaryCtxRetain;
        final MethodHandle ctxSetCurrent;
        final MethodHandle memcpyHtoDAsync;
        final MethodHandle memcpyDtoHAsync;
        final MethodHandle memcpyDtoDAsync;
        final MethodHandle getErrorName;
        final MethodHandle getErrorString;

        Cuda(NativeLibrary lib, Calls calls) {
            deviceGet = calls.get(Call.DEVICE_GET);
            deviceGetAttribute = lib.require(
                    SYMBOLS.get("cuDeviceGetAttribute"), FunctionDescriptor.of(JAVA_INT, ADDRESS, JAVA_INT, JAVA_INT));
            primaryCtxRetain = lib.require(
                    SYMBOLS.get("cuDevicePrimaryCtxRetain"), FunctionDescriptor.of(JAVA_INT, ADDRESS, JAVA_INT));
            ctxSetCurrent = lib.require(SYMBOLS.get("cuCtxSetCurrent"), FunctionDescriptor.of(JAVA_INT, JAVA_LONG));
            FunctionDescriptor copy = FunctionDescriptor.of(JAVA_INT, JAVA_LONG, JAVA_LONG, JAVA_LONG, JAVA_LONG);
            memcpyHtoDAsync = lib.require(SYMBOLS.get("cuMemcpyHtoDAsync"), copy);
            memcpyDtoHAsync = lib.require(SYMBOLS.get("cuMemcpyDtoHAsync"), copy);
            memcpyDtoDAsync = lib.require(SYMBOLS.get("cuMemcpyDtoDAsync"), copy);
            FunctionDescriptor text = FunctionDescriptor.of(JAVA_INT, JAVA_INT, ADDRESS);
            getErrorName = lib.require(SYMBOLS.get("cuGetErrorName"), text);
            getErrorString = lib.require(SYMBOLS.get("cuGetErrorString"), text);
        }

        void check(int result, String call) throws GpuException {
            if (result != CUDA_SUCCESS) {
                throw error(result, call);
            }
        }

        GpuException error(int result, String call) {
            return new GpuException(
                    API,
                    call,
                    result,
                    text(getErrorName, result, "CUDA_ERROR_" + result),
                    text(getErrorString, result, "no description"));
        }

        /** cuGetErrorName and cuGetErrorString hand the text out through a pointer they fill. */
        private static String text(MethodHandle lookup, int result, String fallback) {
            try (Arena a = Arena.ofConfined()) {
                MemorySegment out = a.allocate(ADDRESS);
                int rc = (int) lookup.invokeExact(result, out);
                MemorySegment s = out.get(ADDRESS, 0);
                return rc == CUDA_SUCCESS && !s.equals(MemorySegment.NULL)
                        ? s.reinterpret(512).getString(0)
                        : fallback;
            } catch (Throwable t) {
                return fallback;
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

        int ctxSetCurrent(long ctx) {
            return call(ctxSetCurrent, ctx);
        }
    }
}
