package dev.linkproof.transfer.libfabric;

import static java.lang.foreign.ValueLayout.ADDRESS;
import static java.lang.foreign.ValueLayout.JAVA_INT;
import static java.lang.foreign.ValueLayout.JAVA_LONG;

import dev.linkproof.transfer.nativeaccess.NativeLibrary;
import java.lang.foreign.Arena;
import java.lang.foreign.FunctionDescriptor;
import java.lang.foreign.Linker;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.StructLayout;
import java.lang.invoke.MethodHandle;

/**
 * Hand-written FFM bindings to libfabric: the exported calls (fi_getinfo, fi_fabric, fi_strerror, ...)
 * and the shapes of the operation-table functions every other call goes through ({@code fi_write(ep,
 * ...)} is {@code ep->rma->write(ep, ...)}, static inline in the headers, as verbs' posts are). The
 * exported calls are bound by symbol version ({@code dlvsym}): {@code struct fi_info}'s layouts are
 * {@link LibfabricAbi#API_VERSION}'s whatever a newer library's default symbols take. Data-path
 * pointers go in as raw addresses ({@code JAVA_LONG}), so a post makes no segment. Nothing loads until
 * {@link #lib()}; a missing library is {@link #unavailableReason()}.
 */
public final class Libfabric {
    public static final String LIBRARY = "libfabric.so.1";
    /** Overrides the library (a vendor's build, AWS EFA's /opt/amazon/efa/lib/libfabric.so.1; tests: an absent one). */
    public static final String LIBRARY_PROPERTY = "linkproof.libfabric.library";

    static final String HINT = "apt-get install libfabric1 (RHEL: dnf install libfabric)";

    private static final Linker LINKER = Linker.nativeLinker();

