package dev.linkproof.transfer.tcp;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.linkproof.transfer.Deadline;
import dev.linkproof.transfer.Op;
import dev.linkproof.transfer.PeerFailureException;
import dev.linkproof.transfer.Ranks;
import dev.linkproof.transfer.TransferException;
import dev.linkproof.transfer.TransferSpec;
import dev.linkproof.transfer.memory.Buffer;
import dev.linkproof.transfer.memory.HostMemory;
import dev.linkproof.transfer.spi.DataPath;
import dev.linkproof.transfer.spi.IoSettings;
import dev.linkproof.transfer.spi.TargetContext;
import dev.linkproof.transfer.spi.TargetPoint;
import dev.linkproof.transfer.testing.FullBacklog;
import dev.linkproof.transfer.validate.Checksums;
import dev.linkproof.transfer.validate.SlotPatterns;
import java.io.InputStream;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.time.Duration;
import java.util.HashMap;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** The tcp transport on its own, both sides in this JVM, without the control protocol. */
@Timeout(30)
class TcpTransportTest {
    private static final IoSettings FAST = new IoSettings(Duration.ofMillis(300), Duration.ofSeconds(2));
    private final TcpTransport tcp = new TcpTransport();
    private final TargetContext target = new TargetContext("127.0.0.1", IoSettings.DEFAULT);

    private static Map<String, String> withHost(Map<String, String> endpoint) {
        Map<String, String> e = new HashMap<>(endpoint);
        e.put("peer.host", "127.0.0.1");
        return e;
    }

    @Test
    void writeLandsInTheTargetRegionAndReadComesBack() throws Exception {
        TransferSpec write = TransferSpec.builder()
                .pointId("tcp#w")
                .op(Op.WRITE)
                .size(5000)
                .batch(3)
                .connections(2)
                .offset(9)
                .build();
        try (Buffer region = HostMemory.pageAligned(write.slots().regionBytes());
                Buffer local = HostMemory.pageAligned(write.slots().regionBytes());
                TargetPoint served = tcp.serve(write, region, target)) {
            assertThat(served.endpoint()).containsKeys("tcp.port", "tcp.key").doesNotContainKey("tcp.host");
            SlotPatterns.fill(local.segment(), write, Ranks.INITIATOR, 0);
            try (DataPath path = tcp.connect(write, local, withHost(served.endpoint()), FAST)) {
                path.post();
                path.awaitOldest();
            }
            assertThat(Checksums.ofSlots(region.segment(), write.slots()))
                    .isEqualTo(Checksums.ofSlots(local.segment(), write.slots()));
            for (int slot = 0; slot < 3; slot++) {
                assertThat(SlotPatterns.locate(region.segment(), write, slot, Ranks.INITIATOR, 0))
                        .isEmpty();
            }
        }

        TransferSpec read = write.withPointId("tcp#r");
        read = new TransferSpec(
                read.pointId(),
                "tcp",
                Op.READ,
                read.mode(),
                read.size(),
                read.batch(),
                read.connections(),
                read.pipelineDepth(),
                read.iterations(),
                read.warmup(),
                read.layout(),
                read.offset(),
                read.initiatorMemory(),
                read.targetMemory(),
                read.settings());
        try (Buffer region = HostMemory.pageAligned(read.slots().regionBytes());
                Buffer local = HostMemory.pageAligned(read.slots().regionBytes());
                TargetPoint served = tcp.serve(read, region, target)) {
            SlotPatterns.fill(region.segment(), read, Ranks.TARGET, 4);
            try (DataPath path = tcp.connect(read, local, withHost(served.endpoint()), FAST)) {
                path.post();
                path.awaitOldest();
            }
            for (int slot = 0; slot < 3; slot++) {
                assertThat(SlotPatterns.locate(local.segment(), read, slot, Ranks.TARGET, 4))
                        .isEmpty();
            }
            // the misalignment bytes before the first slot were not touched
            assertThat(local.segment().asSlice(0, 9).toArray(java.lang.foreign.ValueLayout.JAVA_BYTE))
                    .containsOnly(0);
        }
    }

