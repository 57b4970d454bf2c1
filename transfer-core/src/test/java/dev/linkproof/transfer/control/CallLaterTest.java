package dev.linkproof.transfer.control;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import dev.linkproof.transfer.Deadline;
import dev.linkproof.transfer.PeerFailureException;
import java.io.BufferedInputStream;
import java.io.BufferedOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.Function;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * A request sent with {@link ControlChannel#callLater}: its reply is read, and checked as a call's,
 * before the next request; a refusal or a silent agent fails that next request naming the one sent
 * later, and closing the channel does not wait for the reply.
 */
@Timeout(30)
class CallLaterTest {
    private static final Duration T = Duration.ofSeconds(5);
    private ServerSocket server;
    private final List<Socket> held = new CopyOnWriteArrayList<>();
    /** Frames the fake agent read, in order. */
    private final List<MessageType> received = new CopyOnWriteArrayList<>();

    /** A fake agent that answers each request with what {@code answer} gives (null: no answer). */
    private int agent(Function<Frame, byte[]> answer) throws Exception {
        server = new ServerSocket(0, 5, InetAddress.getLoopbackAddress());
        Thread.ofVirtual().start(() -> {
            try (Socket s = server.accept()) {
                held.add(s);
                DataInputStream in = new DataInputStream(new BufferedInputStream(s.getInputStream()));
                DataOutputStream out = new DataOutputStream(new BufferedOutputStream(s.getOutputStream()));
                Frame f;
                while ((f = FrameCodec.read(in)) != null) {
                    received.add(f.type());
                    byte[] reply = answer.apply(f);
                    if (reply != null) {
                        out.write(reply);
                        out.flush();
                    }
                }
            } catch (Exception closed) {
                // the test is over
            }
        });
        return server.getLocalPort();
    }

    private static byte[] frame(MessageType type, Object body) {
        var bytes = new java.io.ByteArrayOutputStream();
        try (var out = new DataOutputStream(bytes)) {
            FrameCodec.write(out, type, Messages.encode(body));
        } catch (java.io.IOException e) {
            throw new IllegalStateException(e);
        }
        return bytes.toByteArray();
    }

    @AfterEach
    void close() throws Exception {
        if (server != null) {
            server.close();
        }
        for (Socket s : held) {
            s.close();
        }
    }

    @Test
    void theReplyIsReadBeforeTheNextRequestAndEachCallGetsItsOwn() throws Exception {
        int port = agent(f -> switch (f.type()) {
            case RELEASE -> frame(MessageType.RELEASED, new Messages.Released("p"));
            case PING -> frame(MessageType.PONG, new Messages.Pong(7));
            default -> null;
        });
        try (ControlChannel c = ControlChannel.connect("127.0.0.1", port, T)) {
            c.callLater(
                    MessageType.RELEASE,
                    new Messages.Release("p"),
                    MessageType.RELEASED,
                    Messages.Released.class,
                    T,
                    "RELEASE of point p");
            assertThat(c.call(MessageType.PING, new Messages.Ping(7), MessageType.PONG, Messages.Pong.class, T)
                            .nonce())
                    .isEqualTo(7);
            assertThat(received).containsExactly(MessageType.RELEASE, MessageType.PING);
            assertThat(c.broken()).isFalse();
        }
    }

    @Test
    void aRefusalFailsTheNextRequestNamingTheOneSentLaterAndTheChannelGoesOn() throws Exception {
        int port = agent(f -> switch (f.type()) {
            case RELEASE -> frame(MessageType.ERROR, new Messages.Error("unknown-point", "no point 'p' is prepared"));
            case PING -> frame(MessageType.PONG, new Messages.Pong(1));
            default -> null;
        });
        try (ControlChannel c = ControlChannel.connect("127.0.0.1", port, T)) {
            c.callLater(
                    MessageType.RELEASE,
                    new Messages.Release("p"),
                    MessageType.RELEASED,
                    Messages.Released.class,
                    T,
                    "RELEASE of point p");
            RemoteErrorException e = catchThrowableOfType(
                    RemoteErrorException.class,
                    () -> c.call(MessageType.PING, new Messages.Ping(1), MessageType.PONG, Messages.Pong.class, T));
            assertThat(e).hasMessage("the target agent refused RELEASE of point p: no point 'p' is prepared");
            assertThat(e.code()).isEqualTo("unknown-point");
            assertThat(received).as("the failed request was not sent").containsExactly(MessageType.RELEASE);
            assertThat(c.call(MessageType.PING, new Messages.Ping(1), MessageType.PONG, Messages.Pong.class, T)
                            .nonce())
                    .isEqualTo(1);
        }
    }

    @Test
    void aMalformedReplyBreaksTheChannelAsACallsWould() throws Exception {
        int port = agent(f -> f.type() == MessageType.RELEASE
                ? frame(MessageType.RELEASED, java.util.Map.of("pointId", 5, "x", 1))
                : null);
        try (ControlChannel c = ControlChannel.connect("127.0.0.1", port, T)) {
            c.callLater(
                    MessageType.RELEASE,
                    new Messages.Release("p"),
                    MessageType.RELEASED,
                    Messages.Released.class,
                    T,
                    "RELEASE of point p");
            dev.linkproof.transfer.TransferException e = catchThrowableOfType(
                    dev.linkproof.transfer.TransferException.class,
                    () -> c.call(MessageType.PING, new Messages.Ping(1), MessageType.PONG, Messages.Pong.class, T));
            assertThat(e.getMessage()).contains("broke the protocol").contains("malformed RELEASED body");
            assertThat(c.broken()).isTrue();
        }
    }

    @Test
    void aSilentAgentFailsTheNextRequestOnTheControlDeadlineAndCloseDoesNotWait() throws Exception {
        int port = agent(f -> null);
        try (ControlChannel c = ControlChannel.connect("127.0.0.1", port, T)) {
            long t0 = System.nanoTime();
            c.callLater(
                    MessageType.RELEASE,
                    new Messages.Release("p"),
                    MessageType.RELEASED,
                    Messages.Released.class,
                    Duration.ofMillis(300),
                    "RELEASE of point p");
            assertThat((System.nanoTime() - t0) / 1e6).as("ms in callLater").isLessThan(250);
            PeerFailureException e = catchThrowableOfType(
                    PeerFailureException.class,
                    () -> c.call(MessageType.PING, new Messages.Ping(1), MessageType.PONG, Messages.Pong.class, T));
            assertThat(e)
                    .hasMessage("the target agent at 127.0.0.1:" + port
                            + " did not answer RELEASE of point p within 300 ms");
            assertThat(e.deadline()).contains(Deadline.CONTROL);
        }
        try (ControlChannel c = ControlChannel.connect("127.0.0.1", agentAgain(), T)) {
            c.callLater(
                    MessageType.RELEASE,
                    new Messages.Release("p"),
                    MessageType.RELEASED,
                    Messages.Released.class,
                    T,
                    "RELEASE of point p");
            long t0 = System.nanoTime();
            c.closeWith(frame(MessageType.BYE, new Messages.Bye("done")));
            assertThat((System.nanoTime() - t0) / 1e6).as("ms to close").isLessThan(T.toMillis() / 2);
            assertThat(c.broken()).isTrue();
        }
    }

    /** A second silent agent, for a second connection. */
    private int agentAgain() throws Exception {
        close();
        held.clear();
        return agent(f -> null);
    }
}
