package dev.linkproof.transfer.ucx;

import dev.linkproof.transfer.MemoryPlacement;
import dev.linkproof.transfer.TransferException;
import dev.linkproof.transfer.memory.Buffer;
import java.lang.foreign.MemorySegment;

/**
 * A buffer the ucx transport allocated: UCX-mapped memory with the context that mapped it. The
 * transport's target point and data path reuse that context, so the memory's registration is the
 * one RMA goes through. Closing unmaps the memory, then cleans up the context.
 */
final class UcxBuffer implements Buffer {
    final UcxContext context;
    final UcxMemory memory;
    private final Buffer backing;
    private final MemoryPlacement placement;
    private boolean closed;

    UcxBuffer(UcxContext context, UcxMemory memory, Buffer backing, MemoryPlacement placement) {
        this.context = context;
        this.memory = memory;
        this.backing = backing;
        this.placement = placement;
    }

    /** UCX's mapping, or for memory registered in place (huge pages, a GPU's) the backing buffer's view of it. */
    @Override
    public MemorySegment segment() {
        return backing != null ? backing.segment() : memory.segment;
    }

    @Override
    public boolean hostViewIsCopy() {
        return backing != null && backing.hostViewIsCopy();
    }

    @Override
    public void pushHostView(long offset, long length) throws TransferException {
        if (backing != null) {
            backing.pushHostView(offset, length);
        }
    }

    @Override
    public void pullHostView(long offset, long length) throws TransferException {
        if (backing != null) {
            backing.pullHostView(offset, length);
        }
    }

    @Override
    public MemoryPlacement placement() {
        return placement;
    }

    @Override
    public synchronized void close() {
        if (closed) {
            return;
        }
        closed = true;
        try {
            memory.unmap();
        } finally {
            try {
                if (backing != null) {
                    backing.close();
                }
            } finally {
                context.close();
            }
        }
    }
}
