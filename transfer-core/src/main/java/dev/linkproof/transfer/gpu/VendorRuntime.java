package dev.linkproof.transfer.gpu;

import static dev.linkproof.transfer.nativeaccess.StatusCalls.call;
import static java.lang.foreign.ValueLayout.ADDRESS;
import static java.lang.foreign.ValueLayout.JAVA_BYTE;
import static java.lang.foreign.ValueLayout.JAVA_INT;
import static java.lang.foreign.ValueLayout.JAVA_LONG;

import dev.linkproof.transfer.nativeaccess.NativeLibrary;
import java.lang.foreign.Arena;
import java.lang.foreign.FunctionDescriptor;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.StructLayout;
import java.lang.invoke.MethodHandle;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.function.IntPredicate;
import java.util.logging.Logger;

/**
 * Everything the CUDA and HIP bindings do the same way: the calls both runtimes have with the same C
 * signature ({@link Call}), bound from each vendor's symbol names; listing the devices; allocating,
 * freeing, exporting and opening IPC handles and dma-bufs; opening streams. What a vendor adds is only
 * what differs: its symbol names, constants and struct layouts ({@link Vendor}), how it decodes a
 * status into an error, how it makes a device current, and how it copies.
 */
public abstract class VendorRuntime implements GpuRuntime {
    private static final Logger LOG = Logger.getLogger(VendorRuntime.class.getName());

    /** The calls both runtimes have, each with one C signature in both; a vendor names their symbols. */
    public enum Call {
        INIT(FunctionDescriptor.of(JAVA_INT, JAVA_INT)),
        /** cuDriverGetVersion, hipRuntimeGetVersion: what {@link #describe()} reports. */
        VERSION(FunctionDescriptor.of(JAVA_INT, ADDRESS)),
        DEVICE_COUNT(FunctionDescriptor.of(JAVA_INT, ADDRESS)),
        DEVICE_GET(FunctionDescriptor.of(JAVA_INT, ADDRESS, JAVA_INT)),
        DEVICE_NAME(FunctionDescriptor.of(JAVA_INT, ADDRESS, JAVA_INT, JAVA_INT)),
        DEVICE_PCI_BUS_ID(FunctionDescriptor.of(JAVA_INT, ADDRESS, JAVA_INT, JAVA_INT)),
        DEVICE_TOTAL_MEM(FunctionDescriptor.of(JAVA_INT, ADDRESS, JAVA_INT)),
        MALLOC(FunctionDescriptor.of(JAVA_INT, ADDRESS, JAVA_LONG)),
        FREE(FunctionDescriptor.of(JAVA_INT, JAVA_LONG)),
        STREAM_CREATE(FunctionDescriptor.of(JAVA_INT, ADDRESS, JAVA_INT)),
        STREAM_DESTROY(FunctionDescriptor.of(JAVA_INT, JAVA_LONG)),
        STREAM_QUERY(FunctionDescriptor.of(JAVA_INT, JAVA_LONG)),
        EVENT_CREATE(FunctionDescriptor.of(JAVA_INT, ADDRESS, JAVA_INT)),
        EVENT_DESTROY(FunctionDescriptor.of(JAVA_INT, JAVA_LONG)),
        EVENT_RECORD(FunctionDescriptor.of(JAVA_INT, JAVA_LONG, JAVA_LONG)),
        EVENT_QUERY(FunctionDescriptor.of(JAVA_INT, JAVA_LONG)),
        IPC_GET(FunctionDescriptor.of(JAVA_INT, ADDRESS, JAVA_LONG)),
        /** Its handle goes by value: the descriptor takes the vendor's handle layout ({@link #descriptor}). */
        IPC_OPEN(null),
        IPC_CLOSE(FunctionDescriptor.of(JAVA_INT, JAVA_LONG)),
        /** Optional: older drivers and runtimes lack it, and then no dma-buf is exported ({@link #exportDmabuf}). */
        DMABUF_EXPORT(FunctionDescriptor.of(JAVA_INT, ADDRESS, JAVA_LONG, JAVA_LONG, JAVA_INT, JAVA_LONG));

        private final FunctionDescriptor descriptor;

        Call(FunctionDescriptor descriptor) {
            this.descriptor = descriptor;
        }

