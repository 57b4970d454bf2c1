package dev.linkproof.transfer.tcp;

import dev.linkproof.transfer.Deadline;
import dev.linkproof.transfer.Op;
import dev.linkproof.transfer.PeerFailureException;
import dev.linkproof.transfer.SlotLayout;
import dev.linkproof.transfer.TransferException;
import dev.linkproof.transfer.TransferSpec;
import dev.linkproof.transfer.memory.Buffer;
import dev.linkproof.transfer.spi.DataPath;
import dev.linkproof.transfer.spi.IoSettings;
import dev.linkproof.transfer.spi.PeerEndpoint;
import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.StandardSocketOptions;
import java.net.UnknownHostException;
import java.nio.ByteBuffer;
import java.nio.channels.SelectionKey;
import java.nio.channels.Selector;
import java.nio.channels.SocketChannel;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.function.Consumer;

/**
 * The initiator's side of a tcp point: non-blocking channels driven by one thread.
 * {@link #awaitOldest()} pumps every connection (writes what fits, reads what has arrived) and sleeps
 * in the selector only when nothing moved, so reads and writes on all connections interleave and no
 * direction can deadlock the other; the loop allocates nothing. Transfers go round-robin over the
 * connections; a batch smaller than the connection count has each transfer striped into
 * {@code connections / batch} pieces, so every connection carries data, as multi-QP RDMA tools do.
 */
final class TcpDataPath implements DataPath {
    private static final Consumer<SelectionKey> IGNORE = k -> {};
    /** The longest the loop sleeps in the selector before it tries the sockets again. */
    static final long MAX_SELECT_MILLIS = 50;

    private final TransferSpec spec;
    private final Selector selector;
    private final TcpConnection[] conns;
    /** GPU memory seen through a host copy: staged per transfer, inside the timed loop. */
    private final Buffer staged;

    private final boolean write;
    private final long progressTimeoutNanos;
    private long posted;
    private long completed;

    private TcpDataPath(TransferSpec spec, Selector selector, TcpConnection[] conns, IoSettings io, Buffer local) {
        this.spec = spec;
        this.selector = selector;
        this.conns = conns;
        this.staged = local.hostViewIsCopy() ? local : null;
        this.write = spec.op() != Op.READ;
        this.progressTimeoutNanos = io.progressTimeout().toNanos();
    }