    @Test
    void aTargetThatNeverAnswersFailsWithinTheProgressDeadline() throws Exception {
        try (ServerSocket silent = new ServerSocket(0, 50, InetAddress.getLoopbackAddress())) {
            Thread sink = Thread.ofPlatform().daemon().start(() -> {
                try (Socket s = silent.accept();
                        InputStream in = s.getInputStream()) {
                    in.transferTo(java.io.OutputStream.nullOutputStream());
                } catch (Exception ignored) {
                    // test over
                }
            });
            TransferSpec spec = TransferSpec.builder()
                    .pointId("tcp#silent")
                    .op(Op.READ)
                    .size(4096)
                    .build();
            try (Buffer local = HostMemory.pageAligned(4096);
                    DataPath path = tcp.connect(
                            spec,
                            local,
                            Map.of(
                                    "tcp.host",
                                    "127.0.0.1",
                                    "tcp.port",
                                    Integer.toString(silent.getLocalPort()),
                                    "tcp.key",
                                    "0000000000000001"),
                            FAST)) {
                path.post();
                long t0 = System.nanoTime();
                assertThatThrownBy(path::awaitOldest)
                        .isInstanceOf(PeerFailureException.class)
                        .hasMessageContaining("no progress")
                        .hasMessageContaining("300 ms")
                        .hasMessageContaining("tcp#silent")
                        .satisfies(e -> assertThat(((PeerFailureException) e).deadline())
                                .contains(Deadline.PROGRESS));
                long ms = (System.nanoTime() - t0) / 1_000_000;
                assertThat(ms).isBetween(250L, 5_000L);
            }
            sink.interrupt();
        }
    }

    /**
     * A target whose accept queue is full drops the data connection's SYN, as an unroutable host
     * does: the connect waits out its own deadline (IoSettings.connectTimeout) and says which it was.
     */
    @Test
    void aDataConnectionNeverAcceptedFailsWithinTheConnectDeadline() throws Exception {
        try (FullBacklog full = new FullBacklog()) {
            TransferSpec spec =
                    TransferSpec.builder().pointId("tcp#full").size(4096).build();
            IoSettings io = new IoSettings(Duration.ofMillis(300), Duration.ofMillis(600));
            long t0 = System.nanoTime();
            try (Buffer local = HostMemory.pageAligned(4096)) {
                assertThatThrownBy(() -> tcp.connect(
                                        spec,
                                        local,
                                        Map.of(
                                                "tcp.host",
                                                "127.0.0.1",
                                                "tcp.port",
                                                Integer.toString(full.port()),
                                                "tcp.key",
                                                "0000000000000001"),
                                        io)
                                .close())
                        .isInstanceOf(PeerFailureException.class)
                        .hasMessageContaining("cannot open tcp data connection to 127.0.0.1:" + full.port()
                                + ": no answer within 600 ms")
                        .satisfies(e -> assertThat(((PeerFailureException) e).deadline())
                                .contains(Deadline.DATA_CONNECT));
            }
            assertThat(Duration.ofNanos(System.nanoTime() - t0)).isLessThan(Duration.ofSeconds(5));
        }
    }

