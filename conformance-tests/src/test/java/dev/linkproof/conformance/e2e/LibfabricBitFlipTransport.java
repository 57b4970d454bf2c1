package dev.linkproof.conformance.e2e;

import dev.linkproof.transfer.libfabric.LibfabricTransport;

/**
 * {@link BitFlipTransport} over real libfabric: one byte of one slot flipped in the verification pass
 * (settings {@code fault.slot}, {@code fault.offset}), on whichever provider {@code libfabric.provider}
 * names. Registered as transport {@value #ID}.
 */
public final class LibfabricBitFlipTransport extends BitFlipTransport {
    public static final String ID = "libfabric-bitflip";

    public LibfabricBitFlipTransport() {
        super(ID, new LibfabricTransport());
    }
}
