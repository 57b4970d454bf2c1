package dev.linkproof.transfer.ucx;

import dev.linkproof.transfer.TransferException;
import dev.linkproof.transfer.memory.Buffer;
import java.util.Map;

/**
 * The context and memory map a point runs on. A buffer from {@link UcxTransport#allocate} brings its
 * own; any other buffer is registered in place with a context of the point's own, which this
 * region then owns and releases (RMA on such memory may be emulated with messages).
 */
record UcxRegion(UcxContext context, UcxMemory memory, boolean owned) {
    static UcxRegion of(Buffer buffer, Map<String, String> settings) throws TransferException {
        if (buffer instanceof UcxBuffer b && b.context.settings.equals(settings)) {
            return new UcxRegion(b.context, b.memory, false);
        }
        UcxContext context = UcxContext.create(settings);
        try {
            return new UcxRegion(context, UcxMemory.register(context, buffer.segment()), true);
        } catch (TransferException | RuntimeException e) {
            context.close();
            throw e;
        }
    }

    void release() {
        if (owned) {
            try {
                memory.unmap();
            } finally {
                context.close();
            }
        }
    }
}
