package dev.linkproof.transfer.gpu;

import static java.lang.foreign.ValueLayout.JAVA_LONG;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;

/**
 * A {@link GpuStream} over a vendor stream and a ring of timing-free events. What differs between
 * CUDA and HIP (the calls, how a device is made current, the "not ready" code) comes in through
 * {@link Vendor}; the ring, the status handling and the close order are here once.
 */
public final class EventRingStream implements GpuStream {
    /** Copy directions, as {@link Vendor#copy} receives them. */
    public static final int HOST_TO_DEVICE = 1;
    public static final int DEVICE_TO_HOST = 2;
    public static final int DEVICE_TO_DEVICE = 3;

    /** One vendor's stream calls; each returns the runtime's status code. */
    public interface Vendor {
        String api();

        /** Makes the stream's device current on the calling thread (the runtimes keep it per thread). */
        int makeCurrent();

        int copy(int direction, long dst, long src, long bytes, long stream);

        int record(long event, long stream);

        int queryEvent(long event);

        int queryStream(long stream);

        /** Creates a non-blocking stream into {@code out}. */
        int createStream(MemorySegment out);

        /** Creates a timing-free event into {@code out}. */
        int createEvent(MemorySegment out);

        int destroyEvent(long event);

        int destroyStream(long stream);

        /** The status code for "still running" (CUDA_ERROR_NOT_READY, hipErrorNotReady). */
        int notReady();

        GpuException error(int status, String call);

        /** The name of the vendor call behind {@code direction}, for error messages. */
        String copyCall(int direction);
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
            int rc = vendor.makeCurrent();
            if (rc != 0) {
                throw vendor.error(rc, "making device " + device + " current");
            }
            rc = vendor.createStream(out);
            if (rc != 0) {
                throw vendor.error(rc, vendor.api() + " stream create");
            }
            long stream = out.get(JAVA_LONG, 0);
            for (int made = 0; made < markers; made++) {
                rc = vendor.createEvent(out);
                if (rc != 0) {
                    for (int i = 0; i < made; i++) {
                        vendor.destroyEvent(events[i]);
                    }
                    vendor.destroyStream(stream);
                    throw vendor.error(rc, vendor.api() + " event create");
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
        int rc = vendor.copy(direction, dst, src, bytes, stream);
        if (rc != 0) {
            throw vendor.error(rc, vendor.copyCall(direction) + "(" + bytes + " bytes)");
        }
    }

    @Override
    public void mark(int slot) throws GpuException {
        current();
        int rc = vendor.record(events[slot], stream);
        if (rc != 0) {
            throw vendor.error(rc, vendor.api() + " event record");
        }
    }

    @Override
    public boolean reached(int slot) throws GpuException {
        return done(vendor.queryEvent(events[slot]), "event query");
    }

    @Override
    public boolean idle() throws GpuException {
        current();
        return done(vendor.queryStream(stream), "stream query");
    }

    private boolean done(int rc, String what) throws GpuException {
        if (rc == 0) {
            return true;
        }
        if (rc == vendor.notReady()) {
            return false;
        }
        throw vendor.error(rc, vendor.api() + " " + what);
    }

    private void current() throws GpuException {
        int rc = vendor.makeCurrent();
        if (rc != 0) {
            throw vendor.error(rc, "making device " + device + " current");
        }
    }

    @Override
    public synchronized void close() {
        if (closed) {
            return;
        }
        closed = true;
        vendor.makeCurrent();
        for (long e : events) {
            vendor.destroyEvent(e);
        }
        vendor.destroyStream(stream);
    }
}
