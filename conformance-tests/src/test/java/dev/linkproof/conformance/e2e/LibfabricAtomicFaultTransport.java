package dev.linkproof.conformance.e2e;

import dev.linkproof.transfer.libfabric.LibfabricTransport;

/**
 * {@link AtomicFaultTransport} over real libfabric: one atomic of one counter lost or doubled, on
 * whichever provider {@code libfabric.provider} names. Registered as transport {@value #ID}.
 */
public final class LibfabricAtomicFaultTransport extends AtomicFaultTransport {
    public static final String ID = "libfabric-atomic-fault";

    public LibfabricAtomicFaultTransport() {
        super(ID, new LibfabricTransport());
    }
}
