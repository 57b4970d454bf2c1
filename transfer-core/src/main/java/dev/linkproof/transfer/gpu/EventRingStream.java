package dev.linkproof.transfer.gpu;

import static dev.linkproof.transfer.nativeaccess.StatusCalls.call;
import static java.lang.foreign.ValueLayout.JAVA_LONG;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.invoke.MethodHandle;
import java.util.List;

/**
 * A {@link GpuStream} over a vendor stream and a ring of timing-free events. What differs between
 * CUDA and HIP (the calls, how a device is made current, the "not ready" code) comes in through
 * {@link Vendor}; the ring, the status handling and the close order are here once.
 */
public final class EventRingStream implements GpuStream {
    /** Copy directions, as {@link Copy#copy} receives them. */
    public static final int HOST_TO_DEVICE = 1;

    public static final int DEVICE_TO_HOST = 2;
    public static final int DEVICE_TO_DEVICE = 3;

    /**
     * One vendor's stream and event calls (each returns the runtime's status code), the flags it
     * creates them with, how it makes a device current on the calling thread (the runtimes keep it
     * per thread), how it copies, and how it names its errors.
     *
     * @param copyCalls the vendor call behind each direction, indexed by it, for error messages
     */
    public record Vendor(
            String api,
            int notReady,
            MethodHandle streamCreate,
            int streamFlags,
            MethodHandle streamDestroy,
            MethodHandle streamQuery,
            MethodHandle eventCreate,
            int eventFlags,
            MethodHandle eventDestroy,
            MethodHandle eventRecord,
            MethodHandle eventQuery,
            Current current,
            Copy copy,
            List<String> copyCalls,
            Errors errors) {}

    /** Makes the stream's device current on the calling thread; returns the status. */
    @FunctionalInterface
    public interface Current {
        int makeCurrent();
    }

    /** Queues one copy in {@code direction} ({@link #HOST_TO_DEVICE}, ...); returns the status. */
    @FunctionalInterface
    public interface Copy {
        int copy(int direction, long dst, long src, long bytes, long stream);
    }

    /** Turns a status into the vendor's exception, naming the call. */
    @FunctionalInterface
    public interface Errors {
        GpuException error(int status, String call);
    }

    private final Vendor vendor;
    private final int device;
    private final long stream;
    private final long[] events;
    private boolean closed;

    private EventRingStream(Vendor vendor, int device, long stream, long[] events) {
        this.vendor = vendor;
        this.device = device;
        this.stream = stream;
        this.events = events;
    }

    /** Creates the stream and its {@code markers} events on {@code device}; undoes what it made when one fails. */
    public static EventRingStream open(Vendor vendor, int device, int markers) throws GpuException {
        if (markers < 1) {
            throw new IllegalArgumentException("a stream needs at least one marker, was " + markers);
        }
        long[] events = new long[markers];
        try (Arena a = Arena.ofConfined()) {
            MemorySegment out = a.allocate(JAVA_LONG);
            int rc = vendor.current().makeCurrent();
            if (rc != 0) {
                throw vendor.errors().error(rc, "making device " + device + " current");
            }
            rc = call(vendor.streamCreate(), out, vendor.streamFlags());
            if (rc != 0) {
                throw vendor.errors().error(rc, vendor.api() + " stream create");
            }
            long stream = out.get(JAVA_LONG, 0);
            for (int made = 0; made < markers; made++) {
                rc = call(vendor.eventCreate(), out, vendor.eventFlags());
                if (rc != 0) {
                    for (int i = 0; i < made; i++) {
                        call(vendor.eventDestroy(), events[i]);
                    }
                    call(vendor.streamDestroy(), stream);
                    throw vendor.errors().error(rc, vendor.api() + " event create");
                }
                events[made] = out.get(JAVA_LONG, 0);
            }
            return new EventRingStream(vendor, device, stream, events);
        }
    }

    @Override
    public int device() {
        return device;
    }

    @Override
    public int markers() {
        return events.length;
    }

    @Override
    public String api() {
        return vendor.api();
    }

    @Override
    public void copyHostToDevice(long deviceDst, long hostSrc, long bytes) throws GpuException {
        copy(HOST_TO_DEVICE, deviceDst, hostSrc, bytes);
    }

    @Override
    public void copyDeviceToHost(long hostDst, long deviceSrc, long bytes) throws GpuException {
        copy(DEVICE_TO_HOST, hostDst, deviceSrc, bytes);
    }

    @Override
    public void copyDeviceToDevice(long deviceDst, long deviceSrc, long bytes) throws GpuException {
        copy(DEVICE_TO_DEVICE, deviceDst, deviceSrc, bytes);
    }

    private void copy(int direction, long dst, long src, long bytes) throws GpuException {
        current();
        int rc = vendor.copy().copy(direction, dst, src, bytes, stream);
        if (rc != 0) {
            throw vendor.errors().error(rc, vendor.copyCalls().get(direction) + "(" + bytes + " bytes)");
        }
    }

    @Override
    public void mark(int slot) throws GpuException {
        current();
        int rc = call(vendor.eventRecord(), events[slot], stream);
        if (rc != 0) {
            throw vendor.errors().error(rc, vendor.api() + " event record");
        }
    }

    @Override
    public boolean reached(int slot) throws GpuException {
        return done(call(vendor.eventQuery(), events[slot]), "event query");
    }

    @Override
    public boolean idle() throws GpuException {
        current();
        return done(call(vendor.streamQuery(), stream), "stream query");
    }

    private boolean done(int rc, String what) throws GpuException {
        if (rc == 0) {
            return true;
        }
        if (rc == vendor.notReady()) {
            return false;
        }
        throw vendor.errors().error(rc, vendor.api() + " " + what);
    }

    private void current() throws GpuException {
        int rc = vendor.current().makeCurrent();
        if (rc != 0) {
            throw vendor.errors().error(rc, "making device " + device + " current");
        }
    }

    @Override
    public synchronized void close() {
        if (closed) {
            return;
        }
        closed = true;
        vendor.current().makeCurrent();
        for (long e : events) {
            call(vendor.eventDestroy(), e);
        }
        call(vendor.streamDestroy(), stream);
    }
}
