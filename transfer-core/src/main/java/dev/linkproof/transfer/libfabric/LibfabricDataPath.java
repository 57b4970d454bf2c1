package dev.linkproof.transfer.libfabric;

import static dev.linkproof.transfer.libfabric.LibfabricAbi.FI_MSG_RMA;
import static dev.linkproof.transfer.libfabric.LibfabricAbi.FI_RMA_IOV;
import static dev.linkproof.transfer.libfabric.LibfabricAbi.IOVEC;
import static dev.linkproof.transfer.libfabric.LibfabricAbi.offset;
import static java.lang.foreign.ValueLayout.JAVA_LONG;

import dev.linkproof.transfer.Deadline;
import dev.linkproof.transfer.Op;
import dev.linkproof.transfer.PeerFailureException;
import dev.linkproof.transfer.TransferException;
import dev.linkproof.transfer.TransferSpec;
import dev.linkproof.transfer.memory.Buffer;
import dev.linkproof.transfer.spi.DataPath;
import dev.linkproof.transfer.spi.IoSettings;
import dev.linkproof.transfer.spi.PeerLiveness;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.util.Map;

/**
 * The initiator's side of a libfabric point: endpoint e of one connection each addressing the target's
 * endpoint e, a batch laid out by {@link BatchPlan}, up to {@code pipelineDepth} batches in flight,
 * every op with its own {@code fi_context2} so a completion is credited to its batch in any order. A
 * WRITE asks {@code FI_DELIVERY_COMPLETE} (the data is in the target's memory for the checksums, not
 * only sent); a READ completes when its data is here, an atomic when its result is, a SEND when it
 * left (the target checks its receives: {@link LibfabricReceiver}). -FI_EAGAIN is retried after reading
 * completions, within the progress deadline; {@link #post()} and {@link #awaitOldest()} allocate nothing.
 */
final class LibfabricDataPath implements DataPath {
    private static final int ENTRIES = 64;
    private static final long WRITE_FLAGS = LibfabricAbi.FI_COMPLETION | LibfabricAbi.FI_DELIVERY_COMPLETE;

    private final FabricDomain domain;
    private final FabricCq cq;
    private final Arena arena = Arena.ofShared();
    private final Op op;
    private final int perBatch;
    private final int depth;
    /** Per op of a batch: its endpoint's address and the function it posts through. */
    private final long[] opEp;

    private final MemorySegment[] opFn;
    /** Per op: local address, length, local descriptor, peer, remote address, key (reads). */
    private final long[] opLocal;

    private final long[] opLength;
    private final long[] opDesc;
    private final long[] opPeer;
    private final long[] opRemote;
    private final long[] opKey;
    /** Per (ring, op): its context (reads, atomics) or its prepared struct fi_msg_rma (writes). */
    private final long contexts;

    private final long messages;
    private LibfabricAtomics atomics;
    private final long entries;
    private final MemorySegment entryView;
    private final int[] pendingCount;
    private final long timeoutNanos;
    private final PeerLiveness peer;
    private final String what;
    private long posted;
    private long completed;
    private int head;
    private int tail;
    private boolean failed;
    private boolean closed;

    /** One op's bytes of prepared message: fi_msg_rma, its iovec, its fi_rma_iov and its descriptor word. */
    private static final long MESSAGE_BYTES = 128;

    private LibfabricDataPath(TransferSpec spec, FabricDomain domain, int ops, IoSettings io) {
        this.domain = domain;
        this.cq = domain.cq;
        this.op = spec.op();
        this.perBatch = ops;
        this.depth = spec.pipelineDepth();
        opEp = new long[ops];
        opFn = new MemorySegment[ops];
        opLocal = new long[ops];
        opLength = new long[ops];
        opDesc = new long[ops];
        opPeer = new long[ops];
        opRemote = new long[ops];
        opKey = new long[ops];
        contexts = arena.allocate(LibfabricAbi.CONTEXT2_BYTES * ops * depth, 64).address();
        messages =
                op == Op.WRITE ? arena.allocate(MESSAGE_BYTES * ops * depth, 64).address() : 0;
        MemorySegment e = arena.allocate(cq.entryBytes * ENTRIES, 8);
        entries = e.address();
        entryView = MemorySegment.ofAddress(entries).reinterpret(e.byteSize());
        pendingCount = new int[depth];
        timeoutNanos = io.progressTimeout().toNanos();
        peer = io.peer();
        what = "libfabric " + op.label() + " batch of point " + spec.pointId();
    }

