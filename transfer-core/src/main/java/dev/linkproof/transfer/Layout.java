package dev.linkproof.transfer;

/** Where the transfers of one batch land, like MORI-IO's {@code --batch-contiguous}. */
public enum Layout {
    /** Slot i starts right after slot i-1: a batch covers one contiguous range. */
    CONTIGUOUS,
    /** Slots start on page boundaries with a guard page between them, so no two are adjacent. */
    STRIDED
}
