package dev.linkproof.fleet.rendezvous;

import dev.linkproof.transfer.agent.Registration;
import dev.linkproof.transfer.control.Frame;
import dev.linkproof.transfer.control.FrameCodec;
import dev.linkproof.transfer.control.MessageType;
import dev.linkproof.transfer.control.Messages;
import dev.linkproof.transfer.control.ProtocolException;
import java.io.BufferedInputStream;
import java.io.DataInputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.logging.Level;
import java.util.logging.Logger;

/**
 * The coordinator's end of the rendezvous: agents placed by the launcher dial in, say which node they are and where
 * they serve, and stay connected for the run. Each is checked against the run's token and roster (an unexpected or
 * already registered node is refused with the reason, which the agent prints); every registered agent is pinged each
 * {@link Registration#HEARTBEAT} so a node lost mid-run is noticed; {@link #close} says BYE to every agent, so they
 * stop and the launcher's step (srun, the Job's pods) ends with the run. No shared file system is needed: agents
 * learn the registry's address and the token from their environment (the batch script, the Job's manifest).
 */
public final class Registry implements AutoCloseable {
    private static final Logger LOG = Logger.getLogger(Registry.class.getName());
    /** How long a connection has to send its REGISTER once it is accepted. */
    static final Duration FIRST_FRAME_WITHIN = Duration.ofSeconds(10);

    /**
     * A registered node: its name, where its agent serves, when it registered, and the machine it runs
     * on when that is not the node itself (a Kubernetes pod's node; else the name).
     */
    public record Node(
            String name, String host, int port, long pid, String agentVersion, Instant registeredAt, String machine) {
        public Node {
            machine = machine == null || machine.isBlank() ? name : machine;
        }

        public Node(String name, String host, int port, long pid, String agentVersion, Instant registeredAt) {
            this(name, host, port, pid, agentVersion, registeredAt, name);
        }

        public String address() {
            return host + ":" + port;
        }
    }

    /** A registration refused: from where, who it said it was, and why. */
    public record Refusal(String from, String node, String why) {}

    private final ServerSocket server;
    private final byte[] token;
    private final Set<String> expected;
    private final String coordinator;
    private final Map<String, Node> nodes = new LinkedHashMap<>();
    private final Map<String, Connection> connections = new ConcurrentHashMap<>();
    private final Map<String, String> lost = new ConcurrentHashMap<>();
    private final List<Refusal> refusals = new CopyOnWriteArrayList<>();
    private final Thread acceptor;
    private final Thread heartbeat;
    private volatile boolean closed;

    private Registry(ServerSocket server, String token, Collection<String> expected, String coordinator) {
        this.server = server;
        this.token = token.getBytes(StandardCharsets.UTF_8);
        this.expected = new LinkedHashSet<>(expected);
        this.coordinator = coordinator;
        this.acceptor =
                Thread.ofPlatform().daemon().name("fleet-registry-accept").unstarted(this::acceptLoop);
        this.heartbeat =
                Thread.ofPlatform().daemon().name("fleet-registry-heartbeat").unstarted(this::heartbeatLoop);
    }

    /**
     * Listens on {@code bindHost:port} (port 0: a free one) for the nodes of {@code expected} (empty:
     * any node name is accepted, as with a launcher that does not say who to expect).
     */
    public static Registry start(
            String bindHost, int port, String token, Collection<String> expected, String coordinator)
            throws IOException {
        ServerSocket s = new ServerSocket();
        try {
            s.setReuseAddress(true);
            // A fleet of a thousand nodes dials in at once: a backlog to match.
            s.bind(new InetSocketAddress(InetAddress.getByName(bindHost), port), 1024);
        } catch (IOException | RuntimeException e) {
            s.close();
            throw e;
        }
        Registry r = new Registry(s, token, expected, coordinator);
        r.acceptor.start();
        r.heartbeat.start();
        return r;
    }

    public int port() {
        return server.getLocalPort();
    }

    public String host() {
        return server.getInetAddress().getHostAddress();
    }

