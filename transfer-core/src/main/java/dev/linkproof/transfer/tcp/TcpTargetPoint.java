package dev.linkproof.transfer.tcp;

import dev.linkproof.transfer.TransferException;
import dev.linkproof.transfer.TransferSpec;
import dev.linkproof.transfer.memory.Buffer;
import dev.linkproof.transfer.spi.TargetContext;
import dev.linkproof.transfer.spi.TargetPoint;
import java.io.EOFException;
import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.StandardSocketOptions;
import java.net.UnknownHostException;
import java.nio.ByteBuffer;
import java.nio.channels.ClosedChannelException;
import java.nio.channels.ServerSocketChannel;
import java.nio.channels.SocketChannel;
import java.nio.charset.StandardCharsets;
import java.security.SecureRandom;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.logging.Level;
import java.util.logging.Logger;

/**
 * The target's side of a tcp point: a listener on an ephemeral port and one platform thread per data
 * connection, serving requests straight into and out of the registered region; a request outside the
 * region is refused with a message and the connection keeps serving. The threads come from a daemon
 * pool the agent's points share: a point of a few milliseconds would otherwise spend a fair part of
 * them starting two threads and waiting for its listener's to leave {@code accept}. A point's release
 * waits only for the threads serving its connections, the ones that touch its region.
 */
final class TcpTargetPoint implements TargetPoint {
    private static final Logger LOG = Logger.getLogger(TcpTargetPoint.class.getName());
    private static final SecureRandom RANDOM = new SecureRandom();
    private static final String IDLE = "tcp-target-idle";
    private static final ExecutorService THREADS = Executors.newCachedThreadPool(
            Thread.ofPlatform().daemon().name(IDLE).factory());

    private final ServerSocketChannel server;
    private final Buffer region;
    private final long key;
    private final String name;
    /** The point's {@code tcp.address}, published as {@code tcp.host}; null when the initiator uses the agent's address. */
    private final String published;

    private final List<SocketChannel> connections = new CopyOnWriteArrayList<>();
    /** What serves each connection; guarded by {@code this}, as {@link #closed} is set. */
    private final List<Future<?>> servers = new ArrayList<>();

    private volatile boolean closed;

    private TcpTargetPoint(ServerSocketChannel server, Buffer region, String name, String published) {
        this.server = server;
        this.region = region;
        this.key = RANDOM.nextLong();
        this.name = name;
        this.published = published;
    }

    /**
     * Listens on the point's {@code tcp.address} when it names one (a rail's own link), else on the
     * address the initiator reached the agent on.
     */
    static TcpTargetPoint open(TransferSpec spec, Buffer region, TargetContext context) throws TransferException {
        Optional<String> address = TcpSettings.require(spec).address();
        String bind = address.orElse(context.bindAddress());
        ServerSocketChannel server = null;
        try {
            server = ServerSocketChannel.open();
            server.bind(new InetSocketAddress(InetAddress.getByName(bind), 0), spec.connections() + 8);
            TcpTargetPoint point = new TcpTargetPoint(server, region, spec.pointId(), address.orElse(null));
            THREADS.execute(() -> named("tcp-accept-" + point.name, point::acceptLoop));
            return point;
        } catch (IOException e) {
            if (server != null) {
                try {
                    server.close();
                } catch (IOException ignored) {
                    // closing what we opened
                }
            }
            String why = e instanceof UnknownHostException ? "unknown host" : e.getMessage();
            throw new TransferException(
                    address.isPresent()
                            ? TcpSettings.ADDRESS + "=" + bind + ": cannot listen: " + why
                            : "tcp target cannot listen on " + bind + ": " + why,
                    e);
        }
    }

    /** Runs {@code task} on this pool thread under {@code threadName}, as a thread of its own would have been named. */
    private static void named(String threadName, Runnable task) {
        Thread.currentThread().setName(threadName);
        try {
            task.run();
        } finally {
            Thread.currentThread().setName(IDLE);
        }
    }