    static LibfabricDataPath connect(TransferSpec spec, Buffer local, Map<String, String> endpoint, IoSettings io)
            throws TransferException {
        TargetEndpoint target = TargetEndpoint.read(spec, endpoint);
        BatchPlan plan = BatchPlan.of(spec, Math.min(spec.connections(), target.names().length));
        int ops = plan.ops();
        int endpoints = plan.endpoints();
        FabricInfo info = FabricInfo.query(
                target.provider(),
                LibfabricSettings.caps(spec),
                LibfabricSettings.of(spec).domain().orElse(null));
        FabricDomain d = FabricDomain.open(
                info, LibfabricAbi.FI_CQ_FORMAT_CONTEXT, (long) ops * spec.pipelineDepth() + ENTRIES, endpoints);
        LibfabricDataPath path = new LibfabricDataPath(spec, d, ops, io);
        try {
            path.build(spec, local, target, plan);
            return path;
        } catch (TransferException | RuntimeException e) {
            path.failed = true;
            path.close();
            throw e;
        }
    }

    private void build(TransferSpec spec, Buffer local, TargetEndpoint target, BatchPlan plan)
            throws TransferException {
        boolean perEndpoint = FabricMemory.perEndpoint(domain.info);
        FabricRegion memory = FabricRegion.of(local);
        int endpoints = plan.endpoints();
        FabricEndpoint[] eps = new FabricEndpoint[endpoints];
        FabricMemory[] mrs = new FabricMemory[endpoints];
        long[] peers = new long[endpoints];
        for (int e = 0; e < endpoints; e++) {
            eps[e] = domain.endpoint();
            mrs[e] = perEndpoint || e == 0 ? domain.register(memory, e + 1, eps[e]) : mrs[0];
            peers[e] = domain.insert(target.names()[e]);
        }
        if (spec.op().atomic()) {
            atomics = new LibfabricAtomics(spec, local, eps, mrs, peers, target, domain.info.provider());
            return;
        }
        boolean send = op == Op.SEND;
        String fn = op == Op.WRITE ? "writemsg" : op == Op.READ ? "read" : "send";
        for (int k = 0; k < perBatch; k++) {
            int e = plan.endpoint(k);
            opEp[k] = eps[e].ep.address();
            opFn[k] = send
                    ? eps[e].function("msg", LibfabricAbi.FI_OPS_MSG, fn)
                    : eps[e].function("rma", LibfabricAbi.FI_OPS_RMA, fn);
            opLocal[k] = memory.address() + plan.offset(k);
            opLength[k] = plan.length(k);
            opDesc[k] = mrs[e].desc;
            opPeer[k] = peers[e];
            opRemote[k] = target.base() + plan.offset(k);
            opKey[k] = target.keys()[e];
        }
        if (op == Op.WRITE) {
            prepareMessages();
        }
    }

    /** Each (ring, op)'s struct fi_msg_rma with its one iovec, rma_iov and descriptor, its context the op's own. */
    private void prepareMessages() {
        MemorySegment m = MemorySegment.ofAddress(messages).reinterpret(MESSAGE_BYTES * perBatch * depth);
        for (int r = 0; r < depth; r++) {
            for (int k = 0; k < perBatch; k++) {
                long at = MESSAGE_BYTES * (r * perBatch + k);
                long iov = at + FI_MSG_RMA.byteSize();
                long rmaIov = iov + IOVEC.byteSize();
                long desc = rmaIov + FI_RMA_IOV.byteSize();
                m.set(JAVA_LONG, iov + offset(IOVEC, "iov_base"), opLocal[k]);
                m.set(JAVA_LONG, iov + offset(IOVEC, "iov_len"), opLength[k]);
                m.set(JAVA_LONG, rmaIov + offset(FI_RMA_IOV, "addr"), opRemote[k]);
                m.set(JAVA_LONG, rmaIov + offset(FI_RMA_IOV, "len"), opLength[k]);
                m.set(JAVA_LONG, rmaIov + offset(FI_RMA_IOV, "key"), opKey[k]);
                m.set(JAVA_LONG, desc, opDesc[k]);
                m.set(JAVA_LONG, at + offset(FI_MSG_RMA, "msg_iov"), messages + iov);
                m.set(JAVA_LONG, at + offset(FI_MSG_RMA, "desc"), messages + desc);
                m.set(JAVA_LONG, at + offset(FI_MSG_RMA, "iov_count"), 1);
                m.set(JAVA_LONG, at + offset(FI_MSG_RMA, "addr"), opPeer[k]);
                m.set(JAVA_LONG, at + offset(FI_MSG_RMA, "rma_iov"), messages + rmaIov);
                m.set(JAVA_LONG, at + offset(FI_MSG_RMA, "rma_iov_count"), 1);
                m.set(JAVA_LONG, at + offset(FI_MSG_RMA, "context"), context(r, k));
            }
        }
        if (MESSAGE_BYTES < FI_MSG_RMA.byteSize() + IOVEC.byteSize() + FI_RMA_IOV.byteSize() + 8) {
            throw new IllegalStateException("MESSAGE_BYTES too small for fi_msg_rma + iovec + fi_rma_iov + desc");
        }
    }