    // Operation-table shapes (the function pointer is the handle's first argument).
    /** domain(fabric, info, &domain, ctx), av_open, cq_open, endpoint: (obj, p, pp, ctx) -> int. */
    static final MethodHandle OPEN = table(FunctionDescriptor.of(JAVA_INT, ADDRESS, ADDRESS, ADDRESS, ADDRESS));
    /** fi_ops.bind(fid, bfid, flags) -> int. */
    static final MethodHandle BIND = table(FunctionDescriptor.of(JAVA_INT, ADDRESS, ADDRESS, JAVA_LONG));
    /** fi_ops.control(fid, command, arg) -> int. */
    static final MethodHandle CONTROL = table(FunctionDescriptor.of(JAVA_INT, ADDRESS, JAVA_INT, ADDRESS));
    /** fi_ops.close(fid) -> int. */
    static final MethodHandle CLOSE = table(FunctionDescriptor.of(JAVA_INT, ADDRESS));
    /** fi_ops_cm.getname(fid, addr, &addrlen) -> int. */
    static final MethodHandle GETNAME = table(FunctionDescriptor.of(JAVA_INT, ADDRESS, ADDRESS, ADDRESS));
    /** fi_ops_av.insert(av, addr, count, fi_addr, flags, ctx) -> int. */
    static final MethodHandle AV_INSERT =
            table(FunctionDescriptor.of(JAVA_INT, ADDRESS, ADDRESS, JAVA_LONG, ADDRESS, JAVA_LONG, ADDRESS));
    /** fi_ops_mr.reg(fid, buf, len, access, offset, requested_key, flags, &mr, ctx) -> int. */
    static final MethodHandle MR_REG = table(FunctionDescriptor.of(
            JAVA_INT, ADDRESS, JAVA_LONG, JAVA_LONG, JAVA_LONG, JAVA_LONG, JAVA_LONG, JAVA_LONG, ADDRESS, ADDRESS));
    /** fi_ops_mr.regattr(fid, attr, flags, &mr) -> int: what the static inline fi_mr_regattr calls. */
    static final MethodHandle MR_REGATTR = table(FunctionDescriptor.of(JAVA_INT, ADDRESS, ADDRESS, JAVA_LONG, ADDRESS));
    /** fi_ops_cq.read(cq, buf, count) -> ssize_t; raw addresses: the completion loop makes no segment. */
    static final MethodHandle CQ_READ = table(FunctionDescriptor.of(JAVA_LONG, JAVA_LONG, JAVA_LONG, JAVA_LONG));
    /** fi_ops_cq.readerr(cq, err_entry, flags) -> ssize_t. */
    static final MethodHandle CQ_READERR = table(FunctionDescriptor.of(JAVA_LONG, ADDRESS, ADDRESS, JAVA_LONG));
    /** fi_ops_cq.strerror(cq, prov_errno, err_data, buf, len) -> const char *. */
    static final MethodHandle CQ_STRERROR =
            table(FunctionDescriptor.of(ADDRESS, ADDRESS, JAVA_INT, ADDRESS, ADDRESS, JAVA_LONG));
    /** fi_ops_rma.read/write(ep, buf, len, desc, peer, addr, key, ctx) -> ssize_t. */
    static final MethodHandle RMA = table(FunctionDescriptor.of(
            JAVA_LONG, JAVA_LONG, JAVA_LONG, JAVA_LONG, JAVA_LONG, JAVA_LONG, JAVA_LONG, JAVA_LONG, JAVA_LONG));
    /** fi_ops_rma.writemsg(ep, msg, flags) -> ssize_t. */
    static final MethodHandle RMA_MSG = table(FunctionDescriptor.of(JAVA_LONG, JAVA_LONG, JAVA_LONG, JAVA_LONG));
    /** fi_ops_msg.send/recv(ep, buf, len, desc, peer, ctx) -> ssize_t. */
    static final MethodHandle MSG =
            table(FunctionDescriptor.of(JAVA_LONG, JAVA_LONG, JAVA_LONG, JAVA_LONG, JAVA_LONG, JAVA_LONG, JAVA_LONG));
    /** fi_ops_atomic.readwrite(ep, buf, count, desc, result, result_desc, peer, addr, key, datatype, op, ctx) -> ssize_t. */
    static final MethodHandle FETCH_ATOMIC = table(FunctionDescriptor.of(
            JAVA_LONG, JAVA_LONG, JAVA_LONG, JAVA_LONG, JAVA_LONG, JAVA_LONG, JAVA_LONG, JAVA_LONG, JAVA_LONG,
            JAVA_LONG, JAVA_INT, JAVA_INT, JAVA_LONG));
    /** fi_ops_atomic.compwrite(ep, buf, count, desc, compare, compare_desc, result, result_desc, peer, addr, key, datatype, op, ctx). */
    static final MethodHandle COMPARE_ATOMIC = table(FunctionDescriptor.of(
            JAVA_LONG, JAVA_LONG, JAVA_LONG, JAVA_LONG, JAVA_LONG, JAVA_LONG, JAVA_LONG, JAVA_LONG, JAVA_LONG,
            JAVA_LONG, JAVA_LONG, JAVA_LONG, JAVA_INT, JAVA_INT, JAVA_LONG));
    /** fi_ops_atomic.readwritevalid/compwritevalid(ep, datatype, op, &count) -> int. */
    static final MethodHandle ATOMIC_VALID =
            table(FunctionDescriptor.of(JAVA_INT, ADDRESS, JAVA_INT, JAVA_INT, ADDRESS));

    private static MethodHandle table(FunctionDescriptor fd) {
        return LINKER.downcallHandle(fd);
    }

    /**
     * The function {@code name} of the operation table that {@code object} points to at
     * {@code tableOffset} (e.g. {@code ep->rma->write}: the endpoint, FID_EP's "rma", FI_OPS_RMA,
     * "write"). A table too short to have it (its {@code size} field, as {@code FI_CHECK_OP} reads it)
     * or a null entry is the provider not implementing it.
     */
    static MemorySegment function(MemorySegment object, long tableOffset, StructLayout table, String name) {
        MemorySegment ops =
                object.reinterpret(tableOffset + 8).get(ADDRESS, tableOffset).reinterpret(table.byteSize());
        long at = LibfabricAbi.offset(table, name);
        long size = ops.get(JAVA_LONG, 0);
        MemorySegment f = size < at + 8 ? MemorySegment.NULL : ops.get(ADDRESS, at);
        if (f.equals(MemorySegment.NULL)) {
            throw new UnsupportedOperationException(
                    table.name().orElseThrow() + "." + name + " is not implemented by the provider");
        }
        return f;
    }

