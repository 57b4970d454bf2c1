package dev.linkproof.conformance.verbs;

import static java.lang.foreign.ValueLayout.ADDRESS;
import static java.lang.foreign.ValueLayout.JAVA_INT;
import static java.lang.foreign.ValueLayout.JAVA_LONG;

import java.lang.foreign.Arena;
import java.lang.foreign.FunctionDescriptor;
import java.lang.foreign.Linker;
import java.lang.foreign.MemorySegment;
import java.lang.invoke.MethodHandle;
import java.util.concurrent.Callable;

/**
 * Runs a task as a process without {@code CAP_IPC_LOCK} under a low {@code RLIMIT_MEMLOCK} would:
 * on a thread of its own, with CAP_IPC_LOCK dropped from that thread's effective set (capabilities
 * are per thread, and the kernel's pinning check asks the calling thread's) and the process's soft
 * locked-memory limit lowered; both restored afterwards. The VM's suite runs as root, which would
 * otherwise pin past any limit.
 */
final class LockedMemoryLimit {
    private static final Linker LINKER = Linker.nativeLinker();
    private static final int RLIMIT_MEMLOCK = 8;
    private static final int CAP_IPC_LOCK = 14;
    private static final int LINUX_CAPABILITY_VERSION_3 = 0x20080522;
    private static final MethodHandle GETRLIMIT = libc("getrlimit", FunctionDescriptor.of(JAVA_INT, JAVA_INT, ADDRESS));
    private static final MethodHandle SETRLIMIT = libc("setrlimit", FunctionDescriptor.of(JAVA_INT, JAVA_INT, ADDRESS));
    private static final MethodHandle CAPGET = libc("capget", FunctionDescriptor.of(JAVA_INT, ADDRESS, ADDRESS));
    private static final MethodHandle CAPSET = libc("capset", FunctionDescriptor.of(JAVA_INT, ADDRESS, ADDRESS));

    private LockedMemoryLimit() {}

    private static MethodHandle libc(String name, FunctionDescriptor fd) {
        return LINKER.downcallHandle(LINKER.defaultLookup().find(name).orElseThrow(), fd);
    }

    /** {@code task}'s result, run as described with a soft limit of {@code bytes}. */
    static <T> T under(long bytes, Callable<T> task) throws Exception {
        Object[] result = new Object[1];
        Exception[] failure = new Exception[1];
        Thread t = Thread.ofPlatform().name("locked-memory-limit").start(() -> {
            try {
                result[0] = run(bytes, task);
            } catch (Exception e) {
                failure[0] = e;
            } catch (Throwable e) {
                failure[0] = new Exception(e);
            }
        });
        t.join();
        if (failure[0] != null) {
            throw failure[0];
        }
        @SuppressWarnings("unchecked")
        T r = (T) result[0];
        return r;
    }

    private static <T> T run(long bytes, Callable<T> task) throws Throwable {
        try (Arena a = Arena.ofConfined()) {
            MemorySegment saved = a.allocate(16);
            check((int) GETRLIMIT.invokeExact(RLIMIT_MEMLOCK, saved), "getrlimit");
            MemorySegment header = a.allocate(8);
            header.set(JAVA_INT, 0, LINUX_CAPABILITY_VERSION_3);
            header.set(JAVA_INT, 4, 0); // this thread
            MemorySegment caps = a.allocate(24); // two of {effective, permitted, inheritable}
            check((int) CAPGET.invokeExact(header, caps), "capget");
            MemorySegment original = a.allocate(24).copyFrom(caps);
            MemorySegment lowered = a.allocate(16);
            lowered.set(JAVA_LONG, 0, bytes);
            lowered.set(JAVA_LONG, 8, saved.get(JAVA_LONG, 8));
            check((int) SETRLIMIT.invokeExact(RLIMIT_MEMLOCK, lowered), "setrlimit");
            try {
                caps.set(JAVA_INT, 0, caps.get(JAVA_INT, 0) & ~(1 << CAP_IPC_LOCK));
                check((int) CAPSET.invokeExact(header, caps), "capset");
                try {
                    return task.call();
                } finally {
                    header.set(JAVA_INT, 0, LINUX_CAPABILITY_VERSION_3);
                    check((int) CAPSET.invokeExact(header, original), "capset (restore)");
                }
            } finally {
                check((int) SETRLIMIT.invokeExact(RLIMIT_MEMLOCK, saved), "setrlimit (restore)");
            }
        }
    }

    private static void check(int rc, String what) {
        if (rc != 0) {
            throw new IllegalStateException(what + " failed");
        }
    }
}