    @Override
    public Map<String, String> endpoint() {
        InetSocketAddress local;
        try {
            local = (InetSocketAddress) server.getLocalAddress();
        } catch (IOException e) {
            throw new IllegalStateException("listener has no address", e);
        }
        Map<String, String> endpoint = new HashMap<>();
        endpoint.put("tcp.port", Integer.toString(local.getPort()));
        endpoint.put("tcp.key", HexFormat.of().toHexDigits(key));
        if (published != null) {
            // As the setting says it, not as the listener resolved it: the initiator compares the two.
            endpoint.put("tcp.host", published);
        }
        return Map.copyOf(endpoint);
    }

    private void acceptLoop() {
        int n = 0;
        while (!closed) {
            try {
                SocketChannel ch = server.accept();
                ch.setOption(StandardSocketOptions.TCP_NODELAY, true);
                synchronized (this) {
                    if (closed) { // accepted as the point closed: nothing may touch its region now
                        close(ch);
                        return;
                    }
                    connections.add(ch);
                    int index = n++;
                    servers.add(THREADS.submit(() -> named("tcp-serve-" + index, () -> serve(ch))));
                }
            } catch (ClosedChannelException e) {
                return;
            } catch (IOException e) {
                if (!closed) {
                    LOG.log(Level.WARNING, "accept failed", e);
                }
                return;
            }
        }
    }

    private void serve(SocketChannel ch) {
        ByteBuffer request = ByteBuffer.allocateDirect(TcpWire.REQUEST_BYTES);
        ByteBuffer response = ByteBuffer.allocateDirect(TcpWire.RESPONSE_BYTES);
        ByteBuffer view = region.segment().asByteBuffer();
        long regionBytes = region.size();
        try {
            ByteBuffer keyBuf = ByteBuffer.allocate(TcpWire.KEY_BYTES);
            if (!readFully(ch, keyBuf, true) || keyBuf.getLong(0) != key) {
                LOG.warning("tcp data connection with a wrong key refused");
                return;
            }
            ByteBuffer[] readReply = {response, view};
            while (!closed) {
                request.clear();
                if (!readFully(ch, request, true)) {
                    return;
                }
                int op = request.getInt(0);
                int flags = request.getInt(4);
                long offset = request.getLong(8);
                long length = request.getLong(16);
                String refusal = check(op, offset, length, regionBytes);
                if (refusal != null) {
                    int status = op == TcpWire.OP_WRITE || op == TcpWire.OP_READ
                            ? TcpWire.STATUS_OUT_OF_RANGE
                            : TcpWire.STATUS_BAD_REQUEST;
                    refuse(ch, response, status, refusal, length);
                    if (op == TcpWire.OP_WRITE) {
                        if (length < 0 || length > TcpWire.DRAIN_LIMIT) {
                            return; // cannot skip the payload: drop the connection, keep the agent
                        }
                        drain(ch, length);
                    }
                    continue;
                }
                view.clear();
                view.position((int) offset).limit((int) (offset + length));
                if (op == TcpWire.OP_WRITE) {
                    if (!readFully(ch, view, false)) {
                        return;
                    }
                    if (!stage(ch, response, true, offset, length)) {
                        continue;
                    }
                    if ((flags & TcpWire.FLAG_SIGNAL) != 0) {
                        response.clear();
                        response.putInt(0, TcpWire.STATUS_OK).putInt(4, 0).putLong(8, length);
                        writeFully(ch, response);
                    }
                } else {
                    if (!stage(ch, response, false, offset, length)) {
                        continue;
                    }
                    response.clear();
                    response.putInt(0, TcpWire.STATUS_OK).putInt(4, 0).putLong(8, length);
                    while (view.hasRemaining()) {
                        ch.write(readReply);
                    }
                }
            }
        } catch (IOException e) {
            if (!closed) {
                LOG.log(Level.FINE, "tcp data connection ended", e);
            }
        } finally {
            close(ch);
        }
    }

