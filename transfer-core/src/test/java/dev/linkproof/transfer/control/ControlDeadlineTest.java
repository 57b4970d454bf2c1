package dev.linkproof.transfer.control;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import dev.linkproof.transfer.Deadline;
import dev.linkproof.transfer.PeerFailureException;
import dev.linkproof.transfer.TransferException;
import dev.linkproof.transfer.session.Session;
import dev.linkproof.transfer.session.Timeouts;
import dev.linkproof.transfer.spi.IoSettings;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * An agent that accepts the connection and never answers: a request waits out the control deadline,
 * and the failure names {@link Deadline#CONTROL}, so whoever set it can say which setting ran out.
 */
@Timeout(30)
class ControlDeadlineTest {
    private ServerSocket silent;
    private final List<Socket> held = new CopyOnWriteArrayList<>();

    @BeforeEach
    void listen() throws Exception {
        silent = new ServerSocket(0, 5, InetAddress.getLoopbackAddress());
        Thread.ofVirtual().start(() -> {
            try {
                while (true) {
                    held.add(silent.accept());
                }
            } catch (java.io.IOException closed) {
                // the test is over
            }
        });
    }

    @AfterEach
    void close() throws Exception {
        silent.close();
        for (Socket s : held) {
            s.close();
        }
    }

    @Test
    void aRequestWithoutAnAnswerNamesTheControlDeadline() {
        Timeouts t = new Timeouts(Duration.ofSeconds(5), Duration.ofMillis(400), IoSettings.DEFAULT);
        PeerFailureException e = catchThrowableOfType(
                PeerFailureException.class,
                () -> Session.open("127.0.0.1", silent.getLocalPort(), "token-token-token-token", t));
        assertThat(e)
                .hasMessage("the target agent at 127.0.0.1:" + silent.getLocalPort()
                        + " did not answer HELLO within 400 ms");
        assertThat(e.deadline()).contains(Deadline.CONTROL);
    }

    /**
     * CHECKSUM's reply may come the agent's progress wait late: the message says what the time was
     * for, and the deadline that ran out is still the control one (the agent had its wait).
     */
    @Test
    void aRequestTheAgentWaitsOnFirstSaysWhatTheTimeWasFor() throws Exception {
        try (ControlChannel c = ControlChannel.connect("127.0.0.1", silent.getLocalPort(), Duration.ofSeconds(5))) {
            PeerFailureException e = catchThrowableOfType(
                    PeerFailureException.class,
                    () -> c.call(
                            MessageType.CHECKSUM,
                            new Messages.Checksum("p", 1),
                            MessageType.CHECKSUMS,
                            Messages.Checksums.class,
                            Duration.ofMillis(300),
                            Duration.ofMillis(200),
                            "waiting for its receive completions"));
            assertThat(e)
                    .hasMessage("the target agent at 127.0.0.1:" + silent.getLocalPort() + " did not answer CHECKSUM "
                            + "within 500 ms (200 ms waiting for its receive completions, then 300 ms to answer)");
            assertThat(e.deadline()).contains(Deadline.CONTROL);
            // The connection is given up: the next request fails at once, and did not wait out a deadline.
            TransferException next = catchThrowableOfType(
                    TransferException.class,
                    () -> c.call(
                            MessageType.PING,
                            new Messages.Ping(1),
                            MessageType.PONG,
                            Messages.Pong.class,
                            Duration.ofSeconds(5)));
            assertThat(next.deadline()).isEmpty();
        }
    }

    @Test
    void theDeadlineIsFoundThroughAFailureThatRepeatsIt() {
        PeerFailureException first = new PeerFailureException("silent").expired(Deadline.CONTROL);
        TransferException repeated = new TransferException("not retried for every point: silent", first);
        assertThat(repeated.deadline()).isEmpty();
        assertThat(Deadline.thatExpired(repeated)).contains(Deadline.CONTROL);
        assertThat(Deadline.thatExpired(new TransferException("refused", new RuntimeException("x"))))
                .isEmpty();
    }
}
