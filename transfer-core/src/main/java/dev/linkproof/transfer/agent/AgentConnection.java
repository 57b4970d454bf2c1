package dev.linkproof.transfer.agent;

import dev.linkproof.transfer.Availability;
import dev.linkproof.transfer.MemoryKind;
import dev.linkproof.transfer.Ranks;
import dev.linkproof.transfer.TransferException;
import dev.linkproof.transfer.TransferSpec;
import dev.linkproof.transfer.control.Frame;
import dev.linkproof.transfer.control.FrameCodec;
import dev.linkproof.transfer.control.MessageType;
import dev.linkproof.transfer.control.Messages;
import dev.linkproof.transfer.control.ProtocolException;
import dev.linkproof.transfer.gpu.GpuRuntime;
import dev.linkproof.transfer.gpu.select.GpuRuntimes;
import dev.linkproof.transfer.measure.HostContention;
import dev.linkproof.transfer.measure.HostCpuMeter;
import dev.linkproof.transfer.memory.Buffer;
import dev.linkproof.transfer.spi.IoSettings;
import dev.linkproof.transfer.spi.TargetContext;
import dev.linkproof.transfer.spi.TargetPoint;
import dev.linkproof.transfer.spi.Transport;
import dev.linkproof.transfer.spi.Transports;
import dev.linkproof.transfer.validate.Checksums;
import dev.linkproof.transfer.validate.CompletionCheck;
import dev.linkproof.transfer.validate.Mismatch;
import dev.linkproof.transfer.validate.SlotPatterns;
import java.io.BufferedInputStream;
import java.io.BufferedOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Consumer;
import java.util.logging.Level;
import java.util.logging.Logger;

/**
 * One initiator's session with the agent. It follows the initiator's per-point requests: allocate
 * and serve a region, fill it with the pattern, checksum it, locate a corrupt byte, release it.
 * Every refused request gets an ERROR naming the cause; points still held when the connection
 * ends are released, so a dead initiator leaks nothing.
 */
final class AgentConnection implements Runnable {
    private static final Logger LOG = Logger.getLogger(AgentConnection.class.getName());
    /** How many points one session may hold at once: enough for tests that script overlaps, small enough to bound memory. */
    static final int MAX_POINTS = 4;

    private final Socket socket;
    private final String token;
    private final Transports transports;
    /** The agent's deadlines, the progress deadline replaced by the initiator's at HELLO. */
    private IoSettings io;

    private final Consumer<AgentConnection> onClose;
    private final Map<String, PointState> points = new HashMap<>();
    /** Points this agent drives as their initiator, at this session's request; made at HELLO. */
    private Drives drives;

    private boolean authenticated;

    /** {@code host}: this host's CPU load since PREPARE, reported in RELEASED. */
    private record PointState(TransferSpec spec, Buffer region, TargetPoint served, HostCpuMeter.Window host) {}

    AgentConnection(
            Socket socket, String token, Transports transports, IoSettings io, Consumer<AgentConnection> onClose) {
        this.socket = socket;
        this.token = token;
        this.transports = transports;
        this.io = io;
        this.onClose = onClose;
    }

