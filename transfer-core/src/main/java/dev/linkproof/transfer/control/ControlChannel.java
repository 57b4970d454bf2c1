package dev.linkproof.transfer.control;

import dev.linkproof.transfer.Deadline;
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
 * {@link PeerFailureException}, which names {@link Deadline#CONTROL} when the deadline ran out.
 */
public final class ControlChannel implements AutoCloseable {
    private final Socket socket;
    private final DataInputStream in;
    private final DataOutputStream out;
    private final String peer;
    private volatile boolean broken;
    /** Why {@link #peerGone()} found the connection gone, for the requests that come after. */
    private volatile String goneBecause;
    /** A request sent by {@link #callLater}, whose reply is read before anything else is sent or read. */
    private Later later;

    /** What {@link #callLater} sent: {@code what} names it in a failure ("RELEASE of point …"). */
    private record Later(MessageType replyType, Class<?> replyClass, Duration timeout, String what) {}

    private ControlChannel(Socket socket, String peer) throws IOException {
        this.socket = socket;
        this.peer = peer;
        this.in = new DataInputStream(new BufferedInputStream(socket.getInputStream()));
        this.out = new DataOutputStream(new BufferedOutputStream(socket.getOutputStream()));
    }

    /**
     * Connects within {@code timeout}. What went wrong is said in words: an unknown host, a port with
     * nothing listening, or no answer within the deadline (a host that is down or unroutable, or a
     * firewall that drops the connection; that failure names {@link Deadline#CONTROL}).
     *
     * @throws IllegalArgumentException for a port outside 1..65535
     */
    public static ControlChannel connect(String host, int port, Duration timeout) throws PeerFailureException {
        return connect(host, port, timeout, "the target agent");
    }

    /** As {@link #connect(String, int, Duration)}, naming what was dialled ({@code what}: "the coordinator's registry"). */
    public static ControlChannel connect(String host, int port, Duration timeout, String what)
            throws PeerFailureException {
        if (port < 1 || port > 65535) {
            throw new IllegalArgumentException("port " + port + " of " + host + " is outside 1..65535");
        }
        InetSocketAddress address = new InetSocketAddress(host, port);
        if (address.isUnresolved()) {
            throw new PeerFailureException("cannot reach " + what + " at " + host + ":" + port + ": unknown host '"
                    + host + "' (the name does not resolve)");
        }
        Socket s = new Socket();
        try {
            s.setTcpNoDelay(true);
            s.connect(address, (int) timeout.toMillis());
            return new ControlChannel(s, host + ":" + port);
        } catch (IOException e) {
            try {
                s.close();
            } catch (IOException ignored) {
                // never connected
            }
            String why = switch (e) {
                case java.net.UnknownHostException u -> "unknown host '" + host + "' (the name does not resolve)";
                case java.net.ConnectException c
                when "Connection refused".equals(c.getMessage()) ->
                    "connection refused: nothing listens on port " + port + " there (is " + what
                            + " running, on that port?)";
                case SocketTimeoutException t ->
                    "no answer within " + timeout.toMillis() + " ms (the host is down or "
                            + "unroutable, or a firewall drops the connection)";
                default -> e.getMessage();
            };
            PeerFailureException failure =
                    new PeerFailureException("cannot reach " + what + " at " + host + ":" + port + ": " + why, e);
            throw e instanceof SocketTimeoutException ? failure.expired(Deadline.CONTROL) : failure;
        }
    }

    /** This side's address on the connection: the one the agent could reach this host at (its route back). */
    public String localAddress() {
        return socket.getLocalAddress().getHostAddress();
    }

    public String peer() {
        return peer;
    }

    public boolean broken() {
        return broken;
    }

    /** Sends {@code request} and waits up to {@code timeout} for a reply of {@code replyType}. */
    public <T> T call(MessageType type, Object request, MessageType replyType, Class<T> replyClass, Duration timeout)
            throws TransferException {
        return call(type, request, replyType, replyClass, timeout, Duration.ZERO, "");
    }

    /**
     * As {@link #call(MessageType, Object, MessageType, Class, Duration)}, for a request the agent
     * spends up to {@code agentWait} on before it answers ({@code waiting}, e.g. "waiting for its
     * receive completions"): waits {@code timeout} more, and a reply that does not come says so.
     */
    public synchronized <T> T call(
            MessageType type,
            Object request,
            MessageType replyType,
            Class<T> replyClass,
            Duration timeout,
            Duration agentWait,
            String waiting)
            throws TransferException {
        send(type, request);
        return receive(
                type.toString(),
                replyType,
                replyClass,
                timeout.plus(agentWait),
                agentWait.isZero()
                        ? ""
                        : " (" + agentWait.toMillis() + " ms " + waiting + ", then " + timeout.toMillis()
                                + " ms to answer)");
    }

    /**
     * Sends a request whose reply nobody waits for now: it is read, and checked as {@link #call} checks
     * one, before the next request is sent or a frame read (its failure, if any, is that request's,
     * naming {@code what}). For a request whose answer carries nothing the caller needs, so the peer's
     * work on it overlaps the caller's next steps instead of delaying them: the session's RELEASE of a
     * short point, whose RELEASED carries no host load (the agent's window was too short for one).
     */
    public synchronized void callLater(
            MessageType type, Object request, MessageType replyType, Class<?> replyClass, Duration timeout, String what)
            throws TransferException {
        send(type, request);
        later = new Later(replyType, replyClass, timeout, what);
    }

    /** Writes a request, once the reply still owed to {@link #callLater} is read, on a connection still whole. */
    private void send(MessageType type, Object request) throws TransferException {
        settle();
        if (broken) {
            String why = goneBecause;
            throw new PeerFailureException(why != null ? why : "control connection to " + peer + " is closed");
        }
        try {
            FrameCodec.write(out, type, Messages.encode(request));
        } catch (IOException e) {
            broken = true;
            throw failedDuring(type.toString(), e);
        }
    }

    /** Reads and checks the reply to what {@link #callLater} sent, if any. */
    private void settle() throws TransferException {
        Later l = later;
        if (l == null) {
            return;
        }
        later = null;
        if (broken) {
            return; // the request after says why
        }
        receive(l.what(), l.replyType(), l.replyClass(), l.timeout(), ""); // nobody needs its content
    }

    /**
     * Reads the reply to {@code what} within {@code total} and checks it: an ERROR is the agent's
     * refusal, another type than {@code replyType} or a malformed frame breaks the connection, and so
     * do its end, its failure and the deadline ({@code waited}: how the deadline was spent, for its message).
     */
    private <T> T receive(String what, MessageType replyType, Class<T> replyClass, Duration total, String waited)
            throws TransferException {
        try {
            socket.setSoTimeout((int) Math.max(1, total.toMillis()));
            Frame reply = FrameCodec.read(in);
            if (reply == null) {
                broken = true;
                throw new PeerFailureException("the target agent at " + peer + " closed the control connection while "
                        + "answering " + what + " (did it die?)");
            }
            if (reply.type() == MessageType.ERROR) {
                Messages.Error e = Messages.decode(reply, Messages.Error.class);
                throw new RemoteErrorException(e.code(), "the target agent refused " + what + ": " + e.message());
            }
            if (reply.type() != replyType) {
                broken = true;
                throw new TransferException("the target agent answered " + what + " with " + reply.type()
                        + " (expected " + replyType + ")");
            }
            return Messages.decode(reply, replyClass);
        } catch (SocketTimeoutException e) {
            broken = true;
            throw new PeerFailureException(
                            "the target agent at " + peer + " did not answer " + what + " within " + total.toMillis()
                                    + " ms" + waited,
                            e)
                    .expired(Deadline.CONTROL);
        } catch (IOException e) {
            broken = true;
            throw failedDuring(what, e);
        } catch (ProtocolException e) {
            broken = true;
            throw new TransferException("the target agent at " + peer + " broke the protocol: " + e.getMessage(), e);
        }
    }

    private PeerFailureException failedDuring(String what, IOException e) {
        return new PeerFailureException(
                "control connection to " + peer + " failed during " + what + ": " + e.getMessage()
                        + " (did the target agent die?)",
                e);
    }

    /**
     * Whether the agent has closed (or reset) the connection, judged between requests without
     * consuming anything: a read of at most {@link #PEEK_MILLIS} ms whose byte, if one came, is put
     * back for the next call. Returns why the agent is gone, or null while the connection is open.
     * The session's watch calls this while a data path runs and the connection is otherwise idle.
     */
    public synchronized String peerGone() {
        if (broken) {
            String why = goneBecause;
            return why != null ? why : "the control connection to the target agent at " + peer + " is closed";
        }
        try {
            socket.setSoTimeout(PEEK_MILLIS);
            in.mark(1);
            if (in.read() < 0) {
                goneBecause =
                        "the target agent at " + peer + " closed the control connection (did the target agent die?)";
                broken = true;
                return goneBecause;
            }
            // An unsolicited byte: not this method's to judge; the next call reads it as a frame.
            in.reset();
            return null;
        } catch (SocketTimeoutException e) {
            return null;
        } catch (IOException e) {
            goneBecause = "the control connection to the target agent at " + peer + " failed: " + e.getMessage()
                    + " (did the target agent die?)";
            broken = true;
            return goneBecause;
        }
    }

    /** How long {@link #peerGone()} waits for a byte or an end of stream. */
    static final int PEEK_MILLIS = 1;

    /**
     * Writes raw bytes on the control connection: for tests that inject malformed frames. A reply still
     * owed to {@link #callLater} is read first; one that fails is an {@link IOException} here.
     */
    public synchronized void writeRaw(byte[] bytes) throws IOException {
        settleRaw();
        out.write(bytes);
        out.flush();
    }

    /** Reads one reply frame: for tests that inject malformed frames. As {@link #writeRaw}, after a reply still owed. */
    public synchronized Frame readRaw(Duration timeout) throws IOException, ProtocolException {
        settleRaw();
        socket.setSoTimeout((int) Math.max(1, timeout.toMillis()));
        return FrameCodec.read(in);
    }

    private void settleRaw() throws IOException {
        try {
            settle();
        } catch (TransferException e) {
            throw new IOException(e.getMessage(), e);
        }
    }

    /**
     * Writes the session's last frame (BYE) and closes, without reading a reply still owed to
     * {@link #callLater}: the session is over, and a silent agent must not hold its close up.
     */
    public synchronized void closeWith(byte[] lastFrame) {
        later = null;
        if (!broken) {
            try {
                out.write(lastFrame);
                out.flush();
            } catch (IOException ignored) {
                // the agent is gone already
            }
        }
        close();
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
