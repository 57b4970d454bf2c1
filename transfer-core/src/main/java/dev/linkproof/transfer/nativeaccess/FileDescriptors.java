package dev.linkproof.transfer.nativeaccess;

import static java.lang.foreign.ValueLayout.JAVA_INT;

import java.lang.foreign.FunctionDescriptor;
import java.lang.foreign.Linker;
import java.lang.invoke.MethodHandle;

/** close(2) for file descriptors native libraries hand out (a GPU runtime's dma-buf), which Java cannot wrap. */
public final class FileDescriptors {
    private static final MethodHandle CLOSE = Linker.nativeLinker()
            .downcallHandle(
                    Linker.nativeLinker().defaultLookup().find("close").orElseThrow(),
                    FunctionDescriptor.of(JAVA_INT, JAVA_INT));

    private FileDescriptors() {}

    /** Closes {@code fd}; returns false when close(2) failed (nothing more can be done about it). */
    public static boolean close(int fd) {
        try {
            return (int) CLOSE.invokeExact(fd) == 0;
        } catch (Throwable t) {
            return false;
        }
    }
}
