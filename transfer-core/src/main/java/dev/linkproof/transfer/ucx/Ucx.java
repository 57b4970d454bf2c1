package dev.linkproof.transfer.ucx;

import static java.lang.foreign.MemoryLayout.PathElement.groupElement;
import static java.lang.foreign.ValueLayout.ADDRESS;
import static java.lang.foreign.ValueLayout.JAVA_BYTE;
import static java.lang.foreign.ValueLayout.JAVA_INT;
import static java.lang.foreign.ValueLayout.JAVA_LONG;

import dev.linkproof.transfer.TransferException;
import dev.linkproof.transfer.memory.HostLimits;
import dev.linkproof.transfer.nativeaccess.NativeLibrary;
import java.lang.foreign.Arena;
import java.lang.foreign.FunctionDescriptor;
import java.lang.foreign.Linker;
import java.lang.foreign.MemoryLayout;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.StructLayout;
import java.lang.foreign.SymbolLookup;
import java.lang.invoke.MethodHandle;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * Hand-written FFM bindings to the part of libucp (UCX ≥ 1.13) the ucx transport uses, loaded at
 * first use ({@link #unavailableReason()} says why they cannot be). The layout test checks what they
 * rely on (a one-byte {@code ucs_status_t}, struct layouts); they empty {@code UCX_ERROR_SIGNALS}
 * before libucs loads, whose SIGSEGV handlers would abort the JVM at its first implicit null check.
 *
 * <p>Longer than 400 lines because it is a binding table: one constant, layout or downcall per
 * header item, kept together so that the layout test checks them in one place.
 */
public final class Ucx {
    public static final String LIBRARY = "libucp.so.0";
    /** Overrides the library name (tests use it to see the transport without UCX). */
    public static final String LIBRARY_PROPERTY = "linkproof.ucx.library";

    // ucs_status_t
    public static final byte UCS_OK = 0;
    public static final byte UCS_INPROGRESS = 1;
    public static final long UCS_ERR_LAST = -100;
    public static final byte UCS_ERR_NO_RESOURCE = -2;
    public static final byte UCS_ERR_IO_ERROR = -3;
    public static final byte UCS_ERR_NO_MEMORY = -4;
    public static final byte UCS_ERR_UNREACHABLE = -6;
    public static final byte UCS_ERR_CANCELED = -16;
    public static final byte UCS_ERR_TIMED_OUT = -20;
    public static final byte UCS_ERR_REJECTED = -23;
    public static final byte UCS_ERR_NOT_CONNECTED = -24;
    public static final byte UCS_ERR_CONNECTION_RESET = -25;
    /** Link failures are UCS_ERR_LAST_LINK_FAILURE (-59) ..-40, endpoint failures ..-60 (timeout -80) to -89. */
    public static final byte UCS_ERR_FIRST_LINK_FAILURE = -40;

    public static final byte UCS_ERR_LAST_ENDPOINT_FAILURE = -89;

    // ucp_params_t field mask and features
    public static final long UCP_PARAM_FIELD_FEATURES = 1L;
    public static final long UCP_FEATURE_RMA = 1L << 1;
    public static final long UCP_FEATURE_WAKEUP = 1L << 4;
    /** 64-bit atomics: requested only by contexts of atomic points, so RMA points' lane choice is as before. */
    public static final long UCP_FEATURE_AMO64 = 1L << 3;

    public static final byte UCS_ERR_BUSY = -15;
    // ucp_worker_params_t
    public static final long UCP_WORKER_PARAM_FIELD_THREAD_MODE = 1L;
    public static final int UCS_THREAD_MODE_SINGLE = 0;
    // ucp_ep_params_t
    public static final long UCP_EP_PARAM_FIELD_REMOTE_ADDRESS = 1L;
    public static final long UCP_EP_PARAM_FIELD_ERR_HANDLING_MODE = 1L << 1;
    public static final long UCP_EP_PARAM_FIELD_ERR_HANDLER = 1L << 2;
    public static final int UCP_ERR_HANDLING_MODE_PEER = 1;
    public static final int UCP_EP_CLOSE_FLAG_FORCE = 1;
    // ucp_mem_map_params_t
    public static final long UCP_MEM_MAP_PARAM_FIELD_ADDRESS = 1L;
    public static final long UCP_MEM_MAP_PARAM_FIELD_LENGTH = 1L << 1;
    public static final long UCP_MEM_MAP_PARAM_FIELD_FLAGS = 1L << 2;
    public static final long UCP_MEM_MAP_PARAM_FIELD_MEMORY_TYPE = 1L << 4;
    public static final int UCP_MEM_MAP_ALLOCATE = 1 << 1;
    // ucp_mem_attr_t
    public static final long UCP_MEM_ATTR_FIELD_ADDRESS = 1L;
    public static final long UCP_MEM_ATTR_FIELD_LENGTH = 1L << 1;
    // ucp_request_param_t
    public static final int UCP_OP_ATTR_FIELD_DATATYPE = 1 << 3;
    public static final int UCP_OP_ATTR_FIELD_FLAGS = 1 << 4;
    public static final int UCP_OP_ATTR_FIELD_REPLY_BUFFER = 1 << 5;
    // ucp_atomic_op_t
    public static final int UCP_ATOMIC_OP_ADD = 0;
    public static final int UCP_ATOMIC_OP_CSWAP = 2;
    // ucp_datatype_t: ucp_dt_make_contig(n) = n << UCP_DATATYPE_SHIFT | UCP_DATATYPE_CONTIG (a macro)
    public static final int UCP_DATATYPE_SHIFT = 3;
    public static final long UCP_DATATYPE_CONTIG = 0;
    public static final int UCP_OP_ATTR_FIELD_MEMORY_TYPE = 1 << 6;
    // ucs_memory_type_t: a GPU runtime's memory is mapped with its type (GpuRuntime.ucxMemoryType)
    public static final int UCS_MEMORY_TYPE_HOST = 0;
    public static final int UCS_MEMORY_TYPE_CUDA = 1;
    public static final int UCS_MEMORY_TYPE_ROCM = 3;
    // ucp_context_attr_t
    public static final long UCP_ATTR_FIELD_MEMORY_TYPES = 1L << 2;

    /** API version requested from ucp_init_version (ucp_init is static inline). */
    public static final int API_MAJOR = 1;

    public static final int API_MINOR = 13;

    public static final StructLayout PARAMS = MemoryLayout.structLayout(
                    JAVA_LONG.withName("field_mask"), JAVA_LONG.withName("features"), MemoryLayout.paddingLayout(64))
            .withName("ucp_params_t");
    public static final StructLayout WORKER_PARAMS = MemoryLayout.structLayout(
                    JAVA_LONG.withName("field_mask"), JAVA_INT.withName("thread_mode"), MemoryLayout.paddingLayout(188))
            .withName("ucp_worker_params_t");
    public static final StructLayout EP_PARAMS = MemoryLayout.structLayout(
                    JAVA_LONG.withName("field_mask"),
                    ADDRESS.withName("address"),
                    JAVA_INT.withName("err_mode"),
                    MemoryLayout.paddingLayout(4),
                    ADDRESS.withName("err_handler_cb"),
                    ADDRESS.withName("err_handler_arg"),
                    MemoryLayout.paddingLayout(64))
            .withName("ucp_ep_params_t");
    public static final StructLayout MEM_MAP_PARAMS = MemoryLayout.structLayout(
                    JAVA_LONG.withName("field_mask"),
                    ADDRESS.withName("address"),
                    JAVA_LONG.withName("length"),
                    JAVA_INT.withName("flags"),
                    JAVA_INT.withName("prot"),
                    JAVA_INT.withName("memory_type"),
                    MemoryLayout.paddingLayout(4))
            .withName("ucp_mem_map_params_t");
    public static final StructLayout MEM_ATTR = MemoryLayout.structLayout(
                    JAVA_LONG.withName("field_mask"),
                    ADDRESS.withName("address"),
                    JAVA_LONG.withName("length"),
                    MemoryLayout.paddingLayout(8))
            .withName("ucp_mem_attr_t");
    public static final StructLayout CONTEXT_ATTR = MemoryLayout.structLayout(
                    JAVA_LONG.withName("field_mask"),
                    MemoryLayout.paddingLayout(16),
                    JAVA_LONG.withName("memory_types"),
                    MemoryLayout.paddingLayout(32))
            .withName("ucp_context_attr_t");
    public static final StructLayout REQUEST_PARAM = MemoryLayout.structLayout(
                    JAVA_INT.withName("op_attr_mask"),
                    JAVA_INT.withName("flags"),
                    MemoryLayout.paddingLayout(16),
                    JAVA_LONG.withName("datatype"),
                    MemoryLayout.paddingLayout(8),
                    ADDRESS.withName("reply_buffer"),
                    JAVA_INT.withName("memory_type"),
                    MemoryLayout.paddingLayout(20))
            .withName("ucp_request_param_t");

    /** ucp_dt_make_contig(elementSize), a macro in ucp.h. */
    public static long dtMakeContig(long elementSize) {
        return elementSize << UCP_DATATYPE_SHIFT | UCP_DATATYPE_CONTIG;
    }

    /** The structs and the fields the binding touches, as {@code struct.field}. */
    static final Map<StructLayout, String[]> FIELDS = Map.of(
            CONTEXT_ATTR, new String[] {"field_mask", "memory_types"},
            PARAMS, new String[] {"field_mask", "features"},
            WORKER_PARAMS, new String[] {"field_mask", "thread_mode"},
            EP_PARAMS, new String[] {"field_mask", "address", "err_mode", "err_handler_cb", "err_handler_arg"},
            MEM_MAP_PARAMS, new String[] {"field_mask", "address", "length", "flags", "prot", "memory_type"},
            MEM_ATTR, new String[] {"field_mask", "address", "length"},
            REQUEST_PARAM, new String[] {"op_attr_mask", "flags", "datatype", "reply_buffer", "memory_type"});

    private Ucx() {}

    /** The facts the layout test compares with the C headers: sizeof, offsetof and constants. */
    public static Map<String, Long> layoutFacts() {
        Map<String, Long> facts = new LinkedHashMap<>();
        for (var e : FIELDS.entrySet()) {
            String struct = e.getKey().name().orElseThrow();
            facts.put("sizeof " + struct, e.getKey().byteSize());
            for (String f : e.getValue()) {
                facts.put(
                        "offsetof " + struct + "." + f.replace("err_handler_", "err_handler."),
                        e.getKey().byteOffset(groupElement(f)));
            }
        }
        facts.put("sizeof ucs_status_t", 1L);
        facts.put("const UCS_OK", (long) UCS_OK);
        facts.put("const UCS_INPROGRESS", (long) UCS_INPROGRESS);
        facts.put("const UCS_ERR_LAST", UCS_ERR_LAST);
        facts.put("const UCP_PARAM_FIELD_FEATURES", UCP_PARAM_FIELD_FEATURES);
        facts.put("const UCP_FEATURE_RMA", UCP_FEATURE_RMA);
        facts.put("const UCP_FEATURE_WAKEUP", UCP_FEATURE_WAKEUP);
        facts.put("const UCS_ERR_BUSY", (long) UCS_ERR_BUSY);
        facts.put("const UCP_WORKER_PARAM_FIELD_THREAD_MODE", UCP_WORKER_PARAM_FIELD_THREAD_MODE);
        facts.put("const UCS_THREAD_MODE_SINGLE", (long) UCS_THREAD_MODE_SINGLE);
        facts.put("const UCP_EP_PARAM_FIELD_REMOTE_ADDRESS", UCP_EP_PARAM_FIELD_REMOTE_ADDRESS);
        facts.put("const UCP_EP_PARAM_FIELD_ERR_HANDLING_MODE", UCP_EP_PARAM_FIELD_ERR_HANDLING_MODE);
        facts.put("const UCP_EP_PARAM_FIELD_ERR_HANDLER", UCP_EP_PARAM_FIELD_ERR_HANDLER);
        facts.put("const UCP_ERR_HANDLING_MODE_PEER", (long) UCP_ERR_HANDLING_MODE_PEER);
        facts.put("const UCP_EP_CLOSE_FLAG_FORCE", (long) UCP_EP_CLOSE_FLAG_FORCE);
        facts.put("const UCP_MEM_MAP_PARAM_FIELD_ADDRESS", UCP_MEM_MAP_PARAM_FIELD_ADDRESS);
        facts.put("const UCP_MEM_MAP_PARAM_FIELD_LENGTH", UCP_MEM_MAP_PARAM_FIELD_LENGTH);
        facts.put("const UCP_MEM_MAP_PARAM_FIELD_FLAGS", UCP_MEM_MAP_PARAM_FIELD_FLAGS);
        facts.put("const UCP_MEM_MAP_PARAM_FIELD_MEMORY_TYPE", UCP_MEM_MAP_PARAM_FIELD_MEMORY_TYPE);
        facts.put("const UCP_MEM_MAP_ALLOCATE", (long) UCP_MEM_MAP_ALLOCATE);
        facts.put("const UCP_MEM_ATTR_FIELD_ADDRESS", UCP_MEM_ATTR_FIELD_ADDRESS);
        facts.put("const UCP_MEM_ATTR_FIELD_LENGTH", UCP_MEM_ATTR_FIELD_LENGTH);
        facts.put("const UCP_OP_ATTR_FIELD_FLAGS", (long) UCP_OP_ATTR_FIELD_FLAGS);
        facts.put("const UCP_OP_ATTR_FIELD_DATATYPE", (long) UCP_OP_ATTR_FIELD_DATATYPE);
        facts.put("const UCP_OP_ATTR_FIELD_REPLY_BUFFER", (long) UCP_OP_ATTR_FIELD_REPLY_BUFFER);
        facts.put("const UCP_FEATURE_AMO64", UCP_FEATURE_AMO64);
        facts.put("const UCP_ATOMIC_OP_ADD", (long) UCP_ATOMIC_OP_ADD);
        facts.put("const UCP_ATOMIC_OP_CSWAP", (long) UCP_ATOMIC_OP_CSWAP);
        facts.put("const ucp_dt_make_contig(8)", dtMakeContig(8));
        facts.put("const UCP_OP_ATTR_FIELD_MEMORY_TYPE", (long) UCP_OP_ATTR_FIELD_MEMORY_TYPE);
        facts.put("const UCS_MEMORY_TYPE_HOST", (long) UCS_MEMORY_TYPE_HOST);
        facts.put("const UCS_MEMORY_TYPE_CUDA", (long) UCS_MEMORY_TYPE_CUDA);
        facts.put("const UCS_MEMORY_TYPE_ROCM", (long) UCS_MEMORY_TYPE_ROCM);
        facts.put("const UCP_ATTR_FIELD_MEMORY_TYPES", UCP_ATTR_FIELD_MEMORY_TYPES);
        facts.put("const UCS_ERR_UNREACHABLE", (long) UCS_ERR_UNREACHABLE);
        facts.put("const UCS_ERR_NO_RESOURCE", (long) UCS_ERR_NO_RESOURCE);
        facts.put("const UCS_ERR_IO_ERROR", (long) UCS_ERR_IO_ERROR);
        facts.put("const UCS_ERR_NO_MEMORY", (long) UCS_ERR_NO_MEMORY);
        facts.put("const UCS_ERR_CANCELED", (long) UCS_ERR_CANCELED);
        facts.put("const UCS_ERR_TIMED_OUT", (long) UCS_ERR_TIMED_OUT);
        facts.put("const UCS_ERR_REJECTED", (long) UCS_ERR_REJECTED);
        facts.put("const UCS_ERR_NOT_CONNECTED", (long) UCS_ERR_NOT_CONNECTED);
        facts.put("const UCS_ERR_CONNECTION_RESET", (long) UCS_ERR_CONNECTION_RESET);
        facts.put("const UCS_ERR_FIRST_LINK_FAILURE", (long) UCS_ERR_FIRST_LINK_FAILURE);
        facts.put("const UCS_ERR_LAST_ENDPOINT_FAILURE", (long) UCS_ERR_LAST_ENDPOINT_FAILURE);
        return facts;
    }

    /** Whether libucp can be loaded here; never throws, never aborts. */
    public static String unavailableReason() {
        return Holder.REASON;
    }

    static Lib lib() {
        Lib l = Holder.LIB;
        if (l == null) {
            throw new IllegalStateException("ucx unavailable: " + Holder.REASON);
        }
        return l;
    }

    /**
     * The downcalls of the measured loop as static finals, so the JIT treats them as constants and
     * inlines the native call; initialised on first use, which only happens once libucp loaded.
     */
    static final class Hot {
        static final MethodHandle PUT = lib().put;
        static final MethodHandle GET = lib().get;
        static final MethodHandle ATOMIC = lib().atomic;
        static final MethodHandle ATOMIC_CRITICAL = lib().atomicCritical;
        static final MethodHandle PUT_CRITICAL = lib().putCritical;
        static final MethodHandle GET_CRITICAL = lib().getCritical;
        static final MethodHandle WORKER_FLUSH_CRITICAL = lib().workerFlushCritical;
        static final MethodHandle WORKER_FLUSH = lib().workerFlush;
        static final MethodHandle WORKER_PROGRESS = lib().workerProgress;
        static final MethodHandle REQUEST_CHECK_STATUS = lib().requestCheckStatus;
        static final MethodHandle REQUEST_FREE = lib().requestFree;

        private Hot() {}
    }

    /** Loads the library once, on first use; keeps the reason when it cannot. */
    private static final class Holder {
        static final Lib LIB;
        static final String REASON;

        static {
            Lib l = null;
            String r = null;
            try {
                l = new Lib();
            } catch (Throwable t) {
                r = t.getMessage() == null ? t.toString() : t.getMessage();
            }
            LIB = l;
            REASON = r;
        }
    }

    /** UCS_PTR_IS_ERR: an unsigned compare against UCS_ERR_LAST. */
    static boolean isError(MemorySegment p) {
        return isError(p.address());
    }

    /** UCS_PTR_IS_ERR of a raw address (the critical linkages return one). */
    static boolean isError(long p) {
        return Long.compareUnsigned(p, UCS_ERR_LAST) >= 0;
    }

    /** UCS_PTR_IS_PTR: neither NULL nor an error. */
    static boolean isPointer(MemorySegment p) {
        return Long.compareUnsigned(p.address() - 1, UCS_ERR_LAST - 1) < 0;
    }

    static byte ptrStatus(MemorySegment p) {
        return ptrStatus(p.address());
    }

    /** UCS_PTR_STATUS of a raw address (the critical linkages return one). */
    static byte ptrStatus(long p) {
        return (byte) p;
    }

    public static String statusString(byte status) {
        try {
            MemorySegment s = (MemorySegment) lib().statusString.invokeExact(status);
            return s.reinterpret(256).getString(0);
        } catch (Throwable t) {
            return "status " + status;
        }
    }

    /**
     * Whether a status says the other side went away (reset, timed out, unreachable, a failed link or
     * endpoint, or an operation cancelled because its endpoint failed) rather than a misuse here.
     */
    static boolean isPeerFailure(byte status) {
        return status == UCS_ERR_IO_ERROR
                || status == UCS_ERR_UNREACHABLE
                || status == UCS_ERR_CANCELED
                || status == UCS_ERR_TIMED_OUT
                || status == UCS_ERR_REJECTED
                || status == UCS_ERR_NOT_CONNECTED
                || status == UCS_ERR_CONNECTION_RESET
                || (status <= UCS_ERR_FIRST_LINK_FAILURE && status >= UCS_ERR_LAST_ENDPOINT_FAILURE);
    }

    static void check(byte status, String what) throws TransferException {
        if (status != UCS_OK) {
            throw new UcxException(what + " failed: " + statusString(status) + " (" + status + ")", status);
        }
    }

    /**
     * What UCX's shared-memory transports take of {@code /dev/shm} for one worker: its receive queue
     * and descriptors (about 4 MiB each for posix and sysv in UCX 1.13), with room to spare.
     */
    static final long WORKER_SHM_BYTES = 16L << 20;

    /**
     * {@link #check}, and where the status is one a host limit causes (no memory, no resource, an I/O
     * error of a registration) the limit's figures and how to raise it: {@code /dev/shm} short of
     * {@code shmBytes}, the locked-memory limit binding {@code pinnedBytes} (0: nothing pinned).
     * Decided by the status and the figures, never by UCX's text.
     */
    static void checkLimits(byte status, String what, long shmBytes, long pinnedBytes) throws TransferException {
        if (status == UCS_OK) {
            return;
        }
        java.util.List<String> limits = new java.util.ArrayList<>();
        if (status == UCS_ERR_NO_RESOURCE || status == UCS_ERR_NO_MEMORY || status == UCS_ERR_IO_ERROR) {
            HostLimits here = HostLimits.here();
            here.sharedMemoryShortfall(shmBytes).ifPresent(limits::add);
            if (pinnedBytes > 0) {
                here.lockedMemoryShortfall(pinnedBytes).ifPresent(limits::add);
            }
        }
        throw new UcxException(
                what + " failed: " + statusString(status) + " (" + status + ")"
                        + (limits.isEmpty() ? "" : ": " + String.join("; ", limits)),
                status);
    }

    static void checkPtr(MemorySegment p, String what) throws TransferException {
        if (isError(p)) {
            check(ptrStatus(p), what);
        }
    }

    /** A UCX call returned an error status. */
    public static final class UcxException extends TransferException {
        private final byte status;

        UcxException(String message, byte status) {
            super(message);
            this.status = status;
        }

        public byte status() {
            return status;
        }
    }

    /** The loaded library's downcall handles; initialisation fails cleanly where libucp is absent. */
    static final class Lib {

        final MethodHandle configRead;
        final MethodHandle configModify;
        final MethodHandle configRelease;
        final MethodHandle init;
        final MethodHandle cleanup;
        final MethodHandle versionString;
        final MethodHandle workerCreate;
        final MethodHandle workerDestroy;
        final MethodHandle workerGetAddress;
        final MethodHandle workerReleaseAddress;
        final MethodHandle workerProgress;
        final MethodHandle workerFlush;
        final MethodHandle workerGetEfd;
        final MethodHandle workerArm;
        final MethodHandle poll;
        final MethodHandle epCreate;
        final MethodHandle epClose;
        final MethodHandle epFlush;
        final MethodHandle memMap;
        final MethodHandle memUnmap;
        final MethodHandle memQuery;
        final MethodHandle contextQuery;
        final MethodHandle rkeyPack;
        final MethodHandle rkeyBufferRelease;
        final MethodHandle rkeyUnpack;
        final MethodHandle rkeyDestroy;
        final MethodHandle put;
        final MethodHandle get;
        final MethodHandle atomic;
        final MethodHandle atomicCritical;
        final MethodHandle putCritical;
        final MethodHandle getCritical;
        final MethodHandle workerFlushCritical;
        final MethodHandle requestCheckStatus;
        final MethodHandle requestFree;
        final MethodHandle statusString;

        /**
         * The library, or why the dynamic loader cannot open it in its own words (absent, wrong ELF
         * class, not a library, a dependency missing), with where to get it.
         */
        private static SymbolLookup open(String name) {
            try {
                return NativeLibrary.lookup(name, Arena.global());
            } catch (IllegalArgumentException e) {
                throw new IllegalStateException(
                        name + " cannot be loaded: " + e.getMessage() + " (apt-get install libucx0)", e);
            }
        }

        private Lib() {
            Linker linker = Linker.nativeLinker();
            clearErrorSignals(linker);
            SymbolLookup ucp;
            SymbolLookup ucs;
            String name = System.getProperty(LIBRARY_PROPERTY, LIBRARY);
            ucp = open(name);
            ucs = open("libucs.so.0");
            Down d = new Down(linker, ucp);
            configRead = d.h("ucp_config_read", FunctionDescriptor.of(JAVA_BYTE, ADDRESS, ADDRESS, ADDRESS));
            configModify = d.h("ucp_config_modify", FunctionDescriptor.of(JAVA_BYTE, ADDRESS, ADDRESS, ADDRESS));
            configRelease = d.h("ucp_config_release", FunctionDescriptor.ofVoid(ADDRESS));
            init = d.h(
                    "ucp_init_version",
                    FunctionDescriptor.of(JAVA_BYTE, JAVA_INT, JAVA_INT, ADDRESS, ADDRESS, ADDRESS));
            cleanup = d.h("ucp_cleanup", FunctionDescriptor.ofVoid(ADDRESS));
            versionString = d.h("ucp_get_version_string", FunctionDescriptor.of(ADDRESS));
            workerCreate = d.h("ucp_worker_create", FunctionDescriptor.of(JAVA_BYTE, ADDRESS, ADDRESS, ADDRESS));
            workerDestroy = d.h("ucp_worker_destroy", FunctionDescriptor.ofVoid(ADDRESS));
            workerGetAddress =
                    d.h("ucp_worker_get_address", FunctionDescriptor.of(JAVA_BYTE, ADDRESS, ADDRESS, ADDRESS));
            workerReleaseAddress = d.h("ucp_worker_release_address", FunctionDescriptor.ofVoid(ADDRESS, ADDRESS));
            workerProgress = d.h("ucp_worker_progress", FunctionDescriptor.of(JAVA_INT, ADDRESS));
            workerFlush = d.h("ucp_worker_flush_nbx", FunctionDescriptor.of(ADDRESS, ADDRESS, ADDRESS));
            workerGetEfd = d.h("ucp_worker_get_efd", FunctionDescriptor.of(JAVA_BYTE, ADDRESS, ADDRESS));
            workerArm = d.h("ucp_worker_arm", FunctionDescriptor.of(JAVA_BYTE, ADDRESS));
            poll = linker.downcallHandle(
                    linker.defaultLookup().find("poll").orElseThrow(),
                    FunctionDescriptor.of(JAVA_INT, ADDRESS, JAVA_LONG, JAVA_INT));
            epCreate = d.h("ucp_ep_create", FunctionDescriptor.of(JAVA_BYTE, ADDRESS, ADDRESS, ADDRESS));
            epClose = d.h("ucp_ep_close_nbx", FunctionDescriptor.of(ADDRESS, ADDRESS, ADDRESS));
            epFlush = d.h("ucp_ep_flush_nbx", FunctionDescriptor.of(ADDRESS, ADDRESS, ADDRESS));
            memMap = d.h("ucp_mem_map", FunctionDescriptor.of(JAVA_BYTE, ADDRESS, ADDRESS, ADDRESS));
            memUnmap = d.h("ucp_mem_unmap", FunctionDescriptor.of(JAVA_BYTE, ADDRESS, ADDRESS));
            memQuery = d.h("ucp_mem_query", FunctionDescriptor.of(JAVA_BYTE, ADDRESS, ADDRESS));
            contextQuery = d.h("ucp_context_query", FunctionDescriptor.of(JAVA_BYTE, ADDRESS, ADDRESS));
            rkeyPack = d.h("ucp_rkey_pack", FunctionDescriptor.of(JAVA_BYTE, ADDRESS, ADDRESS, ADDRESS, ADDRESS));
            rkeyBufferRelease = d.h("ucp_rkey_buffer_release", FunctionDescriptor.ofVoid(ADDRESS));
            rkeyUnpack = d.h("ucp_ep_rkey_unpack", FunctionDescriptor.of(JAVA_BYTE, ADDRESS, ADDRESS, ADDRESS));
            rkeyDestroy = d.h("ucp_rkey_destroy", FunctionDescriptor.ofVoid(ADDRESS));
            put = d.h(
                    "ucp_put_nbx",
                    FunctionDescriptor.of(ADDRESS, ADDRESS, ADDRESS, JAVA_LONG, JAVA_LONG, ADDRESS, ADDRESS));
            get = d.h(
                    "ucp_get_nbx",
                    FunctionDescriptor.of(ADDRESS, ADDRESS, ADDRESS, JAVA_LONG, JAVA_LONG, ADDRESS, ADDRESS));
            // ucp_atomic_op_nbx(ep, opcode, buffer, count, remote_addr, rkey, param)
            atomic = d.h(
                    "ucp_atomic_op_nbx",
                    FunctionDescriptor.of(ADDRESS, ADDRESS, JAVA_INT, ADDRESS, JAVA_LONG, JAVA_LONG, ADDRESS, ADDRESS));
            // For endpoints without an error handler, posted without a completion callback: nothing of
            // ours can be called back from inside, so the critical linkage (3-6 ns less a call, a fifth of
            // an 8-byte atomic over shared memory) is safe there, and only there (UcxAtomics decides).
            // Its pointers go in and out as raw addresses (JAVA_LONG, the ABI's same 64-bit registers):
            // no MemorySegment to check per argument, none to make for the result: about 3.5 ns of the
            // 31 an 8-byte fetch-add took over shared memory (bench/RESULTS.md, ucx atomics, 2026-12-05).
            atomicCritical = linker.downcallHandle(
                    d.find("ucp_atomic_op_nbx"),
                    FunctionDescriptor.of(
                            JAVA_LONG, JAVA_LONG, JAVA_INT, JAVA_LONG, JAVA_LONG, JAVA_LONG, JAVA_LONG, JAVA_LONG),
                    Linker.Option.critical(false));
            // put, get and the worker flush the same way, for the same endpoints (UcxDataPath decides): at
            // 8 B over shared memory the ordinary linkage's thread-state transitions (nep_invoker_blob) and
            // per-argument segment checks (checkNative, the session's acquire and release) took 19 of the
            // 46 CPU ns of a put with its flush; critical and raw, 1.7 (perf, bench/RESULTS.md, ucx small
            // messages, 2026-12-05).
            putCritical = linker.downcallHandle(
                    d.find("ucp_put_nbx"),
                    FunctionDescriptor.of(JAVA_LONG, JAVA_LONG, JAVA_LONG, JAVA_LONG, JAVA_LONG, JAVA_LONG, JAVA_LONG),
                    Linker.Option.critical(false));
            getCritical = linker.downcallHandle(
                    d.find("ucp_get_nbx"),
                    FunctionDescriptor.of(JAVA_LONG, JAVA_LONG, JAVA_LONG, JAVA_LONG, JAVA_LONG, JAVA_LONG, JAVA_LONG),
                    Linker.Option.critical(false));
            workerFlushCritical = linker.downcallHandle(
                    d.find("ucp_worker_flush_nbx"),
                    FunctionDescriptor.of(JAVA_LONG, JAVA_LONG, JAVA_LONG),
                    Linker.Option.critical(false));
            // No callback can fire from inside a status check: a critical downcall is safe here.
            requestCheckStatus = linker.downcallHandle(
                    d.find("ucp_request_check_status"),
                    FunctionDescriptor.of(JAVA_BYTE, ADDRESS),
                    Linker.Option.critical(false));
            requestFree = d.h("ucp_request_free", FunctionDescriptor.ofVoid(ADDRESS));
            statusString = new Down(linker, ucs).h("ucs_status_string", FunctionDescriptor.of(ADDRESS, JAVA_BYTE));
        }

        /** setenv("UCX_ERROR_SIGNALS", "", 0) before libucs loads, unless the user chose a value. */
        private static void clearErrorSignals(Linker linker) {
            try {
                MethodHandle setenv = linker.downcallHandle(
                        linker.defaultLookup().find("setenv").orElseThrow(),
                        FunctionDescriptor.of(JAVA_INT, ADDRESS, ADDRESS, JAVA_INT));
                try (Arena a = Arena.ofConfined()) {
                    int rc = (int) setenv.invokeExact(a.allocateFrom("UCX_ERROR_SIGNALS"), a.allocateFrom(""), 0);
                    if (rc != 0) {
                        throw new IllegalStateException("setenv(UCX_ERROR_SIGNALS) failed");
                    }
                }
            } catch (RuntimeException e) {
                throw e;
            } catch (Throwable t) {
                throw new IllegalStateException("setenv downcall failed", t);
            }
        }

        String version() {
            try {
                return ((MemorySegment) versionString.invokeExact())
                        .reinterpret(64)
                        .getString(0);
            } catch (Throwable t) {
                return "unknown";
            }
        }
    }

    private record Down(Linker linker, SymbolLookup lookup) {
        MemorySegment find(String name) {
            return lookup.find(name)
                    .orElseThrow(() -> new IllegalStateException(
                            LIBRARY + " lacks " + name + " (UCX >= " + API_MAJOR + "." + API_MINOR + " required)"));
        }

        MethodHandle h(String name, FunctionDescriptor fd) {
            return linker.downcallHandle(find(name), fd);
        }
    }
}
