package dev.linkproof.conformance.e2e;

import dev.linkproof.transfer.TransferException;
import dev.linkproof.transfer.spi.DataPath;
import dev.linkproof.transfer.spi.InitiatorPoint;
import java.util.Map;

/** What the fault-injecting transports share: the delegate's initiator point, its data path wrapped by the fault. */
interface DataPathFault {
    DataPath wrap(DataPath path) throws TransferException;

    /** {@code inner}, whose data path goes through {@code fault}. */
    static InitiatorPoint around(InitiatorPoint inner, DataPathFault fault) {
        return new InitiatorPoint() {
            @Override
            public Map<String, String> endpoint() {
                return inner.endpoint();
            }

            @Override
            public DataPath start(Map<String, String> targetReply) throws TransferException {
                return fault.wrap(inner.start(targetReply));
            }

            @Override
            public void close() {
                inner.close();
            }
        };
    }
}
