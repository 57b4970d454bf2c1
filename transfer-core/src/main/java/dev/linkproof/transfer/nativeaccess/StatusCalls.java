package dev.linkproof.transfer.nativeaccess;

import java.lang.foreign.MemorySegment;
import java.lang.invoke.MethodHandle;

/**
 * {@code invokeExact} for the few shapes the GPU runtimes' functions have (every one returns an
 * {@code int} status), so each binding states its calls in one line and shares one place that
 * turns a {@code Throwable} from the downcall machinery into an unchecked exception. The handles'
 * descriptors must match these shapes exactly; a mismatch is a {@code WrongMethodTypeException}
 * on the first call, which the runtimes' tests make.
 */
public final class StatusCalls {
    private StatusCalls() {}

    public static int call(MethodHandle h, int a) {
        try {
            return (int) h.invokeExact(a);
        } catch (Throwable t) {
            throw rethrow(t);
        }
    }

    public static int call(MethodHandle h, long a) {
        try {
            return (int) h.invokeExact(a);
        } catch (Throwable t) {
            throw rethrow(t);
        }
    }

    public static int call(MethodHandle h, long a, long b) {
        try {
            return (int) h.invokeExact(a, b);
        } catch (Throwable t) {
            throw rethrow(t);
        }
    }

    public static int call(MethodHandle h, MemorySegment out) {
        try {
            return (int) h.invokeExact(out);
        } catch (Throwable t) {
            throw rethrow(t);
        }
    }

    public static int call(MethodHandle h, MemorySegment out, int a) {
        try {
            return (int) h.invokeExact(out, a);
        } catch (Throwable t) {
            throw rethrow(t);
        }
    }

    public static int call(MethodHandle h, MemorySegment out, long a) {
        try {
            return (int) h.invokeExact(out, a);
        } catch (Throwable t) {
            throw rethrow(t);
        }
    }

    public static int call(MethodHandle h, MemorySegment out, int a, int b) {
        try {
            return (int) h.invokeExact(out, a, b);
        } catch (Throwable t) {
            throw rethrow(t);
        }
    }

    public static int call(MethodHandle h, MemorySegment out, MemorySegment byValue, int a) {
        try {
            return (int) h.invokeExact(out, byValue, a);
        } catch (Throwable t) {
            throw rethrow(t);
        }
    }

    public static int call(MethodHandle h, MemorySegment out, long a, long b, int c, long d) {
        try {
            return (int) h.invokeExact(out, a, b, c, d);
        } catch (Throwable t) {
            throw rethrow(t);
        }
    }

    /** The copy shape of CUDA: (dst, src, bytes, stream). */
    public static int call(MethodHandle h, long a, long b, long c, long d) {
        try {
            return (int) h.invokeExact(a, b, c, d);
        } catch (Throwable t) {
            throw rethrow(t);
        }
    }

    /** The copy shape of HIP: (dst, src, bytes, kind, stream). */
    public static int call(MethodHandle h, long a, long b, long c, int kind, long d) {
        try {
            return (int) h.invokeExact(a, b, c, kind, d);
        } catch (Throwable t) {
            throw rethrow(t);
        }
    }

    /** A {@code const char *} result (HIP's error names), or {@code fallback}. */
    public static String string(MethodHandle h, int a, String fallback) {
        try {
            MemorySegment s = (MemorySegment) h.invokeExact(a);
            return s.equals(MemorySegment.NULL) ? fallback : s.reinterpret(512).getString(0);
        } catch (Throwable t) {
            return fallback;
        }
    }

    private static RuntimeException rethrow(Throwable t) {
        if (t instanceof RuntimeException r) {
            return r;
        }
        if (t instanceof Error e) {
            throw e;
        }
        return new IllegalStateException("downcall failed", t);
    }
}
