package dev.linkproof.conformance.e2e;

import dev.linkproof.transfer.verbs.VerbsTransport;

/** {@link AtomicFaultTransport} over verbs (the Soft-RoCE VM suite runs it on rxe0). */
public class VerbsAtomicFaultTransport extends AtomicFaultTransport {
    public static final String ID = "verbs-atomic-fault";

    public VerbsAtomicFaultTransport() {
        super(ID, new VerbsTransport());
    }
}
