package dev.linkproof.transfer.control;

import dev.linkproof.transfer.PeerFailureException;
import dev.linkproof.transfer.TransferException;
import java.io.BufferedInputStream;
import java.io.BufferedOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.time.Duration;

/**
 * The initiator's end of the control connection: one request, one reply, each bounded by a
 * deadline. An ERROR reply becomes a {@link RemoteErrorException}; a closed or silent peer a
 * {@link PeerFailureException}.
 */
public final class ControlChannel implements AutoCloseable {
    private final Socket socket;
    private final DataInputStream in;
    private final DataOutputStream out;
    private final String peer;
    private volatile boolean broken;

    private ControlChannel(Socket socket, String peer) throws IOException {
        this.socket = socket;
        this.peer = peer;
        this.in = new DataInputStream(new BufferedInputStream(socket.getInputStream()));
        this.out = new DataOutputStream(new BufferedOutputStream(socket.getOutputStream()));
    }

    public static ControlChannel connect(String host, int port, Duration timeout) throws PeerFailureException {
        Socket s = new Socket();
        try {
            s.setTcpNoDelay(true);
            s.connect(new InetSocketAddress(host, port), (int) timeout.toMillis());
            return new ControlChannel(s, host + ":" + port);
        } catch (IOException e) {
            try {
                s.close();
            } catch (IOException ignored) {
                // never connected
            }
            throw new PeerFailureException("cannot reach the target agent at " + host + ":" + port + " within "
                    + timeout.toMillis() + " ms: " + e.getMessage(), e);
        }
    }

    public String peer() {
        return peer;
    }

    public boolean broken() {
        return broken;
    }

    /** Sends {@code request} and waits up to {@code timeout} for a reply of {@code replyType}. */
    public synchronized <T> T call(MessageType type, Object request, MessageType replyType, Class<T> replyClass,
                                   Duration timeout) throws TransferException {
        if (broken) {
            throw new PeerFailureException("control connection to " + peer + " is closed");
        }
        try {
            socket.setSoTimeout((int) Math.max(1, timeout.toMillis()));
            FrameCodec.write(out, type, Messages.encode(request));
            Frame reply = FrameCodec.read(in);
            if (reply == null) {
                broken = true;
                throw new PeerFailureException("the target agent at " + peer + " closed the control connection while "
                        + "answering " + type + " (did it die?)");
            }
            if (reply.type() == MessageType.ERROR) {
                Messages.Error e = Messages.decode(reply, Messages.Error.class);
                throw new RemoteErrorException(e.code(), "the target agent refused " + type + ": " + e.message());
            }
            if (reply.type() != replyType) {
                broken = true;
                throw new TransferException("the target agent answered " + type + " with " + reply.type()
                        + " (expected " + replyType + ")");
            }
            return Messages.decode(reply, replyClass);
        } catch (SocketTimeoutException e) {
            broken = true;
            throw new PeerFailureException("the target agent at " + peer + " did not answer " + type + " within "
                    + timeout.toMillis() + " ms", e);
        } catch (IOException e) {
            broken = true;
            throw new PeerFailureException("control connection to " + peer + " failed during " + type + ": "
                    + e.getMessage() + " (did the target agent die?)", e);
        } catch (ProtocolException e) {
            broken = true;
            throw new TransferException("the target agent at " + peer + " broke the protocol: " + e.getMessage(), e);
        }
    }

    /** Writes raw bytes on the control connection: for tests that inject malformed frames. */
    public synchronized void writeRaw(byte[] bytes) throws IOException {
        out.write(bytes);
        out.flush();
    }

    /** Reads one reply frame: for tests that inject malformed frames. */
    public synchronized Frame readRaw(Duration timeout) throws IOException, ProtocolException {
        socket.setSoTimeout((int) Math.max(1, timeout.toMillis()));
        return FrameCodec.read(in);
    }

    @Override
    public void close() {
        broken = true;
        try {
            socket.close();
        } catch (IOException ignored) {
            // closing
        }
    }
}