        /**
         * A vendor's symbols, given in this enum's order: one name per call, so a vendor's table is
         * as long as the list of calls and cannot skip one.
         */
        public static Map<Call, String> named(String... symbols) {
            Call[] calls = values();
            if (symbols.length != calls.length) {
                throw new IllegalArgumentException(calls.length + " symbols needed (" + java.util.Arrays.toString(calls)
                        + "), " + symbols.length + " given");
            }
            Map<Call, String> out = new EnumMap<>(Call.class);
            for (int i = 0; i < calls.length; i++) {
                out.put(calls[i], symbols[i]);
            }
            return out;
        }

        FunctionDescriptor descriptor(StructLayout ipcHandle) {
            return this == IPC_OPEN ? FunctionDescriptor.of(JAVA_INT, ADDRESS, ipcHandle, JAVA_INT) : descriptor;
        }
    }

    /** A value a vendor's header defines, with its name there: the binding passes the value, the ABI tests compare it. */
    public record Defined(String name, int value) {}

    /**
     * What one vendor's runtime is called and the values its header defines, for the shared code.
     *
     * @param ipcHandle         the by-value IPC handle layout, named as the header names its type
     * @param notReady          the status of a stream or event still running
     * @param dmabufHandleType  the handle type that asks {@link Call#DMABUF_EXPORT} for a dma-buf fd
     * @param copyCalls         the vendor call behind each copy direction, indexed by it, for errors
     * @param wordTypes         the header's types passed as {@code JAVA_LONG} (pointers, handles)
     */
    public record Vendor(
            String api,
            String vendor,
            String deviceNoun,
            Map<Call, String> symbols,
            StructLayout ipcHandle,
            Defined success,
            Defined notReady,
            Defined streamFlags,
            Defined eventFlags,
            Defined ipcHandleSize,
            int dmabufHandleType,
            String dmabufHandleTypeName,
            List<String> copyCalls,
            List<String> wordTypes,
            List<String> intTypes) {
        public Vendor {
            symbols = Map.copyOf(symbols);
            copyCalls = List.copyOf(copyCalls);
            wordTypes = List.copyOf(wordTypes);
            intTypes = List.copyOf(intTypes);
        }

        public String symbol(Call call) {
            return symbols.get(call);
        }

        /**
         * The header's values and sizes this record holds, keyed as the ABI tests' C programs print them
         * ({@code const.<name>}, {@code sizeof.<type>}); a vendor adds its own.
         */
        public Map<String, Long> abiFacts() {
            Map<String, Long> f = new LinkedHashMap<>();
            for (Defined d : List.of(success, notReady, streamFlags, eventFlags, ipcHandleSize)) {
                f.put("const." + d.name(), (long) d.value());
            }
            f.put("sizeof." + ipcHandle.name().orElseThrow(), ipcHandle.byteSize());
            wordTypes.forEach(t -> f.put("sizeof." + t, JAVA_LONG.byteSize()));
            intTypes.forEach(t -> f.put("sizeof." + t, JAVA_INT.byteSize()));
            return f;
        }
    }

    /** A vendor's {@link Call}s, bound; {@link Call#DMABUF_EXPORT} may be missing. */
    protected static final class Calls {
        private final Vendor vendor;
        private final Map<Call, MethodHandle> handles = new EnumMap<>(Call.class);

        private Calls(Vendor vendor, NativeLibrary lib) {
            this.vendor = vendor;
            for (Call c : Call.values()) {
                FunctionDescriptor fd = c.descriptor(vendor.ipcHandle());
                if (c == Call.DMABUF_EXPORT) {
                    lib.optional(vendor.symbol(c), fd).ifPresent(h -> handles.put(c, h));
                } else {
                    handles.put(c, lib.require(vendor.symbol(c), fd));
                }
            }
        }

        public static Calls bind(Vendor vendor, NativeLibrary lib) {
            return new Calls(vendor, lib);
        }

        public MethodHandle get(Call call) {
            return handles.get(call);
        }

        public Optional<MethodHandle> optional(Call call) {
            return Optional.ofNullable(handles.get(call));
        }

