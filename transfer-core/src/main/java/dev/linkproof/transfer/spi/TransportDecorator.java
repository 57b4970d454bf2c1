package dev.linkproof.transfer.spi;

import dev.linkproof.transfer.Availability;
import dev.linkproof.transfer.MemoryPlacement;
import dev.linkproof.transfer.TransferException;
import dev.linkproof.transfer.TransferSpec;
import dev.linkproof.transfer.memory.Buffer;
import java.util.Map;

/**
 * A transport under another id that does everything its delegate does: the base of the test
 * suites' fault-injecting decorators (a flipped byte, a wrong immediate, a truncated copy), which
 * override the initiator's side ({@link #open}) and leave the target's side plain, so the checks of
 * an unmodified target are what catches the fault. Registered like any transport, through
 * {@code META-INF/services}.
 */
public abstract class TransportDecorator implements Transport {
    private final String id;
    protected final Transport delegate;

    protected TransportDecorator(String id, Transport delegate) {
        this.id = id;
        this.delegate = delegate;
    }

    @Override
    public String id() {
        return id;
    }

    @Override
    public String connectionNoun() {
        return delegate.connectionNoun();
    }

    @Override
    public Availability availability() {
        return delegate.availability();
    }

    @Override
    public Availability supports(TransferSpec spec) {
        return delegate.supports(spec);
    }

    @Override
    public Buffer allocate(TransferSpec spec, MemoryPlacement placement, long bytes) throws TransferException {
        return delegate.allocate(spec, placement, bytes);
    }

    @Override
    public TargetPoint serve(TransferSpec spec, Buffer region, TargetContext context) throws TransferException {
        return delegate.serve(spec, region, context);
    }

    @Override
    public InitiatorPoint open(TransferSpec spec, Buffer local, Map<String, String> endpoint, IoSettings io)
            throws TransferException {
        return delegate.open(spec, local, endpoint, io);
    }

    /** As its delegate: a decorator of gpu-ipc runs on one host, and its rails are pairs of GPUs as gpu-ipc's are. */
    @Override
    public boolean sameHostOnly() {
        return delegate.sameHostOnly();
    }

    @Override
    public boolean stagesGpuMemory() {
        return delegate.stagesGpuMemory();
    }

    @Override
    public Map<String, String> describe() {
        return delegate.describe();
    }
}
