package dev.linkproof.transfer.control;

import static org.assertj.core.api.Assertions.assertThat;

import dev.linkproof.transfer.TransferException;
import java.io.BufferedInputStream;
import java.io.BufferedOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.function.Predicate;

/**
 * A one-session proxy between an initiator and a real agent: the initiator's frames go through
 * unchanged, the agent's replies too except reply number {@code victim} (0 = WELCOME), whose body
 * {@link JsonMutator} mutates in the fields {@code mutable} accepts. Fuzz tests of the initiator's
 * side of the control protocol connect their session to {@link #port()}.
 */
public final class MutatingProxy implements AutoCloseable {
    private final ServerSocket server;
    private final int agentPort;
    private final int victim;
    private final Predicate<String> mutable;
    private final Random random;
    private final List<Socket> sockets = new ArrayList<>();
    private volatile String mutation = "no mutation (the reply never came)";

    public MutatingProxy(int agentPort, int victim, Predicate<String> mutable, Random random) throws IOException {
        this.server = new ServerSocket(0, 1, InetAddress.getLoopbackAddress());
        this.agentPort = agentPort;
        this.victim = victim;
        this.mutable = mutable;
        this.random = random;
        Thread.ofPlatform().daemon().name("proxy-accept").start(this::serve);
    }

    public int port() {
        return server.getLocalPort();
    }

    /** What was done to which reply, for the failure message. */
    public String mutation() {
        return mutation;
    }

    private void serve() {
        try {
            Socket client = server.accept();
            Socket upstream = new Socket(InetAddress.getLoopbackAddress(), agentPort);
            synchronized (sockets) {
                sockets.add(client);
                sockets.add(upstream);
            }
            Thread.ofPlatform().daemon().name("proxy-up").start(() -> pump(client, upstream, false));
            pump(upstream, client, true);
        } catch (IOException e) {
            // the session ended or never came
        }
    }

    private void pump(Socket from, Socket to, boolean replies) {
        try {
            DataInputStream in = new DataInputStream(new BufferedInputStream(from.getInputStream()));
            DataOutputStream out = new DataOutputStream(new BufferedOutputStream(to.getOutputStream()));
            for (int n = 0; ; n++) {
                Frame f = FrameCodec.read(in);
                if (f == null) {
                    break;
                }
                byte[] body = f.body();
                if (replies && n == victim && f.type() != MessageType.ERROR) {
                    JsonMutator.Mutation m = JsonMutator.mutate(body, random, mutable);
                    mutation = f.type() + " " + m.description();
                    body = m.body();
                }
                FrameCodec.write(out, f.type(), body);
            }
        } catch (IOException | ProtocolException | IllegalArgumentException e) {
            // one side closed; the other notices
        } finally {
            closeQuietly(to);
        }
    }

    private static void closeQuietly(Socket s) {
        try {
            s.close();
        } catch (IOException ignored) {
            // closing
        }
    }

    /** What the initiator does through the proxy: open a session on {@link #port()}, run a point. */
    @FunctionalInterface
    public interface SessionWork {
        void run(int port) throws TransferException;
    }

    /**
     * Runs {@code work} through this proxy and says how it ended: "ok", or "refused" when it
     * failed with a {@link TransferException} whose message names the cause. Anything else — a
     * bare runtime exception, a message that is only a NullPointerException's text — fails the
     * calling test with {@code what} and the mutation, so the case can be replayed.
     */
    public String outcome(String what, SessionWork work) {
        try {
            work.run(port());
            return "ok";
        } catch (TransferException e) {
            assertThat(e.getMessage())
                    .as(what + " with " + mutation)
                    .isNotBlank()
                    .doesNotContain("Cannot invoke", "NullPointerException", "is null");
            return "refused";
        } catch (RuntimeException e) {
            throw new AssertionError(what + " with " + mutation + ": " + e, e);
        }
    }

    @Override
    public void close() throws IOException {
        server.close();
        synchronized (sockets) {
            sockets.forEach(MutatingProxy::closeQuietly);
        }
    }
}