        /**
         * The version the runtime reports and its devices, {@link Call#INIT} having succeeded. Fails,
         * as the loaders do, with an {@link IllegalStateException} when it finds no device.
         *
         * @param dmabuf whether the device of this handle can export dma-bufs (asked only when the
         *               runtime has {@link Call#DMABUF_EXPORT})
         */
        public Found find(EventRingStream.Errors errors, IntPredicate dmabuf) throws GpuException {
            try (Arena a = Arena.ofConfined()) {
                MemorySegment out = a.allocate(JAVA_INT);
                check(errors, call(get(Call.VERSION), out), Call.VERSION);
                int version = out.get(JAVA_INT, 0);
                check(errors, call(get(Call.DEVICE_COUNT), out), Call.DEVICE_COUNT);
                int count = out.get(JAVA_INT, 0);
                if (count == 0) {
                    throw new IllegalStateException(
                            vendor.symbol(Call.DEVICE_COUNT) + " found no " + vendor.deviceNoun());
                }
                List<GpuDeviceInfo> devices = new ArrayList<>();
                for (int i = 0; i < count; i++) {
                    devices.add(device(a, errors, i, dmabuf));
                }
                return new Found(version, List.copyOf(devices));
            }
        }

        private GpuDeviceInfo device(Arena a, EventRingStream.Errors errors, int ordinal, IntPredicate dmabuf)
                throws GpuException {
            MemorySegment dev = a.allocate(JAVA_INT);
            check(
                    errors,
                    call(get(Call.DEVICE_GET), dev, ordinal),
                    vendor.symbol(Call.DEVICE_GET) + "(" + ordinal + ")");
            // The handle, not the ordinal, names the device below: in HIP the two are the same number
            // (hipDeviceGet returns the ordinal), in CUDA the handle is what the calls take.
            int handle = dev.get(JAVA_INT, 0);
            MemorySegment name = a.allocate(256);
            check(errors, call(get(Call.DEVICE_NAME), name, 256, handle), Call.DEVICE_NAME);
            MemorySegment bus = a.allocate(64);
            check(errors, call(get(Call.DEVICE_PCI_BUS_ID), bus, 64, handle), Call.DEVICE_PCI_BUS_ID);
            MemorySegment total = a.allocate(JAVA_LONG);
            check(errors, call(get(Call.DEVICE_TOTAL_MEM), total, handle), Call.DEVICE_TOTAL_MEM);
            return new GpuDeviceInfo(
                    ordinal,
                    name.getString(0),
                    bus.getString(0).toLowerCase(Locale.ROOT),
                    total.get(JAVA_LONG, 0),
                    handles.containsKey(Call.DMABUF_EXPORT) && dmabuf.test(handle));
        }

        private void check(EventRingStream.Errors errors, int status, Call call) throws GpuException {
            check(errors, status, vendor.symbol(call));
        }

        private void check(EventRingStream.Errors errors, int status, String call) throws GpuException {
            if (status != vendor.success().value()) {
                throw errors.error(status, call);
            }
        }
    }

    /** What loading a runtime found: the version it reports and the devices this process sees. */
    public record Found(int version, List<GpuDeviceInfo> devices) {}

    private final Vendor vendor;
    private final Calls calls;
    private final List<GpuDeviceInfo> devices;
    private final int ipcOpenFlags;

    /**
     * @param ipcOpenFlags the one flag value the vendor's IPC open accepts (it may depend on the
     *                     loaded runtime's version)
     */
    protected VendorRuntime(Vendor vendor, Calls calls, List<GpuDeviceInfo> devices, int ipcOpenFlags) {
        this.vendor = vendor;
        this.calls = calls;
        this.devices = devices;
        this.ipcOpenFlags = ipcOpenFlags;
    }

    /** Makes {@code device} current on the calling thread; {@link #checkDevice} has passed. */
    protected abstract void makeCurrent(int device) throws GpuException;

    /** The vendor's exception for {@code status}, naming {@code call}. */
    protected abstract GpuException error(int status, String call);

    /** What a stream on {@code device} calls to make its device current ({@link #makeCurrent} has passed). */
    protected abstract EventRingStream.Current current(int device) throws GpuException;

    /** How the vendor queues a copy in one of {@link EventRingStream}'s directions. */
    protected abstract EventRingStream.Copy copy();

    /**
     * Why {@code device} exports no dma-buf: the runtime lacks {@link Call#DMABUF_EXPORT}
     * ({@code symbolMissing}), or the device said it cannot.
     */
    protected abstract String whyNoDmabuf(int device, boolean symbolMissing);

    @Override
    public final String api() {
        return vendor.api();
    }

    @Override
    public final String vendor() {
        return vendor.vendor();
    }

