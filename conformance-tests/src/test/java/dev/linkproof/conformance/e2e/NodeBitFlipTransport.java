package dev.linkproof.conformance.e2e;

import dev.linkproof.transfer.TransferException;
import dev.linkproof.transfer.TransferSpec;
import dev.linkproof.transfer.memory.Buffer;
import dev.linkproof.transfer.spi.InitiatorPoint;
import dev.linkproof.transfer.spi.IoSettings;
import dev.linkproof.transfer.tcp.TcpTransport;
import java.util.Map;
import java.util.Objects;

/**
 * tcp that corrupts on one node of a fleet only: {@link BitFlipTransport}'s flipped byte in the
 * points this node initiates when {@code $LINKPROOF_FAULT_NODE} names this node (its
 * {@code $SLURMD_NODENAME}, or {@code $LINKPROOF_NODE}); plain tcp everywhere else. Every node runs
 * the same transport, as a fleet's agents run one build, and only the faulty node's agent corrupts:
 * a NIC or driver that garbles what it sends.
 */
public final class NodeBitFlipTransport extends BitFlipTransport {
    public static final String ID = "tcp-node-bitflip";
    public static final String FAULT_NODE_ENV = "LINKPROOF_FAULT_NODE";

    public NodeBitFlipTransport() {
        super(ID, new TcpTransport());
    }

    @Override
    public InitiatorPoint open(TransferSpec spec, Buffer local, Map<String, String> endpoint, IoSettings io)
            throws TransferException {
        return faultyHere() ? super.open(spec, local, endpoint, io) : delegate.open(spec, local, endpoint, io);
    }

    static boolean faultyHere() {
        String faulty = System.getenv(FAULT_NODE_ENV);
        String here = Objects.requireNonNullElse(
                System.getenv("SLURMD_NODENAME"), String.valueOf(System.getenv("LINKPROOF_NODE")));
        return faulty != null && !faulty.isBlank() && faulty.equals(here);
    }
}
