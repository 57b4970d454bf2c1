package dev.linkproof.conformance.e2e;

import dev.linkproof.transfer.TransferException;
import dev.linkproof.transfer.TransferSpec;
import dev.linkproof.transfer.memory.Buffer;
import dev.linkproof.transfer.spi.DataPath;
import dev.linkproof.transfer.spi.InitiatorPoint;
import dev.linkproof.transfer.spi.IoSettings;
import dev.linkproof.transfer.spi.TransportDecorator;
import dev.linkproof.transfer.tcp.TcpTransport;
import java.util.Map;

/**
 * A fault-injecting decorator over tcp whose initiator refuses its first post, as a NIC that rejects
 * a work request would: the point fails on this side, with its peer alive ({@code TRANSFER_ERROR}).
 * The target side is the plain delegate. Registered as {@value #ID}.
 */
public class FailingPostTransport extends TransportDecorator {
    public static final String ID = "tcp-failing-post";

    public FailingPostTransport() {
        super(ID, new TcpTransport());
    }

    @Override
    public InitiatorPoint open(TransferSpec spec, Buffer local, Map<String, String> endpoint, IoSettings io)
            throws TransferException {
        InitiatorPoint inner = delegate.open(spec, local, endpoint, io);
        return DataPathFault.around(inner, path -> new DataPath() {
            @Override
            public void post() throws TransferException {
                throw new TransferException("post refused (injected by " + ID + ")");
            }

            @Override
            public void awaitOldest() throws TransferException {
                path.awaitOldest();
            }

            @Override
            public void close() {
                path.close();
            }
        });
    }
}
