package dev.linkproof.transfer.memory;

import java.lang.foreign.MemorySegment;

/**
 * A block of memory a transport moves data in or out of. Transports register it with their
 * library (memory regions for verbs, memory handles for UCX) and keep what that yields themselves.
 */
public interface Buffer extends AutoCloseable {
    /** The memory as seen from this process. For GPU memory this may be a host staging copy. */
    MemorySegment segment();

    MemoryPlacement placement();

    default long size() {
        return segment().byteSize();
    }

    /** Frees the memory. Idempotent. */
    @Override
    void close();
}