    @Override
    public void run() {
        try (socket) {
            DataInputStream in = new DataInputStream(new BufferedInputStream(socket.getInputStream()));
            DataOutputStream out = new DataOutputStream(new BufferedOutputStream(socket.getOutputStream()));
            while (true) {
                Frame frame;
                try {
                    frame = FrameCodec.read(in);
                } catch (ProtocolException e) {
                    reply(out, MessageType.ERROR, new Messages.Error(e.code(), e.getMessage()));
                    if (e.fatal()) {
                        if (!authenticated) {
                            refused(e.code(), e.getMessage());
                        }
                        return;
                    }
                    continue;
                }
                if (frame == null || frame.type() == MessageType.BYE) {
                    return;
                }
                try {
                    if (!handle(frame, out)) {
                        return;
                    }
                } catch (ProtocolException e) {
                    reply(out, MessageType.ERROR, new Messages.Error(e.code(), e.getMessage()));
                } catch (TransferException | RuntimeException | OutOfMemoryError e) {
                    LOG.log(Level.FINE, "request failed", e);
                    reply(
                            out,
                            MessageType.ERROR,
                            new Messages.Error("failed", frame.type() + " failed: " + e.getMessage()));
                }
            }
        } catch (IOException e) {
            LOG.log(Level.FINE, "control connection ended", e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } finally {
            if (drives != null) {
                drives.close();
            }
            // A session that ends holding points (its initiator died or vanished mid-point, or the
            // agent is shutting down) frees each of them; one that fails to close stops no other.
            int held = points.size();
            for (PointState p : points.values()) {
                try {
                    release(p);
                } catch (RuntimeException e) {
                    LOG.log(Level.WARNING, "releasing point " + p.spec().pointId() + " failed", e);
                }
            }
            points.clear();
            if (held > 0) {
                LOG.info(() -> "the session from " + socket.getRemoteSocketAddress() + " ended holding " + held
                        + " point(s): released");
            }
            onClose.accept(this);
        }
    }

    /** Answers a session it will not serve, and logs it with the peer's address (the connection then closes). */
    private void refuse(DataOutputStream out, Messages.Error error) throws IOException {
        refused(error.code(), error.message());
        reply(out, MessageType.ERROR, error);
    }

    /**
     * "refused a session from 198.51.100.2:40112: wrong session token (bad-token)": on the agent's
     * log (its standard error), so whoever runs it by hand sees a wrong token, another build's
     * initiator or a stranger on the port, and from where.
     */
    private void refused(String code, String why) {
        LOG.warning("refused a session from " + socket.getInetAddress().getHostAddress() + ":" + socket.getPort() + ": "
                + why + " (" + code + ")");
    }

    /** Returns false when the connection must close. */
    private boolean handle(Frame frame, DataOutputStream out)
            throws IOException, ProtocolException, TransferException, InterruptedException {
        if (!authenticated && frame.type() != MessageType.HELLO) {
            refuse(
                    out,
                    new Messages.Error(
                            "unauthenticated",
                            "the first message must be HELLO with the session token, not " + frame.type()));
            return false;
        }
        switch (frame.type()) {
            case HELLO -> {
                Messages.Hello hello = Messages.decode(frame, Messages.Hello.class);
                if (hello.token() == null
                        || !MessageDigest.isEqual(
                                hello.token().getBytes(StandardCharsets.UTF_8),
                                token.getBytes(StandardCharsets.UTF_8))) {
                    refuse(out, new Messages.Error("bad-token", "wrong session token"));
                    return false;
                }
                if (hello.protocolVersion() != FrameCodec.VERSION) {
                    refuse(
                            out,
                            new Messages.Error(
                                    "bad-version",
                                    "initiator speaks protocol " + hello.protocolVersion() + ", this agent "
                                            + FrameCodec.VERSION));
                    return false;
                }
                long ms = hello.progressTimeoutMillis();
                if (ms < 1 || ms > Messages.Hello.MAX_PROGRESS_TIMEOUT_MILLIS) {
                    refuse(
                            out,
                            new Messages.Error(
                                    "out-of-range",
                                    "progress timeout " + ms + " ms is outside 1.."
                                            + Messages.Hello.MAX_PROGRESS_TIMEOUT_MILLIS + " ms"));
                    return false;
                }
                io = new IoSettings(Duration.ofMillis(ms), io.connectTimeout(), io.peer());
                drives = new Drives(new IoSettings(io.progressTimeout(), io.connectTimeout()), transports);
                authenticated = true;
                reply(out, MessageType.WELCOME, welcome());
            }
            case PREPARE ->
                reply(
                        out,
                        MessageType.PREPARED,
                        prepare(Messages.decode(frame, Messages.Prepare.class).spec()));
            case CONNECT -> {
                Messages.Connect c = Messages.decode(frame, Messages.Connect.class);
                PointState p = point(c.pointId());
                reply(
                        out,
                        MessageType.CONNECTED,
                        new Messages.Connected(
                                c.pointId(), p.served().accept(c.endpoint() == null ? Map.of() : c.endpoint())));
            }
            case FILL -> {
                Messages.Fill fill = Messages.decode(frame, Messages.Fill.class);
                PointState p = point(fill.pointId());
                SlotPatterns.fill(p.region().segment(), p.spec(), Ranks.TARGET, fill.generation());
                p.region().pushHostView();
                reply(
                        out,
                        MessageType.CHECKSUMS,
                        new Messages.Checksums(
                                fill.pointId(),
                                Checksums.ofSlots(p.region().segment(), p.spec().slots())));
            }
            case CHECKSUM -> {
                Messages.Checksum c = Messages.decode(frame, Messages.Checksum.class);
                PointState p = point(c.pointId());
                if (c.batches() < 0) {
                    throw new ProtocolException("out-of-range", "batches " + c.batches() + " is negative", false);
                }
                // Completions first: the last receives may still be on their way to this rank's CQ.
                CompletionCheck completions = p.served().completions(c.batches(), io.progressTimeout());
                p.region().pullHostView();
                reply(
                        out,
                        MessageType.CHECKSUMS,
                        new Messages.Checksums(
                                c.pointId(),
                                Checksums.ofSlots(p.region().segment(), p.spec().slots()),
                                completions,
                                p.spec().op().atomic() ? counters(p) : null));
            }
            case LOCATE -> {
                Messages.Locate l = Messages.decode(frame, Messages.Locate.class);
                PointState p = point(l.pointId());
                if (l.slot() < 0 || l.slot() >= p.spec().batch()) {
                    throw new ProtocolException(
                            "out-of-range",
                            "slot " + l.slot() + " out of range 0.." + (p.spec().batch() - 1) + " for point "
                                    + l.pointId(),
                            false);
                }
                if (l.ownerRank() != Ranks.INITIATOR && l.ownerRank() != Ranks.TARGET) {
                    throw new ProtocolException("out-of-range", "rank " + l.ownerRank() + " is neither 0 nor 1", false);
                }
                p.region().pullHostView();
                Optional<Mismatch> m =
                        SlotPatterns.locate(p.region().segment(), p.spec(), l.slot(), l.ownerRank(), l.generation());
                reply(
                        out,
                        MessageType.LOCATED,
                        m.map(x -> new Messages.Located(l.pointId(), x.slot(), x.offset(), x.expected(), x.actual()))
                                .orElse(new Messages.Located(l.pointId(), l.slot(), -1, 0, 0)));
            }
            case RELEASE -> {
                Messages.Release r = Messages.decode(frame, Messages.Release.class);
                PointState p = points.remove(r.pointId());
                if (p == null) {
                    throw new ProtocolException("unknown-point", "no point '" + r.pointId() + "' is prepared", false);
                }
                // Answered first, then freed: the initiator goes on (judges, reports, starts its next
                // point) while this rank closes the point's listener and frees its region (~0.2 ms on a
                // loaded host, most of it a shared arena's close). Nothing else is read before the
                // region is freed, so no two points' regions are ever held at once.
                try {
                    reply(
                            out,
                            MessageType.RELEASED,
                            new Messages.Released(r.pointId(), hostLoad(p.host().stop())));
                } finally {
                    try {
                        release(p);
                    } catch (RuntimeException e) {
                        // RELEASED is sent: an ERROR now would answer the initiator's next request.
                        LOG.log(Level.WARNING, "releasing point " + r.pointId() + " failed", e);
                    }
                }
            }
            case DRIVE ->
                reply(out, MessageType.DRIVE_STATE, drives.start(Messages.decode(frame, Messages.Drive.class)));
            case GO -> reply(out, MessageType.DRIVE_STATE, drives.go(Messages.decode(frame, Messages.Go.class)));
            case POLL -> reply(out, MessageType.DRIVE_STATE, drives.poll(Messages.decode(frame, Messages.Poll.class)));
            case PING ->
                reply(
                        out,
                        MessageType.PONG,
                        new Messages.Pong(
                                Messages.decode(frame, Messages.Ping.class).nonce()));
            case LOAD -> {
                // Blocks this session's connection for the window (at most 2 s): the initiator is
                // waiting for the answer anyway, between points.
                Messages.Load l = Messages.decode(frame, Messages.Load.class);
                Optional<HostContention> now;
                try {
                    now = HostCpuMeter.over(Duration.ofMillis(l.windowMillis()));
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    throw new IOException("interrupted while measuring the host's load", e);
                }
                reply(out, MessageType.LOADED, new Messages.Loaded(hostLoad(now)));
            }
            default -> throw new ProtocolException("unexpected", frame.type() + " is a reply, not a request", false);
        }
        return true;
    }

    private Messages.Prepared prepare(TransferSpec spec) throws ProtocolException, TransferException {
        if (points.containsKey(spec.pointId())) {
            throw new ProtocolException("duplicate-point", "point '" + spec.pointId() + "' is already prepared", false);
        }
        if (points.size() >= MAX_POINTS) {
            throw new ProtocolException(
                    "too-many-points",
                    "this session already holds " + points.size() + " points; release one first",
                    false);
        }
        Transport transport = transports
                .find(spec.transport())
                .orElseThrow(() -> new ProtocolException(
                        "unknown-transport", "this agent has no transport '" + spec.transport() + "'", false));
        Availability a = transport.supports(spec);
        if (!a.available()) {
            // Its kind travels as the code: the initiator fails or skips a device's shortfall by it.
            String code = a.kind() == Availability.Kind.DEVICE_LACKS_CAPABILITY
                    ? dev.linkproof.transfer.control.RemoteErrorException.DEVICE_LACKS_CAPABILITY
                    : "unavailable";
            throw new ProtocolException(
                    code, "transport " + spec.transport() + " unavailable here: " + a.reason(), false);
        }
        if (spec.targetMemory().kind() == MemoryKind.GPU) {
            Availability gpu = GpuRuntimes.availability(spec.targetMemory().device());
            if (!gpu.available()) {
                throw new ProtocolException(
                        "unavailable", "GPU memory unavailable on this agent: " + gpu.reason(), false);
            }
        }
        HostCpuMeter.Window host = HostCpuMeter.start();
        Buffer region =
                transport.allocate(spec, spec.targetMemory(), spec.slots().regionBytes());
        try {
            TargetPoint served = transport.serve(
                    spec, region, new TargetContext(socket.getLocalAddress().getHostAddress(), io));
            points.put(spec.pointId(), new PointState(spec, region, served, host));
            return new Messages.Prepared(spec.pointId(), region.size(), served.endpoint());
        } catch (TransferException | RuntimeException e) {
            region.close();
            throw e;
        }
    }

    /** An atomic point's counters, one 8-byte word per slot, in this host's byte order (the order its atomics use). */
    private static long[] counters(PointState p) {
        long[] values = new long[p.spec().batch()];
        for (int slot = 0; slot < values.length; slot++) {
            values[slot] = p.region()
                    .segment()
                    .get(
                            java.lang.foreign.ValueLayout.JAVA_LONG_UNALIGNED,
                            p.spec().slots().slotOffset(slot));
        }
        return values;
    }

    /** The point's host load for RELEASED; none rather than a failed release if a figure is out of range. */
    private static Messages.HostLoad hostLoad(Optional<HostContention> measured) {
        try {
            return measured.map(Messages.HostLoad::of).orElse(null);
        } catch (IllegalArgumentException e) {
            LOG.log(Level.FINE, "host load not reported", e);
            return null;
        }
    }

    private PointState point(String id) throws ProtocolException {
        PointState p = points.get(id);
        if (p == null) {
            throw new ProtocolException("unknown-point", "no point '" + id + "' is prepared", false);
        }
        return p;
    }

    private Messages.Welcome welcome() {
        List<Messages.TransportInfo> list = new ArrayList<>();
        for (Transport t : transports.all().values()) {
            Availability a = t.availability();
            list.add(new Messages.TransportInfo(t.id(), a.available(), a.reason()));
        }
        Availability gpu = GpuRuntimes.availability();
        int gpus = GpuRuntimes.find().map(GpuRuntime::deviceCount).orElse(0);
        return new Messages.Welcome(
                AgentMain.VERSION,
                hostName(),
                ProcessHandle.current().pid(),
                System.getProperty("java.vm.vendor") + " " + Runtime.version(),
                list,
                new Messages.GpuInfo(gpu.available(), gpu.reason(), gpus),
                io.progressTimeout().toMillis(),
                HostCpuMeter.kernelBootId().orElse(null));
    }

    static String hostName() {
        try {
            return java.net.InetAddress.getLocalHost().getHostName();
        } catch (IOException e) {
            return "unknown";
        }
    }

    private static void release(PointState p) {
        try {
            p.served().close();
        } finally {
            p.region().close();
        }
    }

    private static void reply(DataOutputStream out, MessageType type, Object body) throws IOException {
        FrameCodec.write(out, type, Messages.encode(body));
    }

    void close() {
        try {
            socket.close();
        } catch (IOException ignored) {
            // closing
        }
    }
}
