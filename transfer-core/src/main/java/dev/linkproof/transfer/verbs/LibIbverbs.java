package dev.linkproof.transfer.verbs;

import static java.lang.foreign.ValueLayout.ADDRESS;
import static java.lang.foreign.ValueLayout.JAVA_BYTE;
import static java.lang.foreign.ValueLayout.JAVA_INT;
import static java.lang.foreign.ValueLayout.JAVA_LONG;
import static java.lang.foreign.ValueLayout.JAVA_SHORT;

import dev.linkproof.transfer.nativeaccess.NativeLibrary;
import java.lang.foreign.Arena;
import java.lang.foreign.FunctionDescriptor;
import java.lang.foreign.Linker;
import java.lang.foreign.MemoryLayout;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.StructLayout;
import java.lang.foreign.SymbolLookup;
import java.lang.invoke.MethodHandle;
import java.lang.invoke.VarHandle;
import java.util.Optional;

/**
 * Downcall handles for the exported functions of {@code libibverbs.so.1}, loaded at the first
 * {@link #get()}, so a machine without the library sees a reason from {@link #unavailable()} and
 * never a link error. {@code dlsym} ({@link SymbolLookup#libraryLookup}) binds the default version
 * of a versioned symbol ({@code ibv_create_qp@@IBVERBS_1.1}), as the C headers do. The data-path
 * calls are {@code static inline} in {@code verbs.h}: {@link VerbsDevice} makes them from the
 * context's ops table. Functions that set {@code errno} on failure capture it
 * ({@link Linker.Option#captureCallState}): their handles take the capture segment first.
 */
public final class LibIbverbs {
    public static final String LIBRARY = "libibverbs.so.1";

    static final Linker LINKER = Linker.nativeLinker();
    static final StructLayout CAPTURE = Linker.Option.captureStateLayout();
    private static final VarHandle ERRNO = CAPTURE.varHandle(MemoryLayout.PathElement.groupElement("errno"));
    private static final Linker.Option ERRNO_OPTION = Linker.Option.captureCallState("errno");

    // The ops-table calls, identical for every provider; made per context in VerbsDevice.
    static final FunctionDescriptor POLL_CQ = FunctionDescriptor.of(JAVA_INT, ADDRESS, JAVA_INT, ADDRESS);
    static final FunctionDescriptor REQ_NOTIFY_CQ = FunctionDescriptor.of(JAVA_INT, ADDRESS, JAVA_INT);
    static final FunctionDescriptor POST_SEND = FunctionDescriptor.of(JAVA_INT, ADDRESS, ADDRESS, ADDRESS);
    static final FunctionDescriptor POST_RECV = FunctionDescriptor.of(JAVA_INT, ADDRESS, ADDRESS, ADDRESS);

    final MethodHandle getDeviceList; // struct ibv_device **(int *num_devices)            errno
    final MethodHandle freeDeviceList; // void (struct ibv_device **)
    final MethodHandle getDeviceName; // const char *(struct ibv_device *)
    final MethodHandle openDevice; // struct ibv_context *(struct ibv_device *)          errno
    final MethodHandle closeDevice; // int (struct ibv_context *)
    final MethodHandle queryDevice; // int (struct ibv_context *, struct ibv_device_attr *)
    final MethodHandle queryPort; // int (struct ibv_context *, uint8_t, struct _compat_ibv_port_attr *)
    final MethodHandle queryGid; // int (struct ibv_context *, uint8_t, int, union ibv_gid *)
    final MethodHandle allocPd; // struct ibv_pd *(struct ibv_context *)              errno
    final MethodHandle deallocPd; // int (struct ibv_pd *)
    final MethodHandle regMr; // struct ibv_mr *(struct ibv_pd *, void *, size_t, int)   errno
    final MethodHandle regDmabufMr; // struct ibv_mr *(pd, uint64_t offset, size_t, uint64_t iova, int fd, int) errno
    final MethodHandle deregMr; // int (struct ibv_mr *)
    final MethodHandle createCompChannel; // struct ibv_comp_channel *(struct ibv_context *)     errno
    final MethodHandle destroyCompChannel; // int (struct ibv_comp_channel *)
    final MethodHandle createCq; // struct ibv_cq *(ctx, int cqe, void *cq_context, channel, int comp_vector) errno
    final MethodHandle destroyCq; // int (struct ibv_cq *)
    final MethodHandle getCqEvent; // int (struct ibv_comp_channel *, struct ibv_cq **, void **)
    final MethodHandle ackCqEvents; // void (struct ibv_cq *, unsigned int)
    final MethodHandle createQp; // struct ibv_qp *(struct ibv_pd *, struct ibv_qp_init_attr *) errno
    final MethodHandle modifyQp; // int (struct ibv_qp *, struct ibv_qp_attr *, int attr_mask)
    final MethodHandle destroyQp; // int (struct ibv_qp *)
    final MethodHandle wcStatusStr; // const char *(enum ibv_wc_status)
    final MethodHandle poll; // libc: int poll(struct pollfd *, nfds_t, int timeout_ms)
    private final MethodHandle strerror; // libc: char *strerror(int)