    /** A {@code struct fid}'s own operation (close, bind, control): {@code fid->ops->name}. */
    static MemorySegment fidFunction(MemorySegment fid, String name) {
        return function(fid, LibfabricAbi.offset(LibfabricAbi.FID, "ops"), LibfabricAbi.FI_OPS, name);
    }

    private static final class Holder {
        static final Libfabric LIB;
        static final String FAILURE;

        static {
            Libfabric lib = null;
            String failure = null;
            try {
                lib = new Libfabric(System.getProperty(LIBRARY_PROPERTY, LIBRARY));
            } catch (RuntimeException | LinkageError e) {
                failure = e.getMessage();
            }
            LIB = lib;
            FAILURE = failure;
        }
    }

    /** Null when libfabric is loaded, else why not (the loader's words, the symbol missing, the version). */
    public static String unavailableReason() {
        return Holder.FAILURE;
    }

    /** The library; call only after {@link #unavailableReason()} returned null. */
    public static Libfabric lib() {
        if (Holder.LIB == null) {
            throw new IllegalStateException(Holder.FAILURE);
        }
        return Holder.LIB;
    }

    final MethodHandle getinfo;
    final MethodHandle freeinfo;
    final MethodHandle dupinfo;
    final MethodHandle fabric;
    final MethodHandle strerror;
    final MethodHandle tostr;
    private final int runtimeVersion;

    private Libfabric(String name) {
        keepJvmSignalHandlers();
        Dl dl = Dl.open(name);
        // fi_getinfo(version, node, service, flags, hints, &info) -> int
        getinfo = dl.downcall(
                "fi_getinfo",
                "FABRIC_1.3",
                FunctionDescriptor.of(JAVA_INT, JAVA_INT, ADDRESS, ADDRESS, JAVA_LONG, ADDRESS, ADDRESS));
        freeinfo = dl.downcall("fi_freeinfo", "FABRIC_1.3", FunctionDescriptor.ofVoid(ADDRESS));
        dupinfo = dl.downcall("fi_dupinfo", "FABRIC_1.3", FunctionDescriptor.of(ADDRESS, ADDRESS));
        fabric = dl.downcall("fi_fabric", "FABRIC_1.1", FunctionDescriptor.of(JAVA_INT, ADDRESS, ADDRESS, ADDRESS));
        strerror = dl.downcall("fi_strerror", "FABRIC_1.0", FunctionDescriptor.of(ADDRESS, JAVA_INT));
        tostr = dl.downcall("fi_tostr", "FABRIC_1.0", FunctionDescriptor.of(ADDRESS, ADDRESS, JAVA_INT));
        MethodHandle version = dl.downcall("fi_version", "FABRIC_1.0", FunctionDescriptor.of(JAVA_INT));
        try {
            runtimeVersion = (int) version.invokeExact();
        } catch (Throwable t) {
            throw new IllegalStateException("fi_version downcall failed: " + t, t);
        }
        if (runtimeVersion >>> 16 != LibfabricAbi.API_MAJOR || (runtimeVersion & 0xFFFF) < LibfabricAbi.API_MINOR) {
            throw new IllegalStateException(name + " is libfabric " + version(runtimeVersion)
                    + "; these bindings use API " + LibfabricAbi.API_MAJOR + "." + LibfabricAbi.API_MINOR
                    + " and need a 1.x library at least that new");
        }
    }

