package dev.linkproof.engine.api;

import dev.linkproof.transfer.TransferSpec;

/**
 * One point of a sweep: the spec both ranks run, and how the point is named.
 *
 * @param displayName e.g. {@code write 4 KiB ×8 · 4 conn · tcp}
 * @param segment     the point's unique-id segment value, e.g. {@code op=write,size=4096,batch=8,...}
 */
public record SweepPoint(TransferSpec spec, String displayName, String segment) {
}