    @Test
    void aTargetThatHangsUpIsAPeerFailure() throws Exception {
        try (ServerSocket rude = new ServerSocket(0, 50, InetAddress.getLoopbackAddress())) {
            Thread.ofPlatform().daemon().start(() -> {
                try (Socket s = rude.accept()) {
                    s.getInputStream().readNBytes(8);
                } catch (Exception ignored) {
                    // closing is the point
                }
            });
            TransferSpec spec = TransferSpec.builder()
                    .pointId("tcp#rude")
                    .op(Op.READ)
                    .size(4096)
                    .build();
            try (Buffer local = HostMemory.pageAligned(4096);
                    DataPath path = tcp.connect(
                            spec,
                            local,
                            Map.of(
                                    "tcp.host",
                                    "127.0.0.1",
                                    "tcp.port",
                                    Integer.toString(rude.getLocalPort()),
                                    "tcp.key",
                                    "0000000000000001"),
                            IoSettings.DEFAULT)) {
                path.post();
                long t0 = System.nanoTime();
                assertThatThrownBy(path::awaitOldest)
                        .isInstanceOf(PeerFailureException.class)
                        .hasMessageContaining("tcp data connection 0");
                assertThat((System.nanoTime() - t0) / 1_000_000)
                        .as("well before the 10 s deadline")
                        .isLessThan(5_000L);
            }
        }
    }

    @Test
    void aRequestOutsideTheRegionIsRefusedWithAMessageAndTheConnectionSurvives() throws Exception {
        TransferSpec small = TransferSpec.builder()
                .pointId("tcp#small")
                .op(Op.WRITE)
                .size(100)
                .build();
        TransferSpec large = small.withPointId("tcp#large");
        large = new TransferSpec(
                large.pointId(),
                "tcp",
                Op.WRITE,
                large.mode(),
                4096,
                1,
                1,
                1,
                1,
                0,
                large.layout(),
                0,
                large.initiatorMemory(),
                large.targetMemory(),
                null);
        try (Buffer region = HostMemory.pageAligned(100);
                Buffer local = HostMemory.pageAligned(4096);
                TargetPoint served = tcp.serve(small, region, target)) {
            try (DataPath path = tcp.connect(large, local, withHost(served.endpoint()), FAST)) {
                path.post();
                assertThatThrownBy(path::awaitOldest)
                        .isInstanceOf(TransferException.class)
                        .hasMessageContaining("refused")
                        .hasMessageContaining("out-of-range")
                        .hasMessageContaining("outside the region of 100 bytes");
            }
            // the point keeps serving well-formed requests
            try (Buffer ok = HostMemory.pageAligned(100);
                    DataPath path = tcp.connect(small, ok, withHost(served.endpoint()), FAST)) {
                path.post();
                path.awaitOldest();
            }
        }
    }

    @Test
    void connectFailuresAndBadEndpointsAreReported() throws Exception {
        TransferSpec spec =
                TransferSpec.builder().pointId("tcp#nobody").size(64).build();
        int port;
        try (ServerSocket s = new ServerSocket(0)) {
            port = s.getLocalPort();
        }
        try (Buffer local = HostMemory.pageAligned(64)) {
            int closed = port;
            assertThatThrownBy(() -> tcp.connect(
                            spec,
                            local,
                            Map.of("tcp.host", "127.0.0.1", "tcp.port", Integer.toString(closed), "tcp.key", "01"),
                            FAST))
                    .isInstanceOf(PeerFailureException.class)
                    .hasMessageContaining("cannot open tcp data connection to 127.0.0.1:" + closed)
                    .hasMessageEndingWith("(did the target rank die?)");
            assertThatThrownBy(() -> tcp.connect(spec, local, Map.of("peer.host", "127.0.0.1", "tcp.key", "01"), FAST))
                    .isInstanceOf(TransferException.class)
                    .hasMessageContaining("tcp endpoint from the peer lacks 'tcp.port'");
        }
    }

    @Test
    void awaitingWithNothingInFlightIsAProgrammingError() throws Exception {
        TransferSpec spec = TransferSpec.builder().pointId("tcp#idle").size(64).build();
        try (Buffer region = HostMemory.pageAligned(64);
                Buffer local = HostMemory.pageAligned(64);
                TargetPoint served = tcp.serve(spec, region, target);
                DataPath path = tcp.connect(spec, local, withHost(served.endpoint()), FAST)) {
            assertThatThrownBy(path::awaitOldest).isInstanceOf(IllegalStateException.class);
        }
    }
}
