package dev.linkproof.transfer.agent;

import dev.linkproof.transfer.spi.IoSettings;
import dev.linkproof.transfer.spi.Transports;
import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.SocketException;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.logging.Level;
import java.util.logging.Logger;
import jdk.net.ExtendedSocketOptions;

/**
 * The target rank: accepts control connections, each served on its own thread by an
 * {@link AgentConnection}. A connection that breaks the protocol is answered and, if it cannot be
 * reframed, closed; the server itself keeps accepting.
 */
public final class AgentServer implements AutoCloseable {
    private static final Logger LOG = Logger.getLogger(AgentServer.class.getName());

    private final ServerSocket server;
    private final String token;
    private final Transports transports;
    private final IoSettings io;
    /** Each session being served, with the thread serving it. */
    private final Map<AgentConnection, Thread> live = new ConcurrentHashMap<>();

    private final Thread acceptor;
    private volatile boolean closed;

    private AgentServer(ServerSocket server, String token, Transports transports, IoSettings io) {
        this.server = server;
        this.token = token;
        this.transports = transports;
        this.io = io;
        this.acceptor = Thread.ofPlatform().name("agent-accept").unstarted(this::acceptLoop);
    }

    /** The shortest session token an agent accepts. */
    public static final int MIN_TOKEN_LENGTH = 16;

    /** Binds and starts accepting, on the transports of this process's class path. Port 0 picks a free port. */
    public static AgentServer start(String bindHost, int port, String token, IoSettings io) throws IOException {
        return start(bindHost, port, token, io, Transports.discover());
    }

    /**
     * Binds and starts accepting, serving and driving points on {@code transports}: those a run in this
     * process discovered already (an engine's or the CLI's agent for the way back).
     */
    public static AgentServer start(String bindHost, int port, String token, IoSettings io, Transports transports)
            throws IOException {
        if (token == null || token.length() < MIN_TOKEN_LENGTH) {
            throw new IllegalArgumentException(
                    "the session token must have at least " + MIN_TOKEN_LENGTH + " characters");
        }
        ServerSocket s = new ServerSocket();
        try {
            s.setReuseAddress(true);
            s.bind(new InetSocketAddress(InetAddress.getByName(bindHost), port), 16);
        } catch (IOException | RuntimeException e) {
            s.close();
            throw e;
        }
        AgentServer agent = new AgentServer(s, token, transports, io);
        agent.acceptor.start();
        return agent;
    }

    public int port() {
        return server.getLocalPort();
    }

    public String host() {
        return server.getInetAddress().getHostAddress();
    }

    private void acceptLoop() {
        while (!closed) {
            Socket s;
            try {
                s = server.accept();
            } catch (SocketException e) {
                if (!closed) {
                    LOG.log(Level.WARNING, "agent listener failed", e);
                }
                return;
            } catch (IOException e) {
                LOG.log(Level.WARNING, "accept failed", e);
                continue;
            }
            try {
                s.setTcpNoDelay(true);
                keepAlive(s);
            } catch (IOException e) {
                // reset as soon as accepted: that connection is over, the listener is not
                LOG.log(Level.FINE, "a control connection failed as it was accepted", e);
                try {
                    s.close();
                } catch (IOException ignored) {
                    // closing
                }
                continue;
            }
            AgentConnection c = new AgentConnection(s, token, transports, io, live::remove);
            Thread serving =
                    Thread.ofPlatform().name("agent-control-" + s.getPort()).unstarted(c);
            live.put(c, serving);
            serving.start();
            if (closed) {
                c.close(); // accepted while close() went through the sessions
            }
        }
    }

    /** How long a control connection may be silent before the kernel starts probing its peer. */
    static final int KEEPALIVE_IDLE_SECONDS = 10;
    /** Between unanswered probes, and how many end the connection: a vanished peer is noticed within ~19 s. */
    static final int KEEPALIVE_INTERVAL_SECONDS = 3;

    static final int KEEPALIVE_PROBES = 3;
    /**
     * Whether this runtime has {@code jdk.net}, where the keepalive timing options live: a jlinked
     * runtime may leave it out, and touching its classes there would throw NoClassDefFoundError on the
     * listener's thread and end it.
     */
    private static final boolean EXTENDED_SOCKET_OPTIONS =
            ModuleLayer.boot().findModule("jdk.net").isPresent();

    /**
     * An initiator whose host vanished (powered off, unplugged, partitioned) sends no FIN or RST, and
     * a session may legitimately be silent between points for any time, so a read deadline cannot
     * tell: TCP keepalive probes can. When they go unanswered the control read fails and the session
     * releases its points, as when the connection is closed.
     */
    private static void keepAlive(Socket s) throws IOException {
        s.setKeepAlive(true);
        if (!EXTENDED_SOCKET_OPTIONS) {
            return; // a runtime linked without jdk.net: the system's keepalive timing
        }
        try {
            s.setOption(ExtendedSocketOptions.TCP_KEEPIDLE, KEEPALIVE_IDLE_SECONDS);
            s.setOption(ExtendedSocketOptions.TCP_KEEPINTERVAL, KEEPALIVE_INTERVAL_SECONDS);
            s.setOption(ExtendedSocketOptions.TCP_KEEPCOUNT, KEEPALIVE_PROBES);
        } catch (UnsupportedOperationException e) {
            // the system's keepalive timing (hours by default) is all there is on this platform
        }
    }

    /** Blocks until the server is closed. */
    public void awaitClose() throws InterruptedException {
        acceptor.join();
    }

    /** How many sessions are being served now. */
    public int sessions() {
        return live.size();
    }

    /**
     * Stops listening and ends every session: its control connection is closed, and its thread
     * releases what the session holds (each point's transport resources and memory) as it ends.
     */
    @Override
    public void close() {
        closed = true;
        try {
            server.close();
        } catch (IOException ignored) {
            // closing
        }
        for (AgentConnection c : live.keySet()) {
            c.close();
        }
    }

    /**
     * Waits, at most {@code max}, for every session's thread to end after {@link #close()}: each
     * has released its points by then. Returns how many are still running (stuck in a transport
     * call that ignores the closed connection; the process's exit frees what they hold).
     */
    public int awaitSessionsEnded(Duration max) throws InterruptedException {
        long deadline = System.nanoTime() + max.toNanos();
        for (Thread t : live.values()) {
            long left = deadline - System.nanoTime();
            if (left <= 0 || !t.join(Duration.ofNanos(left))) {
                break;
            }
        }
        return live.size();
    }
}