    static TcpDataPath connect(TransferSpec spec, Buffer local, Map<String, String> endpoint, IoSettings io)
            throws TransferException {
        TcpSettings settings = TcpSettings.require(spec);
        PeerEndpoint peer = PeerEndpoint.of("tcp", endpoint);
        String host = endpoint.containsKey("tcp.host") ? peer.string("tcp.host") : peer.string("peer.host");
        if (settings.address().isPresent() && !settings.address().get().equals(host)) {
            // Connecting elsewhere would run the point over another link than the one it names.
            throw new TransferException(TcpSettings.ADDRESS + "="
                    + settings.address().get() + ", but the target listens on "
                    + host
                    + (endpoint.containsKey("tcp.host")
                            ? ""
                            : " (it published no tcp.host: an agent that does not know " + TcpSettings.ADDRESS + "?)"));
        }
        int port = (int) peer.number("tcp.port", 1, 65_535);
        long key = peer.hexNumber("tcp.key");
        InetSocketAddress source = sourceAddress(settings);
        boolean write = spec.op() != Op.READ;

        SlotLayout slots = spec.slots();
        int stripes = spec.batch() >= spec.connections()
                ? 1
                : (int) Math.max(1, Math.min(spec.size(), spec.connections() / spec.batch()));
        int ops = spec.batch() * stripes;
        int active = Math.min(spec.connections(), ops);
        List<List<Integer>> perConn = new ArrayList<>();
        for (int c = 0; c < active; c++) {
            perConn.add(new ArrayList<>());
        }
        for (int k = 0; k < ops; k++) {
            perConn.get(k % active).add(k);
        }

        List<SocketChannel> opened = new ArrayList<>();
        Selector selector = null;
        try {
            selector = Selector.open();
            TcpConnection[] conns = new TcpConnection[active];
            ByteBuffer localView = local.segment().asByteBuffer();
            for (int c = 0; c < active; c++) {
                SocketChannel ch = SocketChannel.open();
                opened.add(ch);
                ch.setOption(StandardSocketOptions.TCP_NODELAY, true);
                if (source != null) {
                    bindSource(ch, source, settings);
                }
                ch.socket().connect(new InetSocketAddress(host, port), (int)
                        io.connectTimeout().toMillis());
                ByteBuffer k = ByteBuffer.allocate(TcpWire.KEY_BYTES).putLong(0, key);
                while (k.hasRemaining()) {
                    ch.write(k);
                }
                ch.configureBlocking(false);
                SelectionKey sk = ch.register(selector, 0);
                List<Integer> mine = perConn.get(c);
                ByteBuffer[][] sends = new ByteBuffer[mine.size()][];
                ByteBuffer[] payloads = new ByteBuffer[mine.size()];
                long[] starts = new long[mine.size()];
                boolean[] answered = new boolean[mine.size()];
                int responses = 0;
                for (int i = 0; i < mine.size(); i++) {
                    int op = mine.get(i);
                    int slot = op / stripes;
                    int stripe = op % stripes;
                    long piece = spec.size() / stripes;
                    long start = slots.slotOffset(slot) + stripe * piece;
                    long length = stripe == stripes - 1 ? spec.size() - stripe * piece : piece;
                    boolean last = i == mine.size() - 1;
                    boolean signal = !write || last;
                    ByteBuffer header = ByteBuffer.allocateDirect(TcpWire.REQUEST_BYTES);
                    header.putInt(0, write ? TcpWire.OP_WRITE : TcpWire.OP_READ)
                            .putInt(4, signal ? TcpWire.FLAG_SIGNAL : 0)
                            .putLong(8, start)
                            .putLong(16, length);
                    ByteBuffer payload = localView.slice((int) start, (int) length);
                    payloads[i] = payload;
                    starts[i] = start;
                    sends[i] = write ? new ByteBuffer[] {header, payload} : new ByteBuffer[] {header};
                    answered[i] = signal;
                    if (signal) {
                        responses++;
                    }
                }
                int[] responseOps = new int[responses];
                for (int i = 0, r = 0; i < answered.length; i++) {
                    if (answered[i]) {
                        responseOps[r++] = i;
                    }
                }
                conns[c] = new TcpConnection(
                        c, ch, sk, sends, payloads, starts, responseOps, !write, local.hostViewIsCopy() ? local : null);
            }
            return new TcpDataPath(spec, selector, conns, io, local);
        } catch (TransferException e) {
            closeAll(opened, selector);
            throw e;
        } catch (IOException | RuntimeException e) {
            closeAll(opened, selector);
            String to = host + ":" + port
                    + (source == null ? "" : " from " + settings.source().get());
            if (e instanceof java.net.SocketTimeoutException) {
                throw new PeerFailureException(
                                "cannot open tcp data connection to " + to + ": no answer within "
                                        + io.connectTimeout().toMillis() + " ms",
                                e)
                        .expired(Deadline.DATA_CONNECT);
            }
            // Refused: nothing listens on the port the target announced for this point, so the target
            // rank went away between its answer and our connect (a kill lands here as often as mid-transfer).
            String hint = e instanceof java.net.ConnectException ? " (did the target rank die?)" : "";
            throw new PeerFailureException(
                    "cannot open tcp data connection to " + to + ": " + e.getMessage() + hint, e);
        }
    }

    /** Closes what a failed {@link #connect} had opened. */
    private static void closeAll(List<SocketChannel> opened, Selector selector) {
        for (SocketChannel ch : opened) {
            try {
                ch.close();
            } catch (IOException ignored) {
                // closing what we opened
            }
        }
        if (selector != null) {
            try {
                selector.close();
            } catch (IOException ignored) {
                // closing what we opened
            }
        }
    }

