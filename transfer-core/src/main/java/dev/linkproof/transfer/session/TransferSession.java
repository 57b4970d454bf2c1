package dev.linkproof.transfer.session;

import dev.linkproof.transfer.Availability;
import dev.linkproof.transfer.TransferException;
import dev.linkproof.transfer.TransferSpec;
import dev.linkproof.transfer.control.ControlChannel;
import dev.linkproof.transfer.control.Messages;
import dev.linkproof.transfer.measure.HostContention;
import dev.linkproof.transfer.measure.Measurement;
import java.time.Duration;
import java.util.Optional;

/**
 * A live pair of ranks: this process as initiator, a target agent on the other side. Tests that
 * script unusual sequences get one as a parameter and drive it directly.
 */
public interface TransferSession extends AutoCloseable {
    /** Provisions, runs (warmup, timed loop, verification pass) and releases one point. */
    default Measurement run(TransferSpec spec) throws TransferException {
        return run(spec, dev.linkproof.transfer.measure.LoopGate.NONE);
    }

    /**
     * As {@link #run(TransferSpec)}, its timed loop started when {@code gate} lets it: one rail of a
     * point that runs several at once ({@link Rails}).
     */
    Measurement run(TransferSpec spec, dev.linkproof.transfer.measure.LoopGate gate) throws TransferException;

    /** Whether {@code spec}'s transport and memory kinds can run on both ranks, and if not, why. */
    Availability supports(TransferSpec spec);

    /** What the agent said about itself when the session opened. */
    Messages.Welcome agent();

    /**
     * How busy other processes keep the target's host, measured by its agent over {@code window}
     * (100 ms to 2 s); empty where the agent cannot measure.
     */
    Optional<HostContention> targetLoad(Duration window) throws TransferException;

    /** False once the peer failed; the owner must open a new session. */
    boolean usable();

    /** The raw control connection, for tests that speak the protocol themselves. */
    ControlChannel control();

    @Override
    void close();
}