    /**
     * GPU memory moves through the region's host copy: a write's payload is pushed to the device
     * once it has arrived, a read's is pulled before it is sent — per transfer, inside the
     * initiator's timed loop, so the figures include the staging. Returns false (after refusing
     * the request) when the GPU runtime fails.
     */
    private boolean stage(SocketChannel ch, ByteBuffer response, boolean push, long offset, long length)
            throws IOException {
        if (!region.hostViewIsCopy()) {
            return true;
        }
        try {
            if (push) {
                region.pushHostView(offset, length);
            } else {
                region.pullHostView(offset, length);
            }
            return true;
        } catch (TransferException e) {
            refuse(
                    ch,
                    response,
                    TcpWire.STATUS_TARGET_ERROR,
                    "staging through host memory failed: " + e.getMessage(),
                    length);
            return false;
        }
    }

    private static String check(int op, long offset, long length, long regionBytes) {
        if (op != TcpWire.OP_WRITE && op != TcpWire.OP_READ) {
            return "unknown op code " + op + " (expected 1 = write, 2 = read)";
        }
        if (length <= 0) {
            return "length " + length + " must be positive";
        }
        if (offset < 0 || offset > regionBytes - length) {
            return "remote range [" + offset + ", " + offset + "+" + length + ") lies outside the region of "
                    + regionBytes + " bytes";
        }
        return null;
    }

    private static void refuse(SocketChannel ch, ByteBuffer response, int status, String message, long length)
            throws IOException {
        byte[] text = message.getBytes(StandardCharsets.UTF_8);
        response.clear();
        response.putInt(0, status).putInt(4, text.length).putLong(8, length);
        writeFully(ch, response);
        writeFully(ch, ByteBuffer.wrap(text));
    }

    private static void drain(SocketChannel ch, long length) throws IOException {
        ByteBuffer scratch = ByteBuffer.allocate((int) Math.min(length, 1 << 16));
        long left = length;
        while (left > 0) {
            scratch.clear().limit((int) Math.min(left, scratch.capacity()));
            int n = ch.read(scratch);
            if (n < 0) {
                throw new EOFException("connection closed while draining a refused write");
            }
            left -= n;
        }
    }

    /** Returns false on a clean end of stream before the first byte when {@code eofOk}. */
    private static boolean readFully(SocketChannel ch, ByteBuffer buf, boolean eofOk) throws IOException {
        boolean first = true;
        while (buf.hasRemaining()) {
            int n = ch.read(buf);
            if (n < 0) {
                if (eofOk && first) {
                    return false;
                }
                throw new EOFException("initiator closed the data connection mid-transfer");
            }
            first = first && n == 0;
        }
        return true;
    }

    private static void writeFully(SocketChannel ch, ByteBuffer buf) throws IOException {
        while (buf.hasRemaining()) {
            ch.write(buf);
        }
    }

    private static void close(SocketChannel ch) {
        try {
            ch.close();
        } catch (IOException ignored) {
            // already gone
        }
    }

    @Override
    public void close() {
        List<Future<?>> serving;
        synchronized (this) {
            closed = true;
            serving = List.copyOf(servers);
        }
        try {
            server.close();
        } catch (IOException ignored) {
            // already gone
        }
        for (SocketChannel ch : connections) {
            close(ch);
        }
        // The region is freed after this returns: no serving thread may still be inside it. (The
        // listener's thread never touches it, and can start no server now that the point is closed.)
        try {
            for (Future<?> f : serving) {
                try {
                    f.get(5000, TimeUnit.MILLISECONDS);
                } catch (TimeoutException e) {
                    // as long as a join waited for a thread of its own
                } catch (ExecutionException e) {
                    LOG.log(Level.WARNING, "a tcp data connection's server failed", e.getCause());
                }
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