    /** The point's {@code tcp.source} as a local address (any port), or null when it names none. */
    private static InetSocketAddress sourceAddress(TcpSettings settings) throws TransferException {
        if (settings.source().isEmpty()) {
            return null;
        }
        try {
            return new InetSocketAddress(InetAddress.getByName(settings.source().get()), 0);
        } catch (UnknownHostException e) {
            throw new TransferException(
                    TcpSettings.SOURCE + "=" + settings.source().get() + ": cannot bind the data connections: "
                            + "unknown host",
                    e);
        }
    }

    /**
     * Binds a data connection to the point's {@code tcp.source} before it connects, so it leaves from
     * that address (the kernel then routes it as that address's link, with source-based rules where a
     * host has them). A failure here is this host's configuration, not the peer's: a
     * {@link TransferException} naming the setting, not a peer failure.
     */
    private static void bindSource(SocketChannel ch, InetSocketAddress source, TcpSettings settings)
            throws TransferException {
        try {
            ch.bind(source);
        } catch (IOException e) {
            throw new TransferException(
                    TcpSettings.SOURCE + "=" + settings.source().get() + ": cannot bind the data connections: "
                            + e.getMessage(),
                    e);
        }
    }

    @Override
    public void post() throws TransferException {
        if (staged != null && write) {
            stageOut();
        }
        posted++;
        for (TcpConnection c : conns) {
            c.pumpWrites(posted);
        }
    }

    @Override
    public void awaitOldest() throws TransferException {
        if (completed >= posted) {
            throw new IllegalStateException("awaitOldest() with no batch in flight");
        }
        long target = completed + 1;
        long lastProgress = 0;
        while (!done(target)) {
            boolean moved = false;
            for (TcpConnection c : conns) {
                moved |= c.pumpWrites(posted);
                moved |= c.pumpReads();
            }
            if (moved) {
                lastProgress = 0;
                continue;
            }
            long now = System.nanoTime();
            if (lastProgress == 0) {
                lastProgress = now;
            } else if (now - lastProgress >= progressTimeoutNanos) {
                throw new PeerFailureException("no progress on the tcp data connections for "
                                + progressTimeoutNanos / 1_000_000 + " ms (batch " + target + " of point "
                                + spec.pointId()
                                + "): the target rank is hung or unreachable")
                        .expired(Deadline.PROGRESS);
            }
            for (TcpConnection c : conns) {
                c.updateInterest(posted);
            }
            // Never the whole deadline at once: the kernel wakes a writer only once a third of its
            // send buffer is free, so room below that waited unused in the selector and was written
            // only when the deadline ran out, a write that counted as progress and restarted the
            // deadline (a partition then took twice the deadline to notice).
            long waitMs =
                    Math.max(1, Math.min(MAX_SELECT_MILLIS, (progressTimeoutNanos - (now - lastProgress)) / 1_000_000));
            try {
                selector.select(IGNORE, waitMs);
            } catch (IOException e) {
                throw new PeerFailureException("selector failed: " + e.getMessage(), e);
            }
        }
        completed = target;
    }

    /** Copies every transfer of the batch out of GPU memory into the host copy the sockets send from. */
    private void stageOut() throws TransferException {
        SlotLayout slots = spec.slots();
        for (int slot = 0; slot < spec.batch(); slot++) {
            staged.pullHostView(slots.slotOffset(slot), spec.size());
        }
    }

    private boolean done(long batch) {
        for (TcpConnection c : conns) {
            if (c.receivedBatches < batch) {
                return false;
            }
        }
        return true;
    }

    @Override
    public void close() {
        for (TcpConnection c : conns) {
            try {
                c.ch.close();
            } catch (IOException ignored) {
                // closing
            }
        }
        try {
            selector.close();
        } catch (IOException ignored) {
            // closing
        }
    }
}
