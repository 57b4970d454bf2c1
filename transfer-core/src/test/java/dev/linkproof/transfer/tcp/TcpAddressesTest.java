package dev.linkproof.transfer.tcp;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

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
import dev.linkproof.transfer.testing.Procs;
import dev.linkproof.transfer.testing.Procs.TcpSocket;
import dev.linkproof.transfer.validate.Checksums;
import dev.linkproof.transfer.validate.SlotPatterns;
import java.net.ConnectException;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * {@code tcp.address} and {@code tcp.source} over loopback, where 127.0.0.2 and 127.0.0.3 are
 * addresses of this host as much as 127.0.0.1 is: the listener and the data connections really use
 * the addresses the settings name, as the kernel's socket table shows, and an address that cannot
 * be used fails the point naming the setting.
 */
@Timeout(30)
class TcpAddressesTest {
    private static final IoSettings FAST = new IoSettings(Duration.ofMillis(500), Duration.ofSeconds(2));
    /** What the agent would pass: the address the initiator reached it on. */
    private static final TargetContext AGENT_ON_127_0_0_1 = new TargetContext("127.0.0.1", IoSettings.DEFAULT);

    private final TcpTransport tcp = new TcpTransport();

    private static TransferSpec spec(Map<String, String> settings) {
        return TransferSpec.builder()
                .pointId("tcp-addresses")
                .transport("tcp")
                .op(Op.WRITE)
                .size(64 << 10)
                .batch(3)
                .connections(3)
                .settings(settings)
                .build();
    }

    /** The endpoint as the session hands it to the transport: the target's, plus the agent's address. */
    private static Map<String, String> reachedOn127001(Map<String, String> endpoint) {
        Map<String, String> e = new HashMap<>(endpoint);
        e.put("peer.host", "127.0.0.1");
        return e;
    }

    @Test
    void theListenerBindsToTcpAddressAndPublishesItAsTcpHost() throws Exception {
        TransferSpec spec = spec(Map.of(TcpSettings.ADDRESS, "127.0.0.2"));
        try (Buffer region = HostMemory.pageAligned(spec.slots().regionBytes());
                TargetPoint served = tcp.serve(spec, region, AGENT_ON_127_0_0_1)) {
            int port = Integer.parseInt(served.endpoint().get("tcp.port"));
            assertThat(served.endpoint()).containsEntry("tcp.host", "127.0.0.2");
            assertThat(Procs.tcpSockets())
                    .as("the kernel's listening sockets")
                    .filteredOn(s ->
                            s.state().equals("LISTEN") && s.local().equals(new InetSocketAddress("127.0.0.2", port)))
                    .hasSize(1);
            // Not on the agent's address any more: nothing answers there.
            assertThatThrownBy(() -> {
                        try (Socket s = new Socket()) {
                            s.connect(new InetSocketAddress("127.0.0.1", port), 2000);
                        }
                    })
                    .isInstanceOf(ConnectException.class);
        }
    }

    @Test
    void theDataConnectionsGoToTcpAddressFromTcpSource() throws Exception {
        TransferSpec spec = spec(Map.of(TcpSettings.ADDRESS, "127.0.0.2", TcpSettings.SOURCE, "127.0.0.3"));
        List<TcpSocket> accepted = runOnePoint(spec);
        assertThat(accepted)
                .as("the target's accepted data connections")
                .hasSize(3)
                .allSatisfy(s -> assertThat(s.remote().getAddress().getHostAddress())
                        .as(s.toString())
                        .isEqualTo("127.0.0.3"));
    }

    /** The check above can fail: without tcp.source the kernel picks the source, 127.0.0.1 on lo. */
    @Test
    void withoutTcpSourceTheKernelPicksTheSource() throws Exception {
        List<TcpSocket> accepted = runOnePoint(spec(Map.of(TcpSettings.ADDRESS, "127.0.0.2")));
        assertThat(accepted)
                .hasSize(3)
                .noneSatisfy(s ->
                        assertThat(s.remote().getAddress().getHostAddress()).isEqualTo("127.0.0.3"));
    }

