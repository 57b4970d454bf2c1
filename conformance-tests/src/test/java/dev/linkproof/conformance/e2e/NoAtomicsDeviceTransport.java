package dev.linkproof.conformance.e2e;

import dev.linkproof.transfer.Availability;
import dev.linkproof.transfer.TransferSpec;
import dev.linkproof.transfer.spi.TransportDecorator;
import dev.linkproof.transfer.tcp.TcpTransport;
import dev.linkproof.transfer.verbs.VerbsAbi;
import dev.linkproof.transfer.verbs.VerbsDevice;
import dev.linkproof.transfer.verbs.VerbsTransport;

/**
 * A transport that is here and whose device does no RDMA atomics, as a verbs NIC whose
 * {@code atomic_cap} is IBV_ATOMIC_NONE would be: no device on these machines lacks them (rxe does
 * them), so the engine's decision is driven through this one. An atomic point gets the answer verbs
 * gives for such a device, from verbs' own decisions (GPU memory first, then the device's
 * attributes); every other point runs over tcp. Registered as {@value #ID}.
 */
public class NoAtomicsDeviceTransport extends TransportDecorator {
    public static final String ID = "no-atomics-device";
    /** The fake device's name, which the skip reason and the failure must carry. */
    public static final String DEVICE = "fake_mlx5_0";
    /** What ibv_query_device would say of a ConnectX without atomics: atomic_cap IBV_ATOMIC_NONE, the rest plausible. */
    static final VerbsDevice.Attributes ATTRIBUTES = new VerbsDevice.Attributes(
            "28.39.1002", 1L << 40, 4129, 131072, 32768, 30, 4194303, 16, 16, 1, (int) VerbsAbi.ATOMIC_NONE);

    public NoAtomicsDeviceTransport() {
        this(ID);
    }

    protected NoAtomicsDeviceTransport(String id) {
        super(id, new TcpTransport());
    }

    @Override
    public Availability supports(TransferSpec spec) {
        if (!spec.op().atomic()) {
            return delegate.supports(spec);
        }
        Availability memory = VerbsTransport.atomicMemory(spec);
        return memory.available() ? VerbsTransport.atomics(DEVICE, ATTRIBUTES) : memory;
    }
}
