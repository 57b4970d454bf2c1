package dev.linkproof.engine.api;

import dev.linkproof.transfer.TransferSpec;

/**
 * One point of a sweep: the spec both ranks run, and how the point is named.
 *
 * @param displayName e.g. {@code write 4 KiB ×8 · 4 conn · tcp}
 * @param segment     the point's unique-id segment value, e.g. {@code op=write,size=4096,batch=8,...}
 * @param rails       rails run at once: 1 for one pair, {@link TransferTest#ALL_RAILS} for every rail the
 *                    profile resolves
 * @param bothWays    each rail also runs from the target's node back to the initiator's, at the same time
 */
public record SweepPoint(TransferSpec spec, String displayName, String segment, int rails, boolean bothWays) {
    /** A point of one pair. */
    public SweepPoint(TransferSpec spec, String displayName, String segment) {
        this(spec, displayName, segment, 1, false);
    }

    /** A point of {@code rails} rails, one way. */
    public SweepPoint(TransferSpec spec, String displayName, String segment, int rails) {
        this(spec, displayName, segment, rails, false);
    }

    /** Whether the point runs more than one pair at once: several rails, or both ways. */
    public boolean hasRails() {
        return rails != 1 || bothWays;
    }
}