    @Override
    public final List<GpuDeviceInfo> devices() {
        return devices;
    }

    protected final void check(int status, String call) throws GpuException {
        if (status != vendor.success().value()) {
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
            throw new GpuException(
                    api(), "no " + vendor.deviceNoun() + " " + device + " (this process sees " + devices.size() + ")");
        }
    }

    private String symbol(Call call) {
        return vendor.symbol(call);
    }

    @Override
    public final long allocate(int device, long bytes) throws GpuException {
        bind(device);
        try (Arena a = Arena.ofConfined()) {
            MemorySegment out = a.allocate(JAVA_LONG);
            check(
                    call(calls.get(Call.MALLOC), out, bytes),
                    symbol(Call.MALLOC) + "(" + bytes + " bytes on device " + device + ")");
            return out.get(JAVA_LONG, 0);
        }
    }

    @Override
    public final void free(int device, long pointer) {
        try {
            bind(device);
            check(call(calls.get(Call.FREE), pointer), symbol(Call.FREE));
        } catch (GpuException e) {
            LOG.warning("cannot free device memory 0x" + Long.toHexString(pointer) + ": " + e.getMessage());
        }
    }

    @Override
    public final GpuStream openStream(int device, int markers) throws GpuException {
        bind(device);
        return EventRingStream.open(
                new EventRingStream.Vendor(
                        api(),
                        vendor.notReady().value(),
                        calls.get(Call.STREAM_CREATE),
                        vendor.streamFlags().value(),
                        calls.get(Call.STREAM_DESTROY),
                        calls.get(Call.STREAM_QUERY),
                        calls.get(Call.EVENT_CREATE),
                        vendor.eventFlags().value(),
                        calls.get(Call.EVENT_DESTROY),
                        calls.get(Call.EVENT_RECORD),
                        calls.get(Call.EVENT_QUERY),
                        current(device),
                        copy(),
                        vendor.copyCalls(),
                        this::error),
                device,
                markers);
    }

    @Override
    public final byte[] exportIpc(int device, long pointer) throws GpuException {
        bind(device);
        try (Arena a = Arena.ofConfined()) {
            MemorySegment handle = a.allocate(vendor.ipcHandle());
            check(call(calls.get(Call.IPC_GET), handle, pointer), symbol(Call.IPC_GET));
            return handle.toArray(JAVA_BYTE);
        }
    }

    @Override
    public final long openIpc(int device, byte[] handle) throws GpuException {
        long size = vendor.ipcHandle().byteSize();
        if (handle.length != size) {
            throw new GpuException(
                    api(), "a " + api() + " IPC handle has " + size + " bytes, this one " + handle.length);
        }
        bind(device);
        try (Arena a = Arena.ofConfined()) {
            MemorySegment h = a.allocate(vendor.ipcHandle());
            MemorySegment.copy(handle, 0, h, JAVA_BYTE, 0, handle.length);
            MemorySegment out = a.allocate(JAVA_LONG);
            check(call(calls.get(Call.IPC_OPEN), out, h, ipcOpenFlags), symbol(Call.IPC_OPEN));
            return out.get(JAVA_LONG, 0);
        }
    }

    @Override
    public final void closeIpc(int device, long pointer) {
        try {
            bind(device);
            check(call(calls.get(Call.IPC_CLOSE), pointer), symbol(Call.IPC_CLOSE));
        } catch (GpuException e) {
            LOG.warning("cannot close the IPC mapping 0x" + Long.toHexString(pointer) + ": " + e.getMessage());
        }
    }

    @Override
    public final int exportDmabuf(int device, long pointer, long bytes) throws GpuException {
        Optional<MethodHandle> export = calls.optional(Call.DMABUF_EXPORT);
        if (export.isEmpty()) {
            throw new GpuException(api(), whyNoDmabuf(device, true));
        }
        checkDevice(device);
        if (!devices.get(device).dmabufSupported()) {
            throw new GpuException(api(), whyNoDmabuf(device, false));
        }
        bind(device);
        try (Arena a = Arena.ofConfined()) {
            MemorySegment fd = a.allocate(JAVA_INT);
            check(
                    call(export.get(), fd, pointer, bytes, vendor.dmabufHandleType(), 0L),
                    symbol(Call.DMABUF_EXPORT) + "(" + vendor.dmabufHandleTypeName() + ")");
            return fd.get(JAVA_INT, 0);
        }
    }
}