    /**
     * Waits until every expected node has registered or {@code within} has passed, and returns those
     * registered, in roster order (then any others in order of arrival). Without a roster it waits
     * the whole time: who is missing cannot be known.
     */
    public Map<String, Node> awaitAll(Duration within) throws InterruptedException {
        long deadline = System.nanoTime() + within.toNanos();
        synchronized (nodes) {
            while (!closed && (expected.isEmpty() || !nodes.keySet().containsAll(expected))) {
                long left = deadline - System.nanoTime();
                if (left <= 0) {
                    break;
                }
                nodes.wait(Math.max(1, left / 1_000_000));
            }
            return registered();
        }
    }

    /** The nodes registered so far, in roster order, then any others in order of arrival. */
    public Map<String, Node> registered() {
        synchronized (nodes) {
            Map<String, Node> out = new LinkedHashMap<>();
            for (String name : expected) {
                Node n = nodes.get(name);
                if (n != null) {
                    out.put(name, n);
                }
            }
            nodes.forEach(out::putIfAbsent);
            return out;
        }
    }

    /** One registered node, if it is: a lookup, where {@link #registered} copies them all. */
    public Optional<Node> node(String name) {
        synchronized (nodes) {
            return Optional.ofNullable(nodes.get(name));
        }
    }

    /** The expected nodes not registered (yet), in roster order. */
    public List<String> missing() {
        synchronized (nodes) {
            return expected.stream().filter(n -> !nodes.containsKey(n)).toList();
        }
    }

    /** Why a registered node's connection ended, if it did: the node is lost to the run. */
    public Optional<String> lost(String node) {
        return Optional.ofNullable(lost.get(node));
    }

    /** Registrations refused so far (wrong token, a node not on the roster, a second agent for one node). */
    public List<Refusal> refusals() {
        return List.copyOf(refusals);
    }

    private void acceptLoop() {
        while (!closed) {
            Socket s;
            try {
                s = server.accept();
            } catch (IOException e) {
                if (!closed) {
                    LOG.log(Level.WARNING, "fleet registry stopped accepting", e);
                }
                return;
            }
            // One thread per node for the run: a registry holds as many connections as the fleet has nodes.
            Thread.ofVirtual()
                    .name("fleet-registry-" + s.getInetAddress().getHostAddress())
                    .start(() -> serve(s));
        }
    }

    private void serve(Socket socket) {
        String from = socket.getInetAddress().getHostAddress();
        Connection c;
        Messages.Register r;
        try {
            socket.setTcpNoDelay(true);
            socket.setSoTimeout((int) FIRST_FRAME_WITHIN.toMillis());
            c = new Connection(socket);
            Frame first = FrameCodec.read(c.in);
            if (first == null) {
                close(socket);
                return;
            }
            if (first.type() != MessageType.REGISTER) {
                refuse(
                        c,
                        from,
                        "?",
                        "bad-request",
                        "expected REGISTER first, got " + first.type()
                                + " (an agent started without --register, or another program dialled the registry)");
                return;
            }
            r = Messages.decode(first, Messages.Register.class);
        } catch (SocketTimeoutException e) {
            refusals.add(new Refusal(from, "?", "sent nothing within " + FIRST_FRAME_WITHIN.toSeconds() + " s"));
            close(socket);
            return;
        } catch (ProtocolException e) {
            refusals.add(new Refusal(from, "?", e.getMessage()));
            try {
                new Connection(socket).send(MessageType.ERROR, new Messages.Error(e.code(), e.getMessage()));
            } catch (IOException ignored) {
                // it is going anyway
            }
            close(socket);
            return;
        } catch (IOException e) {
            close(socket);
            return;
        }
        if (!MessageDigest.isEqual(token, r.token().getBytes(StandardCharsets.UTF_8))) {
            refuse(
                    c,
                    from,
                    r.node(),
                    "bad-token",
                    "wrong token for node " + r.node()
                            + " (give the agents the token the coordinator was started with, $LINKPROOF_TOKEN)");
            return;
        }
        if (r.protocolVersion() != FrameCodec.VERSION) {
            refuse(
                    c,
                    from,
                    r.node(),
                    "bad-version",
                    "node " + r.node() + " speaks protocol " + r.protocolVersion() + ", the coordinator "
                            + FrameCodec.VERSION + " (run the same build on every node)");
            return;
        }
        Node node = new Node(r.node(), r.host(), r.port(), r.pid(), r.agentVersion(), Instant.now(), r.machine());
        synchronized (nodes) {
            if (closed) {
                close(socket);
                return;
            }
            if (!expected.isEmpty() && !expected.contains(r.node())) {
                refuse(
                        c,
                        from,
                        r.node(),
                        "unknown-node",
                        "node " + r.node() + " is not in this run's roster of " + expected.size() + " node(s) ("
                                + abbreviate(expected) + ")");
                return;
            }
            Node already = nodes.get(r.node());
            if (already != null) {
                refuse(
                        c,
                        from,
                        r.node(),
                        "duplicate-node",
                        "node " + r.node() + " is already registered from " + already.address()
                                + " (two agents on one node? start one per node: srun --ntasks-per-node=1)");
                return;
            }
            try {
                socket.setSoTimeout(0);
                c.send(MessageType.REGISTERED, new Messages.Registered(r.node(), coordinator));
            } catch (IOException e) {
                close(socket);
                return;
            }
            nodes.put(r.node(), node);
            connections.put(r.node(), c);
            nodes.notifyAll();
        }
        watch(r.node(), c);
    }

