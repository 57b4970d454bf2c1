package dev.linkproof.fleet.blame;

import java.util.Locale;

/**
 * Which part of a fleet run a pair's outcome came from. Only the first round sets the fleet's
 * reference; confirmations and retests are judged against it.
 */
public enum Stage {
    /** The plan's rounds: every pair once. */
    FIRST,
    /** A failing pair run again, itself, both ways, before any verdict. */
    CONFIRMATION,
    /** A node of a failing pair run with a partner that passed, to tell the node from the link. */
    RETEST;

    /** As reports name it: {@code confirmation}. */
    public String slug() {
        return name().toLowerCase(Locale.ROOT);
    }
}
