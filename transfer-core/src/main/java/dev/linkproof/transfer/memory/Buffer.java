package dev.linkproof.transfer.memory;

import dev.linkproof.transfer.MemoryPlacement;
import dev.linkproof.transfer.TransferException;
import java.lang.foreign.MemorySegment;

/**
 * A block of memory a transport moves data in or out of. Transports register it with their
 * library (memory regions for verbs, memory handles for UCX) and keep what that yields themselves.
 *
 * <p>Memory the CPU cannot address (a GPU's) is seen through a host copy: {@link #segment()} is
 * that copy, and {@link #pushHostView}/{@link #pullHostView} move bytes between it and the memory
 * itself. Whoever writes a pattern into {@code segment()} pushes it; whoever reads {@code segment()}
 * after a transfer pulls first. For host memory both are no-ops.
 */
public interface Buffer extends AutoCloseable {
    /** The memory as seen from this process: the memory itself, or for GPU memory its host copy. */
    MemorySegment segment();

    MemoryPlacement placement();

    default long size() {
        return segment().byteSize();
    }

    /** Whether {@link #segment()} is a host copy rather than the memory transfers move. */
    default boolean hostViewIsCopy() {
        return false;
    }

    /** Copies {@code [offset, offset + length)} of the host view into the memory. */
    default void pushHostView(long offset, long length) throws TransferException {}

    /** Copies {@code [offset, offset + length)} of the memory into the host view. */
    default void pullHostView(long offset, long length) throws TransferException {}

    default void pushHostView() throws TransferException {
        pushHostView(0, size());
    }

    default void pullHostView() throws TransferException {
        pullHostView(0, size());
    }

    /** Frees the memory. Idempotent. */
    @Override
    void close();
}