    /**
     * Debian's libfabric links the psm provider's libinfinipath, whose constructor installs a SIGSEGV
     * handler that prints a backtrace and kills the process: the JVM's first implicit null check (a
     * SIGSEGV it handles itself) would then end the JVM, as libucs's would (notes/ucx-ffm.md).
     * {@code IPATH_NO_BACKTRACE} turns it off; it must be set before the library loads, and a value the
     * user set is kept. (psm2's own handler is off unless {@code HFI_BACKTRACE} asks for it.)
     */
    private static void keepJvmSignalHandlers() {
        try (Arena a = Arena.ofConfined()) {
            MethodHandle setenv = LINKER.downcallHandle(
                    LINKER.defaultLookup().find("setenv").orElseThrow(),
                    FunctionDescriptor.of(JAVA_INT, ADDRESS, ADDRESS, JAVA_INT));
            int rc = (int) setenv.invokeExact(a.allocateFrom("IPATH_NO_BACKTRACE"), a.allocateFrom("1"), 0);
            if (rc != 0) {
                throw new IllegalStateException("setenv(IPATH_NO_BACKTRACE) failed");
            }
        } catch (RuntimeException e) {
            throw e;
        } catch (Throwable t) {
            throw new IllegalStateException("setenv downcall failed: " + t, t);
        }
    }

    /** The library's version, e.g. "1.17". */
    public String version() {
        return version(runtimeVersion);
    }

    private static String version(int v) {
        return (v >>> 16) + "." + (v & 0xFFFF);
    }

    /** fi_strerror(errno): libfabric's words for a (positive) error number. */
    public String strerror(int errno) {
        try {
            return ((MemorySegment) strerror.invokeExact(Math.abs(errno)))
                    .reinterpret(256)
                    .getString(0);
        } catch (Throwable t) {
            return "libfabric error " + errno;
        }
    }

    /** dlopen/dlvsym: the versioned symbols {@link java.lang.foreign.SymbolLookup} cannot ask for. */
    private record Dl(MemorySegment handle, String name, MethodHandle dlvsym) {
        private static final int RTLD_NOW = 0x2;

        static Dl open(String name) {
            try (Arena a = Arena.ofConfined()) {
                var libc = LINKER.defaultLookup();
                MethodHandle dlopen = LINKER.downcallHandle(
                        libc.find("dlopen").orElseThrow(), FunctionDescriptor.of(ADDRESS, ADDRESS, JAVA_INT));
                MethodHandle dlvsym = LINKER.downcallHandle(
                        libc.find("dlvsym").orElseThrow(), FunctionDescriptor.of(ADDRESS, ADDRESS, ADDRESS, ADDRESS));
                MemorySegment h = (MemorySegment) dlopen.invokeExact(a.allocateFrom(name), RTLD_NOW);
                if (h.equals(MemorySegment.NULL)) {
                    String why = NativeLibrary.loaderError(name).orElse("the dynamic loader cannot open it");
                    throw new IllegalStateException(name + " cannot be loaded: " + why + " (" + HINT + ")");
                }
                return new Dl(h, name, dlvsym);
            } catch (RuntimeException e) {
                throw e;
            } catch (Throwable t) {
                throw new IllegalStateException("dlopen(" + name + ") failed: " + t, t);
            }
        }

        MethodHandle downcall(String symbol, String version, FunctionDescriptor fd) {
            try (Arena a = Arena.ofConfined()) {
                MemorySegment f =
                        (MemorySegment) dlvsym.invokeExact(handle, a.allocateFrom(symbol), a.allocateFrom(version));
                if (f.equals(MemorySegment.NULL)) {
                    throw new IllegalStateException(
                            name + " lacks " + symbol + "@" + version + ", the ABI of libfabric API "
                                    + LibfabricAbi.API_MAJOR + "." + LibfabricAbi.API_MINOR + " these bindings use");
                }
                return LINKER.downcallHandle(f, fd);
            } catch (RuntimeException e) {
                throw e;
            } catch (Throwable t) {
                throw new IllegalStateException("dlvsym(" + symbol + ") failed: " + t, t);
            }
        }
    }
}
