package dev.linkproof.transfer.session;

import dev.linkproof.transfer.Availability;
import dev.linkproof.transfer.MemoryKind;
import dev.linkproof.transfer.PeerFailureException;
import dev.linkproof.transfer.Ranks;
import dev.linkproof.transfer.TransferException;
import dev.linkproof.transfer.TransferSpec;
import dev.linkproof.transfer.atomic.AtomicLayout;
import dev.linkproof.transfer.atomic.AtomicPlan;
import dev.linkproof.transfer.control.ControlChannel;
import dev.linkproof.transfer.control.FrameCodec;
import dev.linkproof.transfer.control.MessageType;
import dev.linkproof.transfer.control.Messages;
import dev.linkproof.transfer.control.RemoteErrorException;
import dev.linkproof.transfer.gpu.select.GpuRuntimes;
import dev.linkproof.transfer.measure.HostContention;
import dev.linkproof.transfer.measure.HostCpuMeter;
import dev.linkproof.transfer.measure.LoopGate;
import dev.linkproof.transfer.measure.Measurement;
import dev.linkproof.transfer.measure.MeasurementLoop;
import dev.linkproof.transfer.measure.Phases;
import dev.linkproof.transfer.measure.Timing;
import dev.linkproof.transfer.memory.Buffer;
import dev.linkproof.transfer.memory.HostMemory;
import dev.linkproof.transfer.spi.DataPath;
import dev.linkproof.transfer.spi.InitiatorPoint;
import dev.linkproof.transfer.spi.Transport;
import dev.linkproof.transfer.spi.Transports;
import dev.linkproof.transfer.validate.SlotPatterns;
import dev.linkproof.transfer.validate.Validation;
import java.time.Duration;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;

/**
 * The initiator's session with one target agent. For every point it is the single source of truth:
 * it sends the spec, both sides allocate and register, it drives warmup and the timed loop, then a
 * verification pass with a fresh pattern generation whose per-slot checksums are compared across
 * the ranks.
 */
public final class Session implements TransferSession {
    /** Generation of the pattern moved during warmup and the timed loop. */
    static final int TIMED_GENERATION = 0;
    /** Fresh generation written just before the verification pass, so stale data cannot pass. */
    static final int VERIFY_GENERATION = 1;
    /**
     * A point shorter than this from PREPARE to its end releases without waiting for RELEASED: half
     * the shortest window the agent gives a host load for ({@link HostCpuMeter#MIN_WINDOW_NANOS}), so
     * a reply that could carry one is always waited for.
     */
    static final long RELEASE_LATER_NANOS = HostCpuMeter.MIN_WINDOW_NANOS / 2;

    private final ControlChannel control;
    private final Messages.Welcome welcome;
    private final Transports transports;
    private final Timeouts timeouts;
    private final String peerHost;
    /** This host's name, as HELLO gave it: read once, not for every point's environment. */
    private final String localHost;

    private volatile boolean usable = true;
    /** The patterns a point starts from and the checks after its timed loop, over this session's control channel. */
    private final PointVerification verification;

    private Session(
            ControlChannel control,
            Messages.Welcome welcome,
            Transports transports,
            Timeouts timeouts,
            String peerHost,
            String localHost) {
        this.control = control;
        this.welcome = welcome;
        this.transports = transports;
        this.timeouts = timeouts;
        this.peerHost = peerHost;
        this.localHost = localHost;
        this.verification = new PointVerification(control, timeouts);
    }

    /**
     * Connects to an agent with this process's transports discovered for this session alone: for a
     * caller with one session. Whoever opens several (the engine, the CLI, a fleet's coordinator, an
     * agent's drives) discovers once and passes its registry to {@link #open(String, int, String, Timeouts, Transports)}.
     */
    public static Session open(String host, int port, String token, Timeouts timeouts) throws TransferException {
        return open(host, port, token, timeouts, Transports.discover());
    }

