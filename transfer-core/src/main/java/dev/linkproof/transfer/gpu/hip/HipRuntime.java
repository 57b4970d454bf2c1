package dev.linkproof.transfer.gpu.hip;

import static dev.linkproof.transfer.nativeaccess.StatusCalls.call;
import static java.lang.foreign.ValueLayout.ADDRESS;
import static java.lang.foreign.ValueLayout.JAVA_BYTE;
import static java.lang.foreign.ValueLayout.JAVA_INT;
import static java.lang.foreign.ValueLayout.JAVA_LONG;

import dev.linkproof.transfer.gpu.EventRingStream;
import dev.linkproof.transfer.gpu.GpuException;
import dev.linkproof.transfer.gpu.VendorRuntime;
import dev.linkproof.transfer.nativeaccess.NativeLibrary;
import dev.linkproof.transfer.nativeaccess.StatusCalls;
import java.lang.foreign.Arena;
import java.lang.foreign.FunctionDescriptor;
import java.lang.foreign.MemoryLayout;
import java.lang.foreign.StructLayout;
import java.lang.invoke.MethodHandle;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * HIP ({@code libamdhip64.so}, ROCm 5 and 6) through hand-written FFM bindings: the same operations
 * as the CUDA binding, so the transports above cannot tell them apart. HIP keeps a current device
 * per thread; every call sets it first. {@code hipIpcMemLazyEnablePeerAccess} is 0 in ROCm 5's
 * headers and 1 in ROCm 6's, which refuses any other flag, so the flag follows the loaded runtime's
 * version. {@code HipAbiTest} checks the constants against Debian's {@code libamdhip64-dev} headers.
 */
public final class HipRuntime extends VendorRuntime {
    public static final String API = "hip";

    static final int HIP_SUCCESS = 0;
    /** hipMemcpyKind by EventRingStream's copy direction (HipAbiTest checks them against the header). */
    private static final Defined[] KIND = new Defined[4];

    static {
        KIND[EventRingStream.HOST_TO_DEVICE] = new Defined("hipMemcpyHostToDevice", 1);
        KIND[EventRingStream.DEVICE_TO_HOST] = new Defined("hipMemcpyDeviceToHost", 2);
        KIND[EventRingStream.DEVICE_TO_DEVICE] = new Defined("hipMemcpyDeviceToDevice", 3);
    }
    /** hipMemRangeHandleTypeDmaBufFd (ROCm 6.2; Debian's older headers lack it, so no test compares it). */
    static final int HIP_MEM_RANGE_HANDLE_TYPE_DMA_BUF_FD = 1;
    /** HIP_VERSION of ROCm 6.0: from there on hipIpcMemLazyEnablePeerAccess is 1. */
    static final int ROCM6 = 60_000_000;
    // ucs_memory_type_t of ROCm device memory
    public static final int UCS_MEMORY_TYPE_ROCM = 3;

    /** {@code hipIpcMemHandle_t}: 64 opaque bytes, passed by value to hipIpcOpenMemHandle. */
    static final StructLayout IPC_HANDLE = MemoryLayout.structLayout(
                    MemoryLayout.sequenceLayout(IPC_HANDLE_BYTES, JAVA_BYTE).withName("reserved"))
            .withName("hipIpcMemHandle_t");

    /** The constants and sizes the binding depends on, as {@code HipAbiTest} compares them with hip_runtime_api.h. */
    static Map<String, Long> abiFacts(int headerVersion) {
        Map<String, Long> f = new LinkedHashMap<>(VENDOR.abiFacts());
        for (int direction = 1; direction < KIND.length; direction++) {
            f.put("const." + KIND[direction].name(), (long) KIND[direction].value());
        }
        f.put("const.hipIpcMemLazyEnablePeerAccess", (long) lazyPeerAccessFlag(headerVersion));
        return f;
    }

    private static final Map<Call, String> CALLS = Call.named(
            "hipInit",
            "hipRuntimeGetVersion",
            "hipGetDeviceCount",
            "hipDeviceGet",
            "hipDeviceGetName",
            "hipDeviceGetPCIBusId",
            "hipDeviceTotalMem",
            "hipMalloc",
            "hipFree",
            "hipStreamCreateWithFlags",
            "hipStreamDestroy",
            "hipStreamQuery",
            "hipEventCreateWithFlags",
            "hipEventDestroy",
            "hipEventRecord",
            "hipEventQuery",
            "hipIpcGetMemHandle",
            "hipIpcOpenMemHandle",
            "hipIpcCloseMemHandle",
            "hipMemGetHandleForAddressRange");

