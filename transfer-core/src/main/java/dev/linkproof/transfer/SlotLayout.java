package dev.linkproof.transfer;

/**
 * Where each transfer of a batch starts inside a region. Both ranks use the same layout for their
 * buffers, so slot i of the initiator always pairs with slot i of the target.
 */
public record SlotLayout(Layout layout, long size, int batch, long offset) {
    private static final long PAGE = 4096;

    /** Distance between the starts of two neighbouring slots. */
    public long stride() {
        return layout == Layout.CONTIGUOUS ? size : (size + PAGE - 1) / PAGE * PAGE + PAGE;
    }

    public long slotOffset(int slot) {
        if (slot < 0 || slot >= batch) {
            throw new IndexOutOfBoundsException("slot " + slot + " out of range 0.." + (batch - 1));
        }
        return offset + slot * stride();
    }

    /** Bytes a buffer needs to hold every slot. */
    public long regionBytes() {
        return offset + (batch - 1) * stride() + size;
    }
}