    /**
     * Connects to an agent, presents the token and reads what the agent offers.
     *
     * @param transports this process's transports, as the run discovered them: the initiator's side of
     *                   every point runs on them
     */
    public static Session open(String host, int port, String token, Timeouts timeouts, Transports transports)
            throws TransferException {
        ControlChannel control = ControlChannel.connect(host, port, timeouts.control());
        try {
            String localHost = localHost();
            Messages.Welcome welcome = control.call(
                    MessageType.HELLO,
                    new Messages.Hello(
                            token,
                            FrameCodec.VERSION,
                            localHost,
                            timeouts.io().progressTimeout().toMillis()),
                    MessageType.WELCOME,
                    Messages.Welcome.class,
                    timeouts.control());
            return new Session(control, welcome, transports, timeouts, host, localHost);
        } catch (RemoteErrorException e) {
            control.close();
            if ("bad-token".equals(e.code())) {
                throw new RemoteErrorException(
                        e.code(),
                        "the target agent at " + host + ":" + port + " refused: wrong session token (give the token"
                                + " that agent was started with, or the one it"
                                + " printed)");
            }
            throw e;
        } catch (TransferException | RuntimeException e) {
            control.close();
            throw e;
        }
    }

    @Override
    public Messages.Welcome agent() {
        return welcome;
    }

    @Override
    public boolean usable() {
        return usable && !control.broken();
    }

    @Override
    public ControlChannel control() {
        return control;
    }

    @Override
    public Availability supports(TransferSpec spec) {
        Optional<Transport> local = transports.find(spec.transport());
        if (local.isEmpty()) {
            return Availability.no("no transport '" + spec.transport() + "' on the class path (known: "
                    + String.join(", ", transports.all().keySet()) + ")");
        }
        Availability here = local.get().supports(spec);
        if (!here.available()) {
            return here.prefixed(spec.transport() + " unavailable on the initiator: ");
        }
        Optional<Messages.TransportInfo> there = welcome.transports().stream()
                .filter(t -> t.id().equals(spec.transport()))
                .findFirst();
        if (there.isEmpty()) {
            return Availability.no("the target agent has no transport '" + spec.transport() + "'");
        }
        if (!there.get().available()) {
            return Availability.no(spec.transport() + " unavailable on the target: "
                    + there.get().reason());
        }
        for (var side : new dev.linkproof.transfer.MemoryPlacement[] {spec.initiatorMemory(), spec.targetMemory()}) {
            if (side.kind() == MemoryKind.HUGEPAGE) {
                Optional<String> why = HostMemory.hugepagesUnavailable();
                if (why.isPresent()) {
                    return Availability.no("hugepages unavailable: " + why.get());
                }
            }
        }
        if (spec.initiatorMemory().kind() == MemoryKind.GPU) {
            Availability gpu = GpuRuntimes.availability(spec.initiatorMemory().device());
            if (!gpu.available()) {
                return Availability.no("GPU memory unavailable on the initiator: " + gpu.reason());
            }
        }
        if (spec.targetMemory().kind() == MemoryKind.GPU) {
            Messages.GpuInfo gpus = welcome.gpus();
            if (gpus == null || !gpus.available()) {
                return Availability.no("GPU memory unavailable on the target: "
                        + (gpus == null ? "the agent reports no GPU facts" : gpus.detail()));
            }
            if (spec.targetMemory().device() >= gpus.devices()) {
                return Availability.no("no GPU " + spec.targetMemory().device() + " on the target: it sees "
                        + gpus.devices() + " (" + gpus.detail() + ")");
            }
        }
        return here;
    }

    @Override
    public Optional<HostContention> targetLoad(Duration window) throws TransferException {
        Messages.HostLoad load = control.call(
                        MessageType.LOAD,
                        new Messages.Load(window.toMillis()),
                        MessageType.LOADED,
                        Messages.Loaded.class,
                        timeouts.control(),
                        window,
                        "measuring its host's load")
                .host();
        return Optional.ofNullable(load).map(Messages.HostLoad::contention);
    }

    @Override
    public Measurement run(TransferSpec spec, LoopGate gate) throws TransferException {
        try {
            return runPoint(spec, gate);
        } catch (PeerFailureException e) {
            usable = false;
            throw e;
        }
    }

