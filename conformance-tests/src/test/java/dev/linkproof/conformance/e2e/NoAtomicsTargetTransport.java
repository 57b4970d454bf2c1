package dev.linkproof.conformance.e2e;

import dev.linkproof.transfer.Availability;
import dev.linkproof.transfer.TransferSpec;
import dev.linkproof.transfer.verbs.VerbsTransport;

/**
 * {@link NoAtomicsDeviceTransport}'s device without atomics on the target alone: in a JVM started with
 * {@code -D}{@value #HERE}{@code =true} (the agent, through {@code linkproof.agent.jvmArgs}) it answers
 * as that device, elsewhere as one that does atomics. The initiator starts the point, and the target
 * refuses its PREPARE for the device's shortfall; nothing atomic ever runs over the tcp underneath.
 * Registered as {@value #ID}.
 */
public class NoAtomicsTargetTransport extends NoAtomicsDeviceTransport {
    public static final String ID = "no-atomics-target";
    /** The system property that puts the device without atomics in this JVM. */
    public static final String HERE = "fake.noAtomicsDeviceHere";

    public NoAtomicsTargetTransport() {
        super(ID);
    }

    @Override
    public Availability supports(TransferSpec spec) {
        if (spec.op().atomic() && !Boolean.getBoolean(HERE)) {
            Availability memory = VerbsTransport.atomicMemory(spec);
            return memory.available() ? Availability.yes(DEVICE + " (a fake device that does atomics)") : memory;
        }
        return super.supports(spec);
    }
}