    /**
     * Serves and connects {@code spec}, moves one validated batch, and returns the target's ends of
     * the data connections as the kernel lists them while they are open.
     */
    private List<TcpSocket> runOnePoint(TransferSpec spec) throws Exception {
        try (Buffer region = HostMemory.pageAligned(spec.slots().regionBytes());
                Buffer local = HostMemory.pageAligned(spec.slots().regionBytes());
                TargetPoint served = tcp.serve(spec, region, AGENT_ON_127_0_0_1)) {
            int port = Integer.parseInt(served.endpoint().get("tcp.port"));
            SlotPatterns.fill(local.segment(), spec, Ranks.INITIATOR, 0);
            try (DataPath path = tcp.connect(spec, local, reachedOn127001(served.endpoint()), FAST)) {
                path.post();
                path.awaitOldest();
                assertThat(Checksums.ofSlots(region.segment(), spec.slots()))
                        .isEqualTo(Checksums.ofSlots(local.segment(), spec.slots()));
                InetSocketAddress listener = new InetSocketAddress("127.0.0.2", port);
                return Procs.tcpSockets().stream()
                        .filter(s ->
                                s.state().equals("ESTABLISHED") && s.local().equals(listener))
                        .toList();
            }
        }
    }

    @Test
    void aTcpAddressThatIsNotThisHostsFailsThePointNamingIt() throws Exception {
        TransferSpec spec = spec(Map.of(TcpSettings.ADDRESS, "10.9.9.9"));
        try (Buffer region = HostMemory.pageAligned(spec.slots().regionBytes())) {
            assertThatThrownBy(() -> tcp.serve(spec, region, AGENT_ON_127_0_0_1))
                    .isInstanceOf(TransferException.class)
                    .hasMessageStartingWith("tcp.address=10.9.9.9: cannot listen: ")
                    .hasMessageContaining("Cannot assign requested address");
            assertThatThrownBy(() -> tcp.serve(
                            spec(Map.of(TcpSettings.ADDRESS, "no-such-host.invalid")), region, AGENT_ON_127_0_0_1))
                    .hasMessage("tcp.address=no-such-host.invalid: cannot listen: unknown host");
        }
    }

    /** A source this host does not have is its own configuration's fault, not the peer's: no peer failure. */
    @Test
    void aTcpSourceThatIsNotThisHostsFailsThePointNamingIt() throws Exception {
        TransferSpec spec = spec(Map.of(TcpSettings.ADDRESS, "127.0.0.2", TcpSettings.SOURCE, "10.9.9.9"));
        try (Buffer region = HostMemory.pageAligned(spec.slots().regionBytes());
                Buffer local = HostMemory.pageAligned(spec.slots().regionBytes());
                TargetPoint served = tcp.serve(spec, region, AGENT_ON_127_0_0_1)) {
            assertThatThrownBy(() -> tcp.connect(spec, local, reachedOn127001(served.endpoint()), FAST))
                    .isInstanceOf(TransferException.class)
                    .isNotInstanceOf(PeerFailureException.class)
                    .hasMessageStartingWith("tcp.source=10.9.9.9: cannot bind the data connections: ")
                    .hasMessageContaining("Cannot assign requested address");
        }
    }

    /** A target that ignored tcp.address (an older agent) would move the point onto another link: refused. */
    @Test
    void aTargetThatDoesNotListenOnTcpAddressIsRefused() throws Exception {
        TransferSpec plain = spec(Map.of());
        TransferSpec pinned = spec(Map.of(TcpSettings.ADDRESS, "127.0.0.2"));
        try (Buffer region = HostMemory.pageAligned(plain.slots().regionBytes());
                Buffer local = HostMemory.pageAligned(plain.slots().regionBytes());
                TargetPoint served = tcp.serve(plain, region, AGENT_ON_127_0_0_1)) {
            assertThatThrownBy(() -> tcp.connect(pinned, local, reachedOn127001(served.endpoint()), FAST))
                    .isInstanceOf(TransferException.class)
                    .hasMessage("tcp.address=127.0.0.2, but the target listens on 127.0.0.1 (it published no tcp.host: "
                            + "an agent that does not know tcp.address?)");
        }
    }
}
