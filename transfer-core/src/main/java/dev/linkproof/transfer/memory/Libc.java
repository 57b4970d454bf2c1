package dev.linkproof.transfer.memory;

import java.lang.foreign.FunctionDescriptor;
import java.lang.foreign.Linker;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.lang.invoke.MethodHandle;

/** The few libc calls the host memory allocator needs: mmap for huge pages, munmap to free them. */
final class Libc {
    static final int PROT_READ = 0x1;
    static final int PROT_WRITE = 0x2;
    static final int MAP_PRIVATE = 0x02;
    static final int MAP_ANONYMOUS = 0x20;
    static final int MAP_HUGETLB = 0x40000;
    static final MemorySegment MAP_FAILED = MemorySegment.ofAddress(-1L);

    private static final Linker LINKER = Linker.nativeLinker();
    private static final MethodHandle MMAP = LINKER.downcallHandle(
            LINKER.defaultLookup().find("mmap").orElseThrow(),
            FunctionDescriptor.of(
                    ValueLayout.ADDRESS,
                    ValueLayout.ADDRESS,
                    ValueLayout.JAVA_LONG,
                    ValueLayout.JAVA_INT,
                    ValueLayout.JAVA_INT,
                    ValueLayout.JAVA_INT,
                    ValueLayout.JAVA_LONG),
            Linker.Option.captureCallState("errno"));
    private static final MethodHandle MUNMAP = LINKER.downcallHandle(
            LINKER.defaultLookup().find("munmap").orElseThrow(),
            FunctionDescriptor.of(ValueLayout.JAVA_INT, ValueLayout.ADDRESS, ValueLayout.JAVA_LONG));
    private static final MethodHandle STRERROR = LINKER.downcallHandle(
            LINKER.defaultLookup().find("strerror").orElseThrow(),
            FunctionDescriptor.of(ValueLayout.ADDRESS, ValueLayout.JAVA_INT));
    static final java.lang.foreign.StructLayout CAPTURE = Linker.Option.captureStateLayout();
    private static final java.lang.invoke.VarHandle ERRNO =
            CAPTURE.varHandle(java.lang.foreign.MemoryLayout.PathElement.groupElement("errno"));

    private Libc() {}

    /** mmap(2); returns the mapping or throws with strerror(errno). */
    static MemorySegment mmapAnonymous(long length, int extraFlags) {
        try (var arena = java.lang.foreign.Arena.ofConfined()) {
            MemorySegment state = arena.allocate(CAPTURE);
            MemorySegment p = (MemorySegment) MMAP.invokeExact(
                    state,
                    MemorySegment.NULL,
                    length,
                    PROT_READ | PROT_WRITE,
                    MAP_PRIVATE | MAP_ANONYMOUS | extraFlags,
                    -1,
                    0L);
            if (p.address() == MAP_FAILED.address()) {
                int errno = (int) ERRNO.get(state, 0L);
                throw new OutOfMemoryError(
                        "mmap of " + length + " bytes failed: " + strerror(errno) + " (errno " + errno + ")");
            }
            return p.reinterpret(length);
        } catch (OutOfMemoryError e) {
            throw e;
        } catch (Throwable t) {
            throw new IllegalStateException("mmap downcall failed", t);
        }
    }

    static void munmap(MemorySegment mapping) {
        try {
            int rc = (int) MUNMAP.invokeExact(mapping, mapping.byteSize());
            if (rc != 0) {
                throw new IllegalStateException("munmap failed for " + mapping);
            }
        } catch (IllegalStateException e) {
            throw e;
        } catch (Throwable t) {
            throw new IllegalStateException("munmap downcall failed", t);
        }
    }

    static String strerror(int errno) {
        try {
            MemorySegment s = (MemorySegment) STRERROR.invokeExact(errno);
            return s.reinterpret(256).getString(0);
        } catch (Throwable t) {
            return "errno " + errno;
        }
    }
}
