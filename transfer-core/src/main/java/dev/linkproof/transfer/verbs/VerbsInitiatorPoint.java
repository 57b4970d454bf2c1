package dev.linkproof.transfer.verbs;

import dev.linkproof.transfer.Op;
import dev.linkproof.transfer.TransferException;
import dev.linkproof.transfer.TransferSpec;
import dev.linkproof.transfer.memory.Buffer;
import dev.linkproof.transfer.spi.DataPath;
import dev.linkproof.transfer.spi.InitiatorPoint;
import dev.linkproof.transfer.spi.IoSettings;
import dev.linkproof.transfer.spi.PeerEndpoint;
import java.util.Map;

/**
 * The initiator's side of a verbs point between PREPARED and the data path: its QPs are in INIT
 * and their numbers go to the target in CONNECT; once the target answers (its QPs are in RTR by
 * then), {@link #start} takes these QPs to RTR/RTS against the target's half from PREPARED and
 * builds the data path.
 */
final class VerbsInitiatorPoint implements InitiatorPoint {
    private final TransferSpec spec;
    private final VerbsSettings settings;
    private final WorkPlan plan;
    private final QpSet set;
    private final Map<String, String> target;
    private final IoSettings io;
    private final Immediates immediates;
    private final Buffer local;
    private boolean started;

    private VerbsInitiatorPoint(
            TransferSpec spec,
            VerbsSettings settings,
            WorkPlan plan,
            QpSet set,
            Map<String, String> target,
            IoSettings io,
            Immediates immediates,
            Buffer local) {
        this.local = local;
        this.spec = spec;
        this.settings = settings;
        this.plan = plan;
        this.set = set;
        this.target = target;
        this.io = io;
        this.immediates = immediates;
    }

    static VerbsInitiatorPoint open(
            TransferSpec spec, Buffer local, Map<String, String> target, IoSettings io, Immediates immediates)
            throws TransferException {
        VerbsSettings settings = VerbsTransport.settings(spec);
        WorkPlan plan = WorkPlan.of(spec, settings);
        // Check against the smaller of the two ports' limits before a single resource is made.
        PeerEndpoint peer = PeerEndpoint.of("verbs", target);
        long targetMax = peer.number("verbs.maxMsg", 1, Long.MAX_VALUE);
        // Inline data is copied by the CPU from the work request's address: never from GPU memory.
        int inline = spec.op() == Op.READ || spec.op().atomic() || local.hostViewIsCopy()
                ? 0
                : settings.inlineMax() ? -1 : settings.inlineBytes();
        int perQp = plan.perQp().stream().mapToInt(java.util.List::size).max().orElse(1);
        // The send queue holds what one batch needs on a QP, times the pipeline, up to verbs.txDepth.
        int sendWr = Math.max(1, Math.min(settings.txDepth(), perQp * spec.pipelineDepth()));
        QpSet set = new QpSet(
                spec,
                settings,
                local,
                plan.activeQps(),
                sendWr,
                1,
                inline,
                sendWr * plan.activeQps() + 16,
                settings.eventMode());
        try {
            long max = Math.min(set.port.maxMessageSize(), targetMax);
            plan.checkMaxMessage(
                    max,
                    set.where()
                            + (targetMax < set.port.maxMessageSize()
                                    ? " / the target's port (max_msg_sz " + targetMax + ")"
                                    : ""),
                    spec,
                    settings);
            return new VerbsInitiatorPoint(spec, settings, plan, set, target, io, immediates, local);
        } catch (TransferException | RuntimeException e) {
            set.close();
            throw e;
        }
    }

    @Override
    public Map<String, String> endpoint() {
        return set.endpoint();
    }

    @Override
    public DataPath start(Map<String, String> targetReply) throws TransferException {
        Map<String, String> peer = new java.util.HashMap<>(target);
        peer.putAll(targetReply); // the MTU the target settled on
        set.connect(peer);
        PeerEndpoint e = PeerEndpoint.of("verbs", peer);
        long remoteBase = e.hexNumber("verbs.addr");
        int rkey = (int) e.number("verbs.rkey", 0, 0xFFFF_FFFFL);
        DataPath path = spec.op().atomic()
                ? AtomicOperands.path(
                        spec,
                        settings,
                        set,
                        plan,
                        remoteBase,
                        rkey,
                        io.progressTimeout().toNanos(),
                        local)
                : VerbsDataPath.transfer(
                        spec,
                        settings,
                        set,
                        plan,
                        remoteBase,
                        rkey,
                        io.progressTimeout().toNanos(),
                        immediates);
        started = true;
        return path;
    }

    @Override
    public void close() {
        if (!started) {
            set.close();
        }
    }
}
