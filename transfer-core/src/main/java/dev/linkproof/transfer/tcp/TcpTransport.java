package dev.linkproof.transfer.tcp;

import dev.linkproof.transfer.Availability;
import dev.linkproof.transfer.Op;
import dev.linkproof.transfer.TransferException;
import dev.linkproof.transfer.TransferSpec;
import dev.linkproof.transfer.memory.Buffer;
import dev.linkproof.transfer.spi.DataPath;
import dev.linkproof.transfer.spi.IoSettings;
import dev.linkproof.transfer.spi.TargetContext;
import dev.linkproof.transfer.spi.TargetPoint;
import dev.linkproof.transfer.spi.Transport;
import java.util.Map;

/**
 * Pure-Java TCP (NIO): the reference transport that runs everywhere. WRITE pushes into the
 * target's region, READ pulls from it; several connections per pair stand in for queue pairs.
 * GPU memory on either side is staged through host memory, one transfer at a time inside the timed
 * loop, and points say so ({@link #stagesGpuMemory()}). A point's {@link TcpSettings} can pin its data
 * connections to one pair of addresses, one link: a rail.
 */
public final class TcpTransport implements Transport {
    public static final String ID = "tcp";

    @Override
    public String id() {
        return ID;
    }

    @Override
    public Availability availability() {
        return Availability.yes("java.nio sockets");
    }

    @Override
    public Availability supports(TransferSpec spec) {
        if (spec.op().atomic()) {
            // A stream has no remote atomics: emulating them in the target's receive loop would test
            // our own code, not a data path's atomicity.
            return Availability.notSupported(
                    "tcp has no remote atomics: " + spec.op().label() + " runs on verbs and ucx");
        }
        if (spec.op() != Op.WRITE && spec.op() != Op.READ) {
            return Availability.notSupported(
                    "tcp supports write and read, not " + spec.op().label());
        }
        return availability();
    }

    @Override
    public TargetPoint serve(TransferSpec spec, Buffer region, TargetContext context) throws TransferException {
        return TcpTargetPoint.open(spec, region, context);
    }

    @Override
    public DataPath connect(TransferSpec spec, Buffer local, Map<String, String> endpoint, IoSettings io)
            throws TransferException {
        return TcpDataPath.connect(spec, local, endpoint, io);
    }

    @Override
    public boolean stagesGpuMemory() {
        return true;
    }

    @Override
    public Map<String, String> describe() {
        return Map.of("tcp.nodelay", "true", "tcp.gpu", "GPU memory staged through host memory per transfer");
    }
}