    private long context(int ring, int k) {
        return contexts + LibfabricAbi.CONTEXT2_BYTES * ((long) ring * perBatch + k);
    }

    @Override
    public void post() throws TransferException {
        int ring = head;
        try {
            pendingCount[ring] = perBatch;
            for (int k = 0; k < perBatch; k++) {
                long rc;
                long since = 0;
                if (atomics != null) {
                    atomics.prepare(ring, k);
                }
                while ((rc = postOne(ring, k)) == -LibfabricAbi.FI_EAGAIN) {
                    // Refused for now (no connection yet, a queue full): reading completions is the provider's
                    // progress.
                    since = drain() > 0 ? 0 : stalled(since);
                }
                if (rc < 0) {
                    throw new TransferException(what + ": " + opName() + " failed: "
                            + Libfabric.lib().strerror((int) -rc) + " (" + -rc + ")");
                }
            }
            head = ring + 1 == depth ? 0 : ring + 1;
            posted++;
        } catch (TransferException | RuntimeException e) {
            failed = true;
            throw e;
        }
    }

    private long postOne(int ring, int k) throws TransferException {
        try {
            if (atomics != null) {
                return atomics.post(ring, k, context(ring, k));
            }
            if (op == Op.WRITE) {
                return (long) Libfabric.RMA_MSG.invokeExact(
                        opFn[k], opEp[k], messages + MESSAGE_BYTES * ((long) ring * perBatch + k), WRITE_FLAGS);
            }
            if (op == Op.SEND) {
                return (long) Libfabric.MSG.invokeExact(
                        opFn[k], opEp[k], opLocal[k], opLength[k], opDesc[k], opPeer[k], context(ring, k));
            }
            return (long) Libfabric.RMA.invokeExact(
                    opFn[k],
                    opEp[k],
                    opLocal[k],
                    opLength[k],
                    opDesc[k],
                    opPeer[k],
                    opRemote[k],
                    opKey[k],
                    context(ring, k));
        } catch (TransferException | RuntimeException e) {
            throw e;
        } catch (Throwable t) {
            throw new TransferException(what + ": " + opName() + " downcall failed: " + t, t);
        }
    }

    private String opName() {
        return switch (op) {
            case WRITE -> "fi_writemsg";
            case READ -> "fi_read";
            case SEND -> "fi_send";
            case FETCH_ADD -> "fi_fetch_atomic";
            case COMPARE_SWAP -> "fi_compare_atomic";
            default -> op.label();
        };
    }

    @Override
    public void awaitOldest() throws TransferException {
        if (completed >= posted) {
            throw new IllegalStateException("awaitOldest() with no batch in flight");
        }
        int ring = tail;
        try {
            long since = 0;
            while (pendingCount[ring] > 0) {
                since = drain() > 0 ? 0 : stalled(since);
            }
        } catch (TransferException | RuntimeException e) {
            failed = true;
            throw e;
        }
        tail = ring + 1 == depth ? 0 : ring + 1;
        completed++;
    }

    /** Reads what completed, crediting each completion to its batch by its context; how many there were. */
    private int drain() throws TransferException {
        int n = cq.read(entries, ENTRIES, what);
        for (int i = 0; i < n; i++) {
            long ctx = entryView.get(JAVA_LONG, i * cq.entryBytes);
            long index = (ctx - contexts) / LibfabricAbi.CONTEXT2_BYTES;
            pendingCount[(int) (index / perBatch)]--;
        }
        return n;
    }

    /**
     * Nothing completed: fails once the peer is known gone or nothing moved for the progress deadline.
     * {@code since} is when the stall began (0: now); returns it.
     */
    private long stalled(long since) throws TransferException {
        String gone = peer.goneBecause();
        if (gone != null) {
            throw new PeerFailureException(what + ": " + gone);
        }
        long now = System.nanoTime();
        if (since == 0) {
            return now;
        }
        if (now - since > timeoutNanos) {
            throw new PeerFailureException("no completion on the libfabric endpoints of " + what + " for "
                            + timeoutNanos / 1_000_000 + " ms (" + posted + " batches posted, " + completed
                            + " complete): the target rank is hung or unreachable")
                    .expired(Deadline.PROGRESS);
        }
        Thread.onSpinWait();
        return since;
    }

    /** Endpoints first (which cancels what is outstanding), then the registrations and the domain; the local buffer is the session's. */
    @Override
    public void close() {
        if (closed) {
            return;
        }
        closed = true;
        try {
            domain.close();
        } finally {
            arena.close();
        }
    }
}
