package dev.linkproof.conformance.e2e;

import dev.linkproof.transfer.verbs.VerbsTransport;

/**
 * {@link BitFlipTransport} over real verbs: one byte of one slot flipped in the verification pass
 * (settings {@code fault.slot}, {@code fault.offset}). Registered as transport {@value #ID}.
 */
public final class VerbsBitFlipTransport extends BitFlipTransport {
    public static final String ID = "verbs-bitflip";

    public VerbsBitFlipTransport() {
        super(ID, new VerbsTransport());
    }
}
