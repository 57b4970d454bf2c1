package dev.linkproof.transfer;

/** The two ranks of a pair. Numbers enter the validation pattern's seed. */
public final class Ranks {
    public static final int INITIATOR = 0;
    public static final int TARGET = 1;

    private Ranks() {}

    public static String name(int rank) {
        return rank == INITIATOR ? "initiator" : "target";
    }
}