    private LibIbverbs(SymbolLookup lib) {
        getDeviceList = fn(lib, "ibv_get_device_list", true, FunctionDescriptor.of(ADDRESS, ADDRESS));
        freeDeviceList = fn(lib, "ibv_free_device_list", false, FunctionDescriptor.ofVoid(ADDRESS));
        getDeviceName = fn(lib, "ibv_get_device_name", false, FunctionDescriptor.of(ADDRESS, ADDRESS));
        openDevice = fn(lib, "ibv_open_device", true, FunctionDescriptor.of(ADDRESS, ADDRESS));
        closeDevice = fn(lib, "ibv_close_device", false, FunctionDescriptor.of(JAVA_INT, ADDRESS));
        queryDevice = fn(lib, "ibv_query_device", false, FunctionDescriptor.of(JAVA_INT, ADDRESS, ADDRESS));
        queryPort = fn(lib, "ibv_query_port", false, FunctionDescriptor.of(JAVA_INT, ADDRESS, JAVA_BYTE, ADDRESS));
        queryGid =
                fn(lib, "ibv_query_gid", false, FunctionDescriptor.of(JAVA_INT, ADDRESS, JAVA_BYTE, JAVA_INT, ADDRESS));
        allocPd = fn(lib, "ibv_alloc_pd", true, FunctionDescriptor.of(ADDRESS, ADDRESS));
        deallocPd = fn(lib, "ibv_dealloc_pd", false, FunctionDescriptor.of(JAVA_INT, ADDRESS));
        regMr = fn(lib, "ibv_reg_mr", true, FunctionDescriptor.of(ADDRESS, ADDRESS, ADDRESS, JAVA_LONG, JAVA_INT));
        regDmabufMr = fn(
                lib,
                "ibv_reg_dmabuf_mr",
                true,
                FunctionDescriptor.of(ADDRESS, ADDRESS, JAVA_LONG, JAVA_LONG, JAVA_LONG, JAVA_INT, JAVA_INT));
        deregMr = fn(lib, "ibv_dereg_mr", false, FunctionDescriptor.of(JAVA_INT, ADDRESS));
        createCompChannel = fn(lib, "ibv_create_comp_channel", true, FunctionDescriptor.of(ADDRESS, ADDRESS));
        destroyCompChannel = fn(lib, "ibv_destroy_comp_channel", false, FunctionDescriptor.of(JAVA_INT, ADDRESS));
        createCq = fn(
                lib,
                "ibv_create_cq",
                true,
                FunctionDescriptor.of(ADDRESS, ADDRESS, JAVA_INT, ADDRESS, ADDRESS, JAVA_INT));
        destroyCq = fn(lib, "ibv_destroy_cq", false, FunctionDescriptor.of(JAVA_INT, ADDRESS));
        getCqEvent = fn(lib, "ibv_get_cq_event", false, FunctionDescriptor.of(JAVA_INT, ADDRESS, ADDRESS, ADDRESS));
        ackCqEvents = fn(lib, "ibv_ack_cq_events", false, FunctionDescriptor.ofVoid(ADDRESS, JAVA_INT));
        createQp = fn(lib, "ibv_create_qp", true, FunctionDescriptor.of(ADDRESS, ADDRESS, ADDRESS));
        modifyQp = fn(lib, "ibv_modify_qp", false, FunctionDescriptor.of(JAVA_INT, ADDRESS, ADDRESS, JAVA_INT));
        destroyQp = fn(lib, "ibv_destroy_qp", false, FunctionDescriptor.of(JAVA_INT, ADDRESS));
        wcStatusStr = fn(lib, "ibv_wc_status_str", false, FunctionDescriptor.of(ADDRESS, JAVA_INT));
        SymbolLookup libc = LINKER.defaultLookup();
        poll = fn(libc, "poll", false, FunctionDescriptor.of(JAVA_INT, ADDRESS, JAVA_LONG, JAVA_INT));
        strerror = fn(libc, "strerror", false, FunctionDescriptor.of(ADDRESS, JAVA_INT));
    }