    /** HIP as the shared code sees it; {@code HipAbiTest} checks its values against hip_runtime_api.h. */
    static final Vendor VENDOR = new Vendor(
            API,
            "amd",
            "HIP device",
            CALLS,
            IPC_HANDLE,
            new Defined("hipSuccess", HIP_SUCCESS),
            new Defined("hipErrorNotReady", 600),
            new Defined("hipStreamNonBlocking", 1),
            new Defined("hipEventDisableTiming", 2),
            new Defined("HIP_IPC_HANDLE_SIZE", IPC_HANDLE_BYTES),
            HIP_MEM_RANGE_HANDLE_TYPE_DMA_BUF_FD,
            "DmaBufFd",
            List.of(
                    "",
                    "hipMemcpyAsync(HostToDevice)",
                    "hipMemcpyAsync(DeviceToHost)",
                    "hipMemcpyAsync(DeviceToDevice)"),
            // Passed as JAVA_LONG (pointers, streams, events) and JAVA_INT (hipError_t, hipDevice_t).
            List.of("hipStream_t", "hipEvent_t"),
            List.of("hipError_t", "hipDevice_t"));

    private final String library;
    private final Hip hip;
    private final int runtimeVersion;

    private HipRuntime(String library, Calls calls, Hip hip, Found found) {
        super(VENDOR, calls, found.devices(), lazyPeerAccessFlag(found.version()));
        this.library = library;
        this.hip = hip;
        this.runtimeVersion = found.version();
    }

    /** Loads the first of {@code libraries} found, initialises HIP and lists the devices; fails with the reason. */
    public static HipRuntime load(List<String> libraries) {
        NativeLibrary lib = NativeLibrary.open(libraries, "ROCm provides it; Debian: apt-get install libamdhip64-5");
        Calls calls = Calls.bind(VENDOR, lib);
        Hip hip = new Hip(lib);
        int init = call(calls.get(Call.INIT), 0);
        if (init != HIP_SUCCESS) {
            // hipInit reports a missing GPU as an invalid device; the count says it plainly.
            try (Arena a = Arena.ofConfined()) {
                int rc = call(calls.get(Call.DEVICE_COUNT), a.allocate(JAVA_INT));
                String count =
                        rc == HIP_SUCCESS ? "" : "; hipGetDeviceCount: " + hip.name(rc) + " (" + hip.text(rc) + ")";
                throw new IllegalStateException("hipInit: " + hip.name(init) + " (" + hip.text(init) + ")" + count);
            }
        }
        try {
            // Every device can export a dma-buf where the runtime has the call (ROCm 6.2 on).
            return new HipRuntime(lib.name(), calls, hip, calls.find(hip::error, handle -> true));
        } catch (GpuException e) {
            throw new IllegalStateException(e.getMessage(), e);
        }
    }

    @Override
    public String describe() {
        return "HIP " + runtimeVersion / 10_000_000 + "." + runtimeVersion / 100_000 % 100 + " (" + library + ")";
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
    protected void makeCurrent(int device) throws GpuException {
        check(call(hip.setDevice, device), "hipSetDevice(" + device + ")");
    }

    @Override
    protected EventRingStream.Current current(int device) {
        return () -> call(hip.setDevice, device);
    }

    @Override
    protected EventRingStream.Copy copy() {
        return (direction, dst, src, bytes, stream) ->
                call(hip.memcpyAsync, dst, src, bytes, KIND[direction].value(), stream);
    }

    @Override
    protected String whyNoDmabuf(int device, boolean symbolMissing) {
        return library + " (" + describe()
                + ") lacks hipMemGetHandleForAddressRange: dma-buf export needs ROCm 6.2 or newer";
    }

    @Override
    public int ucxMemoryType() {
        return UCS_MEMORY_TYPE_ROCM;
    }

    /** The calls only HIP has (a current device per thread, one copy call with a kind), and its error decoding. */
    static final class Hip {
        final MethodHandle setDevice;
        final MethodHandle memcpyAsync;
        final MethodHandle getErrorName;
        final MethodHandle getErrorString;

        Hip(NativeLibrary lib) {
            setDevice = lib.require("hipSetDevice", FunctionDescriptor.of(JAVA_INT, JAVA_INT));
            memcpyAsync = lib.require(
                    "hipMemcpyAsync",
                    FunctionDescriptor.of(JAVA_INT, JAVA_LONG, JAVA_LONG, JAVA_LONG, JAVA_INT, JAVA_LONG));
            getErrorName = lib.require("hipGetErrorName", FunctionDescriptor.of(ADDRESS, JAVA_INT));
            getErrorString = lib.require("hipGetErrorString", FunctionDescriptor.of(ADDRESS, JAVA_INT));
        }

        String name(int rc) {
            return StatusCalls.string(getErrorName, rc, "hipError " + rc);
        }

        String text(int rc) {
            return StatusCalls.string(getErrorString, rc, "no description");
        }

        GpuException error(int rc, String call) {
            return new GpuException(API, call, rc, name(rc), text(rc));
        }
    }
}
