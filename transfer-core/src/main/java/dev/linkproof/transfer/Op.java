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
    WRITE_WITH_IMM;

    /** The rank whose memory holds the pattern before a transfer: 0 = initiator, 1 = target. */
    public int ownerRank() {
        return this == READ ? Ranks.TARGET : Ranks.INITIATOR;
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
        throw new IllegalArgumentException("unknown op '" + text + "' (expected one of write, read, send, write-with-imm)");
    }
}
