package dev.linkproof.transfer.control;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.linkproof.transfer.Deadline;
import dev.linkproof.transfer.PeerFailureException;
import dev.linkproof.transfer.TransferException;
import dev.linkproof.transfer.session.Session;
import dev.linkproof.transfer.session.Timeouts;
import dev.linkproof.transfer.spi.IoSettings;
import dev.linkproof.transfer.testing.FullBacklog;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** What a user who points the initiator at the wrong place reads: the cause in words, not the JDK's bare message. */
@Timeout(30)
class ConnectFailureTest {
    private static final Timeouts TIMEOUTS =
            new Timeouts(Duration.ofSeconds(5), Duration.ofSeconds(5), IoSettings.DEFAULT);

    private static int closedPort() throws Exception {
        try (ServerSocket s = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            return s.getLocalPort();
        }
    }

    /** It said "within 30000 ms: Connection refused", as if it had waited. */
    @Test
    void nothingListeningIsSaidSo() throws Exception {
        int port = closedPort();
        assertThatThrownBy(() -> ControlChannel.connect("127.0.0.1", port, Duration.ofSeconds(5)))
                .isInstanceOf(PeerFailureException.class)
                .hasMessage("cannot reach the target agent at 127.0.0.1:" + port
                        + ": connection refused: nothing listens on port " + port
                        + " there (is the target agent running, on that port?)")
                .satisfies(e -> assertThat(((PeerFailureException) e).deadline())
                        .as("no deadline ran out")
                        .isEmpty());
    }

    /** It said "within 30000 ms: nohost.invalid": the JDK's message is the bare name. */
    @Test
    void anUnknownHostIsSaidSo() {
        assertThatThrownBy(() -> ControlChannel.connect("nohost.invalid", 7471, Duration.ofSeconds(5)))
                .isInstanceOf(PeerFailureException.class)
                .hasMessage(
                        "cannot reach the target agent at nohost.invalid:7471: unknown host 'nohost.invalid' (the name"
                                + " does not resolve)");
    }

    /** It threw the JDK's IllegalArgumentException "port out of range:99999" from deep in the socket code. */
    @Test
    void aPortOutOfRangeIsNamed() {
        assertThatThrownBy(() -> ControlChannel.connect("localhost", 99999, Duration.ofSeconds(5)))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("port 99999 of localhost is outside 1..65535");
    }

    /**
     * A listener whose accept queue is full drops further connection attempts, as an unroutable host
     * does: the connect waits out its deadline and says what that means.
     */
    @Test
    void noAnswerWithinTheDeadlineIsSaidSo() throws Exception {
        try (FullBacklog full = new FullBacklog()) {
            long start = System.nanoTime();
            assertThatThrownBy(() -> ControlChannel.connect("127.0.0.1", full.port(), Duration.ofMillis(700)))
                    .isInstanceOf(PeerFailureException.class)
                    .hasMessage(
                            "cannot reach the target agent at 127.0.0.1:" + full.port() + ": no answer within 700 ms "
                                    + "(the host is down or unroutable, or a firewall drops the connection)")
                    .satisfies(e ->
                            assertThat(((PeerFailureException) e).deadline()).contains(Deadline.CONTROL));
            assertThat(Duration.ofNanos(System.nanoTime() - start)).isLessThan(Duration.ofSeconds(5));
        }
    }

    /** Something else on the port (here a web server's reply): the magic is shown as the text it is. */
    @Test
    void aTextProtocolOnThePortIsShownAsText() throws Exception {
        try (ServerSocket http = new ServerSocket(0, 5, InetAddress.getLoopbackAddress())) {
            Thread.ofVirtual().start(() -> {
                try (Socket s = http.accept();
                        OutputStream out = s.getOutputStream()) {
                    out.write("HTTP/1.1 400 Bad Request\r\nconnection: close\r\n\r\n"
                            .getBytes(StandardCharsets.US_ASCII));
                    out.flush();
                    s.getInputStream().read(new byte[4096]);
                } catch (Exception ignored) {
                    // the test reads the initiator's side
                }
            });
            assertThatThrownBy(
                            () -> Session.open("127.0.0.1", http.getLocalPort(), "token-token-token-token", TIMEOUTS))
                    .isInstanceOf(TransferException.class)
                    .hasMessageContaining(
                            "bad frame magic 0x48545450, the text \"HTTP\" (expected 0x4c4b5046 \"LKPF\")");
        }
    }
}
