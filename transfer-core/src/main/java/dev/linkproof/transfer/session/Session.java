package dev.linkproof.transfer.session;

import dev.linkproof.transfer.Availability;
import dev.linkproof.transfer.MemoryKind;
import dev.linkproof.transfer.PeerFailureException;
import dev.linkproof.transfer.Ranks;
import dev.linkproof.transfer.TransferException;
import dev.linkproof.transfer.TransferSpec;
import dev.linkproof.transfer.atomic.AtomicChecks;
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
import dev.linkproof.transfer.validate.Checksums;
import dev.linkproof.transfer.validate.CompletionCheck;
import dev.linkproof.transfer.validate.Mismatch;
import dev.linkproof.transfer.validate.SlotPatterns;
import dev.linkproof.transfer.validate.Validation;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
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
                fillTarget(spec, TIMED_GENERATION);
            }
            if (atomics != null) {
                plan = new AtomicPlan(spec, TIMED_GENERATION);
                writeOperands(local, atomics, plan);
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
                            ? verifyAtomics(spec, local, path, atomics, plan)
                            : verify(spec, local, path, initiatorOwns);
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

    /**
     * One more batch with a fresh pattern generation; the receiver's checksums against the owner's,
     * and, where the target receives (SEND, WRITE_WITH_IMM), what it found in its completions.
     */
    private Validation verify(TransferSpec spec, Buffer local, DataPath path, boolean initiatorOwns)
            throws TransferException {
        long[] expected;
        long[] actual;
        CompletionCheck completions = CompletionCheck.NONE;
        if (initiatorOwns) {
            SlotPatterns.fill(local.segment(), spec, Ranks.INITIATOR, VERIFY_GENERATION);
            local.pushHostView();
            expected = Checksums.ofSlots(local.segment(), spec.slots());
            MeasurementLoop.once(path);
            // The agent waits for its receive completions up to the progress deadline this session
            // sent in HELLO before it answers: wait that long on top of the control timeout, so a
            // completion that never comes is the agent's finding, not a timeout here. No reply
            // within both ran out of the control deadline: the agent had its progress wait.
            Messages.Checksums reply = control.call(
                    MessageType.CHECKSUM,
                    new Messages.Checksum(spec.pointId(), MeasurementLoop.batchesPerPoint(spec)),
                    MessageType.CHECKSUMS,
                    Messages.Checksums.class,
                    timeouts.control(),
                    timeouts.io().progressTimeout(),
                    "waiting for its receive completions");
            actual = reply.checksums();
            if (reply.completions() != null) {
                completions = reply.completions();
            }
        } else {
            expected = fillTarget(spec, VERIFY_GENERATION);
            MeasurementLoop.once(path);
            local.pullHostView();
            actual = Checksums.ofSlots(local.segment(), spec.slots());
        }
        if (expected.length != spec.batch() || actual.length != spec.batch()) {
            throw new TransferException("checksum count mismatch: expected " + spec.batch() + " slots, got "
                    + expected.length + " and " + actual.length);
        }
        int bad = 0;
        int firstBad = -1;
        for (int slot = 0; slot < spec.batch(); slot++) {
            if (expected[slot] != actual[slot]) {
                bad++;
                if (firstBad < 0) {
                    firstBad = slot;
                }
            }
        }
        Optional<Mismatch> where = Optional.empty();
        if (firstBad >= 0) {
            where = initiatorOwns
                    ? locateOnTarget(spec, firstBad)
                    : SlotPatterns.locate(local.segment(), spec, firstBad, Ranks.TARGET, VERIFY_GENERATION);
        }
        return new Validation(spec.batch(), spec.bytesPerIteration(), bad, where, completions);
    }

    /** Every counter's step, and the compare-and-swap chain's first compare value (the counter's start). */
    private static void writeOperands(Buffer local, AtomicLayout layout, AtomicPlan plan) throws TransferException {
        MemorySegment m = local.segment();
        for (int slot = 0; slot < layout.batch(); slot++) {
            m.set(ValueLayout.JAVA_LONG_UNALIGNED, layout.operand(slot), plan.step(slot));
            m.set(ValueLayout.JAVA_LONG_UNALIGNED, layout.chain(slot), plan.start(slot));
        }
        local.pushHostView();
    }

    /**
     * An atomic point's verification: {@link AtomicPlan#VERIFY_BATCHES} more batches, stop-and-wait,
     * the values each op fetched read after it completed; then every counter's value from the target.
     * The final values account for every op of the point (warmup and timed loop included), the fetched
     * values for each verification op one by one.
     */
    private Validation verifyAtomics(
            TransferSpec spec, Buffer local, DataPath path, AtomicLayout layout, AtomicPlan plan)
            throws TransferException {
        long[][] fetched = new long[spec.batch()][AtomicPlan.VERIFY_BATCHES];
        long before = plan.opsBeforeVerification();
        for (int v = 0; v < AtomicPlan.VERIFY_BATCHES; v++) {
            MeasurementLoop.once(path);
            local.pullHostView();
            int ring = layout.ring(before + v);
            for (int slot = 0; slot < spec.batch(); slot++) {
                fetched[slot][v] = local.segment().get(ValueLayout.JAVA_LONG_UNALIGNED, layout.result(ring, slot));
            }
        }
        Messages.Checksums reply = control.call(
                MessageType.CHECKSUM,
                new Messages.Checksum(spec.pointId(), 0),
                MessageType.CHECKSUMS,
                Messages.Checksums.class,
                timeouts.control());
        if (reply.counters() == null || reply.counters().length != spec.batch()) {
            throw new TransferException(
                    "the target agent sent " + (reply.counters() == null ? "no" : reply.counters().length)
                            + " counter values for an atomic point of " + spec.batch()
                            + " counters (an agent of an older build?)");
        }
        return Validation.ofAtomics(spec.batch(), AtomicChecks.check(plan, reply.counters(), fetched));
    }

    private long[] fillTarget(TransferSpec spec, int generation) throws TransferException {
        return control.call(
                        MessageType.FILL,
                        new Messages.Fill(spec.pointId(), generation),
                        MessageType.CHECKSUMS,
                        Messages.Checksums.class,
                        timeouts.control())
                .checksums();
    }

    private Optional<Mismatch> locateOnTarget(TransferSpec spec, int slot) throws TransferException {
        Messages.Located l = control.call(
                MessageType.LOCATE,
                new Messages.Locate(spec.pointId(), slot, Ranks.INITIATOR, VERIFY_GENERATION),
                MessageType.LOCATED,
                Messages.Located.class,
                timeouts.control());
        return l.offset() < 0
                ? Optional.empty()
                : Optional.of(new Mismatch(l.slot(), l.offset(), l.expected(), l.actual()));
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
