package dev.linkproof.transfer;

/** What one transfer does. WRITE and READ are one-sided from the initiator's point of view. */
public enum Op {
    /** The initiator pushes its local slot into the target's region. The initiator owns the data. */
    WRITE,
    /** The initiator pulls the target's slot into its local buffer. The target owns the data. */
    READ,
    /** Two-sided: the initiator sends, the target has a receive posted. The initiator owns the data. */
    SEND,
    /** WRITE that also delivers a 32-bit immediate to the target. The initiator owns the data. */
    WRITE_WITH_IMM,
    /**
     * 8-byte atomic fetch-and-add on a counter in the target's slot; the prior value comes back to
     * the initiator. Each slot of the batch is one counter; "size" is always 8 (the operand's width).
     * The target owns the counters (it sets their start values).
     */
    FETCH_ADD,
    /**
     * 8-byte atomic compare-and-swap on a counter in the target's slot, each op of a counter one link
     * of a chain (compare with the value the previous link left, swap in the next); the prior value
     * comes back to the initiator. Size 8 as for {@link #FETCH_ADD}.
     */
    COMPARE_SWAP;

    /** The width of an atomic's operand and of the counter it works on, in bytes. */
    public static final int ATOMIC_BYTES = 8;

    /** The rank whose memory holds the pattern before a transfer: 0 = initiator, 1 = target. */
    public int ownerRank() {
        return this == READ || atomic() ? Ranks.TARGET : Ranks.INITIATOR;
    }

    /** An 8-byte remote atomic: its slots are counters, validated by their values, not by checksums of moved bytes. */
    public boolean atomic() {
        return this == FETCH_ADD || this == COMPARE_SWAP;
    }

    public String label() {
        return name().toLowerCase(java.util.Locale.ROOT).replace('_', '-');
    }

    public static Op parse(String text) {
        for (Op op : values()) {
            if (op.label().equalsIgnoreCase(text) || op.name().equalsIgnoreCase(text)) {
                return op;
            }
        }
        throw new IllegalArgumentException("unknown op '" + text
                + "' (expected one of write, read, send, write-with-imm, fetch-add, compare-swap)");
    }
}