    private static MethodHandle fn(SymbolLookup lookup, String name, boolean errno, FunctionDescriptor fd) {
        MemorySegment symbol = lookup.find(name)
                .orElseThrow(() -> new UnsatisfiedLinkError(
                        LIBRARY + " has no symbol " + name + " (rdma-core older than the bindings need?)"));
        return errno ? LINKER.downcallHandle(symbol, fd, ERRNO_OPTION) : LINKER.downcallHandle(symbol, fd);
    }

    /** Loaded on first use of {@link #get()} or {@link #unavailable()}, never at class load of its users. */
    private static final class Holder {
        static final LibIbverbs LIB;
        static final String WHY_NOT;

        static {
            LibIbverbs lib = null;
            String why = null;
            try {
                // Global arena: the library stays loaded for the life of the process, as providers
                // (librxe, libmlx5) dlopen'ed by it expect.
                lib = new LibIbverbs(NativeLibrary.lookup(LIBRARY, Arena.global()));
            } catch (IllegalArgumentException e) {
                // The loader's own words: absent, wrong ELF class, not a library, a dependency missing.
                why = LIBRARY + " cannot be loaded: " + e.getMessage()
                        + " (install Debian's libibverbs1 and ibverbs-providers)";
            } catch (UnsatisfiedLinkError | IllegalCallerException e) {
                why = e.getMessage();
            }
            LIB = lib;
            WHY_NOT = why;
        }
    }

    /** Why the library cannot be used, or empty when it can. Loads it on the first call. */
    public static Optional<String> unavailable() {
        return Optional.ofNullable(Holder.WHY_NOT);
    }

    /** The loaded library; throws {@link IllegalStateException} with the reason when it is absent. */
    public static LibIbverbs get() {
        if (Holder.LIB == null) {
            throw new IllegalStateException(Holder.WHY_NOT);
        }
        return Holder.LIB;
    }

    static MemorySegment newCapture(Arena arena) {
        return arena.allocate(CAPTURE);
    }

    static int errno(MemorySegment capture) {
        return (int) ERRNO.get(capture, 0L);
    }

    String strerror(int errno) {
        try {
            MemorySegment s = (MemorySegment) strerror.invokeExact(errno);
            return s.reinterpret(256).getString(0) + " (errno " + errno + ")";
        } catch (Throwable t) {
            return "errno " + errno;
        }
    }

    /** {@code ibv_wc_status_str}: "success", "transport retry counter exceeded", ... */
    String wcStatus(int status) {
        try {
            MemorySegment s = (MemorySegment) wcStatusStr.invokeExact(status);
            return s.reinterpret(256).getString(0) + " (status " + status + ")";
        } catch (Throwable t) {
            return "status " + status;
        }
    }

    /** A downcall handle for a function pointer read from a context's ops table. */
    static MethodHandle opHandle(MemorySegment fnPointer, FunctionDescriptor fd) {
        return LINKER.downcallHandle(fnPointer, fd);
    }

    static void setPollFd(MemorySegment pollfd, int fd) {
        pollfd.set(JAVA_INT, VerbsAbi.POLLFD_FD, fd);
        pollfd.set(JAVA_SHORT, VerbsAbi.POLLFD_EVENTS, (short) VerbsAbi.POLLIN);
        pollfd.set(JAVA_SHORT, VerbsAbi.POLLFD_REVENTS, (short) 0);
    }
}