    private Measurement runPoint(TransferSpec spec, LoopGate gate) throws TransferException {
        Transport transport = transports.require(spec.transport());
        Phases phases = new Phases();
        long prepareSent = System.nanoTime();
        phases.begin("provision");
        Messages.Prepared prepared = control.call(
                MessageType.PREPARE,
                new Messages.Prepare(spec),
                MessageType.PREPARED,
                Messages.Prepared.class,
                timeouts.control());
        TransferException failure = null;
        Measurement measured;
        Optional<HostContention> targetHost = Optional.empty();
        AtomicLayout atomics = spec.op().atomic() ? AtomicLayout.of(spec) : null;
        try (Buffer local = transport.allocate(
                spec,
                spec.initiatorMemory(),
                atomics != null ? atomics.bytes() : spec.slots().regionBytes())) {
            Map<String, String> endpoint = new HashMap<>(prepared.endpoint());
            endpoint.put("peer.host", peerHost);
            boolean initiatorOwns = spec.op().ownerRank() == Ranks.INITIATOR;
            AtomicPlan plan = null;
            if (initiatorOwns) {
                SlotPatterns.fill(local.segment(), spec, Ranks.INITIATOR, TIMED_GENERATION);
                local.pushHostView();
            } else {
                verification.fillTarget(spec, TIMED_GENERATION);
            }
            if (atomics != null) {
                plan = new AtomicPlan(spec, TIMED_GENERATION);
                PointVerification.writeOperands(local, atomics, plan);
            }
            Timing timing;
            Validation validation;
            phases.begin("register and connect");
            // From here to the data path's close the control connection is mostly idle: the watch
            // looks at it, so a dead agent stops even transfers that cannot notice it themselves.
            try (ControlWatch watch = ControlWatch.start(control);
                    InitiatorPoint point =
                            transport.open(spec, local, endpoint, timeouts.io().watchedBy(watch))) {
                Map<String, String> reply = point.endpoint().isEmpty()
                        ? Map.of()
                        : control.call(
                                        MessageType.CONNECT,
                                        new Messages.Connect(spec.pointId(), point.endpoint()),
                                        MessageType.CONNECTED,
                                        Messages.Connected.class,
                                        timeouts.control())
                                .endpoint();
                try (DataPath path = new WatchedDataPath(point.start(reply), watch)) {
                    timing = MeasurementLoop.run(path, spec, phases, gate);
                    phases.begin("verify");
                    validation = plan != null
                            ? verification.verifyAtomics(spec, local, path, atomics, plan)
                            : verification.verify(spec, local, path, initiatorOwns);
                    phases.end();
                }
            }
            measured = Measurement.of(spec, timing, validation, environment(spec, transport), phases.list());
        } catch (TransferException e) {
            failure = e;
            if (e instanceof PeerFailureException) {
                usable = false;
            }
            throw e;
        } finally {
            if (usable()) {
                try {
                    if (failure == null && System.nanoTime() - prepareSent < RELEASE_LATER_NANOS) {
                        // A short point: the agent's window (PREPARE to RELEASE) is too short for a host
                        // load, so RELEASED carries nothing this point needs. Its reply is read before
                        // the session's next request instead of now, and the agent frees the point while
                        // this side judges and reports it (one round trip off every small point).
                        control.callLater(
                                MessageType.RELEASE,
                                new Messages.Release(spec.pointId()),
                                MessageType.RELEASED,
                                Messages.Released.class,
                                timeouts.control(),
                                "RELEASE of point " + spec.pointId());
                    } else {
                        Messages.HostLoad load = control.call(
                                        MessageType.RELEASE,
                                        new Messages.Release(spec.pointId()),
                                        MessageType.RELEASED,
                                        Messages.Released.class,
                                        timeouts.control())
                                .host();
                        targetHost = Optional.ofNullable(load).map(Messages.HostLoad::contention);
                    }
                } catch (TransferException e) {
                    if (failure == null) {
                        throw e;
                    }
                    failure.addSuppressed(e);
                }
            }
        }
        return measured.withTargetHost(targetHost);
    }

    private Map<String, String> environment(TransferSpec spec, Transport transport) {
        Map<String, String> env = new LinkedHashMap<>();
        env.put("initiator.host", localHost);
        env.put("initiator.jdk", Runtime.version().toString());
        env.put("target.host", welcome.host());
        env.put("target.pid", Long.toString(welcome.pid()));
        env.put("target.agent", welcome.agentVersion());
        env.put("target.jdk", welcome.jdk());
        env.put("peer", control.peer());
        env.put("transport", spec.transport());
        env.putAll(transport.describe());
        return env;
    }

    private static String localHost() {
        try {
            return java.net.InetAddress.getLocalHost().getHostName();
        } catch (java.io.IOException e) {
            return "unknown";
        }
    }

    @Override
    public void close() {
        control.closeWith(byeFrame());
    }

    private static byte[] byeFrame() {
        return FrameCodec.encode(MessageType.BYE, Messages.encode(new Messages.Bye("session closed")));
    }
}
