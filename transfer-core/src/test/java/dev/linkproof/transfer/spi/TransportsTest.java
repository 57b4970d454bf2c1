package dev.linkproof.transfer.spi;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.linkproof.transfer.Availability;
import dev.linkproof.transfer.MemoryKind;
import dev.linkproof.transfer.MemoryPlacement;
import dev.linkproof.transfer.Op;
import dev.linkproof.transfer.TransferSpec;
import dev.linkproof.transfer.tcp.TcpTransport;
import java.time.Duration;
import org.junit.jupiter.api.Test;

class TransportsTest {
    private final Transports transports = Transports.discover();

    @Test
    void tcpIsFoundThroughTheServiceLoader() {
        assertThat(transports.find("tcp")).get().isInstanceOf(TcpTransport.class);
        assertThat(transports.require("tcp").id()).isEqualTo("tcp");
        assertThat(transports.all()).containsKey("tcp");
        assertThat(transports.loadErrors()).isEmpty();
        assertThat(transports.find("nope")).isEmpty();
    }

    @Test
    void requiringAnUnknownTransportListsTheKnownOnes() {
        assertThatThrownBy(() -> transports.require("warp"))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("unknown transport 'warp'")
                .hasMessageContaining("tcp");
    }

    @Test
    void tcpSupportsHostWritesAndReadsOnly() {
        Transport tcp = transports.require("tcp");
        assertThat(tcp.availability().available()).isTrue();
        assertThat(tcp.connectionNoun()).isEqualTo("conn");
        assertThat(tcp.supports(TransferSpec.builder().op(Op.WRITE).build()).available())
                .isTrue();
        assertThat(tcp.supports(TransferSpec.builder().op(Op.READ).build()).available())
                .isTrue();
        assertThat(tcp.supports(TransferSpec.builder()
                                .targetMemory(new MemoryPlacement(MemoryKind.HUGEPAGE, 0))
                                .build())
                        .available())
                .isTrue();
        Availability send = tcp.supports(TransferSpec.builder().op(Op.SEND).build());
        assertThat(send.available()).isFalse();
        assertThat(send.reason()).isEqualTo("tcp supports write and read, not send");
        // An op tcp has none of is the transport's limit, not the host's: no profile fails it.
        assertThat(send.kind()).isEqualTo(Availability.Kind.NOT_SUPPORTED);
        assertThat(tcp.supports(TransferSpec.builder().op(Op.FETCH_ADD).size(8).build())
                        .kind())
                .isEqualTo(Availability.Kind.NOT_SUPPORTED);
        assertThat(tcp.supports(TransferSpec.builder().op(Op.WRITE_WITH_IMM).build())
                        .reason())
                .contains("write-with-imm");
        // GPU memory is staged through host memory; whether a GPU is there is the session's question.
        assertThat(tcp.supports(TransferSpec.builder()
                                .initiatorMemory(new MemoryPlacement(MemoryKind.GPU, 1))
                                .build())
                        .available())
                .isTrue();
        assertThat(tcp.stagesGpuMemory()).isTrue();
        assertThat(tcp.describe()).containsEntry("tcp.nodelay", "true");
    }

    @Test
    void ioDeadlinesMustBePositive() {
        assertThatThrownBy(() -> new IoSettings(Duration.ZERO, Duration.ofSeconds(1)))
                .hasMessageContaining("positive");
        assertThatThrownBy(() -> new IoSettings(Duration.ofSeconds(1), Duration.ofSeconds(-1)))
                .hasMessageContaining("positive");
        assertThat(IoSettings.DEFAULT.progressTimeout()).isEqualTo(Duration.ofSeconds(10));
    }
}
