package dev.linkproof.transfer.ucx;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.linkproof.transfer.MemoryPlacement;
import dev.linkproof.transfer.Op;
import dev.linkproof.transfer.TransferSpec;
import dev.linkproof.transfer.measure.MeasurementLoop;
import dev.linkproof.transfer.memory.Buffer;
import dev.linkproof.transfer.spi.IoSettings;
import dev.linkproof.transfer.spi.TargetContext;
import dev.linkproof.transfer.spi.TargetPoint;
import java.lang.foreign.ValueLayout;
import java.util.Map;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * Which linkage a ucx data path posts through: the critical one (no thread-state transition, held
 * safepoints) only where no endpoint has an error handler that could call back into Java during a
 * post (shared-memory transports only) and no op is longer than {@link UcxDataPath#CRITICAL_MAX_BYTES};
 * either way one batch moves the bytes.
 */
@Timeout(60)
class UcxDataPathLinkageTest {

    @ParameterizedTest(name = "{0} {1} {2} B: critical {3}")
    @CsvSource({
        "shm, WRITE, 8, true",
        "shm, READ, 8, true",
        "shm, WRITE, 65536, true",
        "shm, READ, 65537, false",
        "tcp, WRITE, 8, false",
        "tcp, READ, 64, false"
    })
    void criticalOnlyWithoutErrorHandlersAndForShortOps(String tls, Op op, long size, boolean critical)
            throws Exception {
        assumeTrue(Ucx.unavailableReason() == null, () -> "libucp absent: " + Ucx.unavailableReason());
        TransferSpec spec = TransferSpec.builder()
                .transport("ucx")
                .pointId("UcxDataPathLinkageTest")
                .op(op)
                .size(size)
                .settings(Map.of("UCX_TLS", tls))
                .build();
        UcxTransport t = new UcxTransport();
        try (Buffer target = t.allocate(spec, MemoryPlacement.HOST, size);
                TargetPoint served = t.serve(spec, target, new TargetContext("127.0.0.1", IoSettings.DEFAULT));
                Buffer local = t.allocate(spec, MemoryPlacement.HOST, size)) {
            Buffer from = op == Op.WRITE ? local : target;
            Buffer to = op == Op.WRITE ? target : local;
            from.segment().fill((byte) 0x5a);
            to.segment().fill((byte) 0);
            UcxDataPath path = UcxDataPath.connect(spec, local, served.endpoint(), IoSettings.DEFAULT);
            try {
                assertThat(path.critical()).isEqualTo(critical);
                MeasurementLoop.once(path);
            } finally {
                path.close();
            }
            assertThat(to.segment().get(ValueLayout.JAVA_BYTE, size - 1)).isEqualTo((byte) 0x5a);
            assertThat(to.segment().get(ValueLayout.JAVA_BYTE, 0)).isEqualTo((byte) 0x5a);
        }
    }
}