    /** Reads the agent's PONGs until its connection ends: then the node is lost, and says why. */
    private void watch(String node, Connection c) {
        String why;
        try {
            c.socket.setSoTimeout((int) Registration.SILENCE_LIMIT.toMillis());
            while (true) {
                Frame f = FrameCodec.read(c.in);
                if (f == null) {
                    why = "its agent closed the registration (it stopped, or was killed)";
                    break;
                }
            }
        } catch (SocketTimeoutException e) {
            why = "its agent did not answer the registry's heartbeat for " + Registration.SILENCE_LIMIT.toSeconds()
                    + " s (the node or the network to it is down)";
        } catch (IOException e) {
            why = "its registration broke: " + e.getMessage();
        } catch (ProtocolException e) {
            why = "its agent broke the protocol: " + e.getMessage();
        }
        connections.remove(node, c);
        if (!closed) {
            lost.put(node, why);
            String logged = why;
            LOG.fine(() -> "fleet node lost: " + node + ": " + logged);
        }
        close(c.socket);
    }

    private void refuse(Connection c, String from, String node, String code, String why) {
        refusals.add(new Refusal(from, node, why));
        try {
            c.send(MessageType.ERROR, new Messages.Error(code, why));
        } catch (IOException ignored) {
            // the agent is gone already
        }
        close(c.socket);
    }

    private void heartbeatLoop() {
        long nonce = 0;
        while (!closed) {
            try {
                Thread.sleep(Registration.HEARTBEAT);
            } catch (InterruptedException e) {
                return;
            }
            for (Connection c : connections.values()) {
                try {
                    c.send(MessageType.PING, new Messages.Ping(++nonce));
                } catch (IOException e) {
                    close(c.socket); // its watch records why
                }
            }
        }
    }

    /** Ends the run for every agent (BYE: they stop) and stops listening. */
    @Override
    public void close() {
        closed = true;
        try {
            server.close();
        } catch (IOException ignored) {
            // closing
        }
        heartbeat.interrupt();
        List<Connection> all;
        synchronized (nodes) {
            all = new ArrayList<>(connections.values());
            nodes.notifyAll();
        }
        for (Connection c : all) {
            try {
                c.send(MessageType.BYE, new Messages.Bye("the fleet run ended"));
            } catch (IOException ignored) {
                // gone already
            }
            close(c.socket);
        }
    }

    /** A roster as a log line: its first names, then how many more. */
    static String abbreviate(Collection<String> names) {
        List<String> first = names.stream().limit(5).toList();
        return String.join(", ", first)
                + (names.size() > first.size() ? ", … " + (names.size() - first.size()) + " more" : "");
    }

    private static void close(Socket s) {
        try {
            s.close();
        } catch (IOException ignored) {
            // closing
        }
    }

    /** One agent's registration connection; writes come from the heartbeat and from {@link #close}. */
    private static final class Connection {
        final Socket socket;
        final DataInputStream in;
        private final OutputStream out;

        Connection(Socket socket) throws IOException {
            this.socket = socket;
            this.in = new DataInputStream(new BufferedInputStream(socket.getInputStream()));
            this.out = socket.getOutputStream();
        }

        synchronized void send(MessageType type, Object body) throws IOException {
            out.write(FrameCodec.encode(type, Messages.encode(body)));
            out.flush();
        }
    }
}
