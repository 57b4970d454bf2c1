package dev.linkproof.transfer.session;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.linkproof.transfer.PeerFailureException;
import dev.linkproof.transfer.TransferException;
import dev.linkproof.transfer.control.ControlChannel;
import dev.linkproof.transfer.control.MessageType;
import dev.linkproof.transfer.spi.DataPath;
import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.time.Duration;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * The watch on the control connection while a data path runs: it sees an agent that closes the
 * connection (as a killed one's kernel does), says nothing while the agent is merely quiet, and
 * the watched data path stops at its next batch once it has seen the agent go.
 */
@Timeout(30)
@SuppressWarnings("try") // the tests close the agent's socket inside the try, to see what the watch notices
class ControlWatchTest {
    /** A control connection on loopback: this side's channel and the agent's end of it, closed together. */
    private record Link(ServerSocket server, ControlChannel control, Socket agent) implements AutoCloseable {
        static Link open() throws Exception {
            ServerSocket server = new ServerSocket(0, 1, InetAddress.getLoopbackAddress());
            ControlChannel control = null;
            try {
                control = ControlChannel.connect("127.0.0.1", server.getLocalPort(), Duration.ofSeconds(5));
                return new Link(server, control, server.accept());
            } catch (Exception e) {
                if (control != null) {
                    control.close();
                }
                server.close();
                throw e;
            }
        }

        @Override
        public void close() throws IOException {
            try (server;
                    control;
                    agent) {
                // try-with-resources closes all three, the agent's end first, whatever one of them throws
            }
        }
    }

    @Test
    void quietAgentIsNotGoneAndAClosedOneIs() throws Exception {
        try (Link link = Link.open();
                ControlWatch watch = ControlWatch.start(link.control())) {
            Thread.sleep(3 * ControlWatch.INTERVAL_NANOS / 1_000_000);
            assertThat(watch.goneBecause()).as("a quiet agent").isNull();
            assertThat(link.control().broken()).isFalse();

            link.agent().close();
            long t0 = System.nanoTime();
            assertThat(watch.goneWithin(5_000_000_000L))
                    .as("an agent that closed the connection")
                    .contains("closed the control connection")
                    .contains("did the target agent die?");
            assertThat((System.nanoTime() - t0) / 1e6).as("ms to notice").isLessThan(1000);
            assertThat(link.control().broken()).isTrue();
            // The requests that come after say why, too.
            assertThatThrownBy(() -> link.control()
                            .call(
                                    MessageType.CHECKSUM,
                                    java.util.Map.of(),
                                    MessageType.CHECKSUMS,
                                    Object.class,
                                    Duration.ofSeconds(1)))
                    .isInstanceOf(PeerFailureException.class)
                    .hasMessageContaining("closed the control connection");
        }
    }

    @Test
    void aByteThatArrivesIsLeftForTheNextRead() throws Exception {
        try (Link link = Link.open()) {
            link.agent().getOutputStream().write(new byte[] {'L', 'K'});
            link.agent().getOutputStream().flush();
            Thread.sleep(50);
            assertThat(link.control().peerGone()).isNull();
            assertThat(link.control().peerGone()).isNull();
            link.agent().close();
            // The two bytes are still there (a truncated frame), then the end of the stream.
            assertThatThrownBy(() -> link.control().readRaw(Duration.ofSeconds(1)))
                    .isInstanceOfAny(IOException.class, dev.linkproof.transfer.control.ProtocolException.class);
        }
    }

    @Test
    void theWatchedPathStopsAtTheNextBatchOnceTheAgentIsGone() throws Exception {
        AtomicInteger posts = new AtomicInteger();
        DataPath counting = new DataPath() {
            @Override
            public void post() {
                posts.incrementAndGet();
            }

            @Override
            public void awaitOldest() {}

            @Override
            public void close() {}
        };
        try (Link link = Link.open();
                ControlWatch watch = ControlWatch.start(link.control());
                DataPath path = new WatchedDataPath(counting, watch)) {
            path.post();
            path.awaitOldest();
            link.agent().close();
            long t0 = System.nanoTime();
            assertThatThrownBy(() -> {
                        while (System.nanoTime() - t0 < 5_000_000_000L) {
                            path.post();
                            path.awaitOldest();
                        }
                    })
                    .isInstanceOf(PeerFailureException.class)
                    .hasMessageContaining("the data transfer stopped")
                    .hasMessageContaining("did the target agent die?");
            int before = posts.get();
            assertThatThrownBy(path::post).isInstanceOf(PeerFailureException.class);
            assertThat(posts.get())
                    .as("nothing posted once the agent is known gone")
                    .isEqualTo(before);
        }
    }

    /** A transfer error the transport could not tell from a local one is a peer failure once the agent is found gone, not before. */
    @Test
    void aTransferErrorIsAPeerFailureOnlyWhenTheAgentIsGone() throws Exception {
        DataPath failing = new DataPath() {
            @Override
            public void post() {}

            @Override
            public void awaitOldest() throws TransferException {
                throw new TransferException("an operation completed in error: Operation canceled (125)");
            }

            @Override
            public void close() {}
        };
        try (Link link = Link.open();
                ControlWatch watch = ControlWatch.start(link.control())) {
            WatchedDataPath path = new WatchedDataPath(failing, watch);
            assertThatThrownBy(path::awaitOldest)
                    .as("the agent is still there")
                    .isExactlyInstanceOf(TransferException.class)
                    .hasMessage("an operation completed in error: Operation canceled (125)");

            link.agent().close();
            assertThatThrownBy(path::awaitOldest)
                    .isInstanceOf(PeerFailureException.class)
                    .hasMessageStartingWith("an operation completed in error: Operation canceled (125); the target "
                            + "agent is gone: ")
                    .hasMessageContaining("closed the control connection")
                    .hasCauseExactlyInstanceOf(TransferException.class);
        }
    }
}
