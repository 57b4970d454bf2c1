package dev.linkproof.transfer.verbs;

import static dev.linkproof.transfer.verbs.VerbsAbi.*;
import static java.lang.foreign.ValueLayout.ADDRESS;
import static java.lang.foreign.ValueLayout.JAVA_INT;
import static java.lang.foreign.ValueLayout.JAVA_LONG;

import dev.linkproof.transfer.Op;
import dev.linkproof.transfer.TransferException;
import dev.linkproof.transfer.TransferSpec;
import dev.linkproof.transfer.memory.Buffer;
import dev.linkproof.transfer.spi.TargetContext;
import dev.linkproof.transfer.spi.TargetPoint;
import dev.linkproof.transfer.validate.CompletionCheck;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.time.Duration;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.logging.Level;
import java.util.logging.Logger;

/**
 * The target's side of a verbs point: the QPs in INIT with their numbers published in PREPARED;
 * {@link #accept} takes them to RTR/RTS. For WRITE and READ the target then does nothing: the NIC
 * serves. For SEND and WRITE_WITH_IMM one thread keeps the initiator's plan ({@link WorkPlan}) of
 * receives posted, re-posting each as it completes and checking it ({@link ReceiveChecker}); it
 * sleeps on the completion channel rather than busy-polls, so it cannot starve the initiator or
 * Soft-RoCE's kernel work of a CPU. {@link #completions} reports what the checker found.
 */
final class VerbsTargetPoint implements TargetPoint {
    private static final Logger LOG = Logger.getLogger(VerbsTargetPoint.class.getName());
    private static final int WC_BATCH = 32;

    private final TransferSpec spec;
    private final QpSet set;
    private final boolean twoSided;
    private final Arena arena = Arena.ofShared();
    private MemorySegment[][] recvWrs;
    private Thread receiver;
    private volatile boolean closed;
    /** Checks every receive completion against the plan; null for one-sided ops. */
    private final ReceiveChecker checker;

    private volatile boolean receiverDone;

    private VerbsTargetPoint(TransferSpec spec, QpSet set, WorkPlan plan, boolean twoSided) {
        this.spec = spec;
        this.set = set;
        this.twoSided = twoSided;
        this.checker = twoSided ? new ReceiveChecker(spec, plan, Immediates.forPoint(spec)) : null;
    }

    static VerbsTargetPoint open(TransferSpec spec, Buffer region, TargetContext context) throws TransferException {
        VerbsSettings settings = VerbsTransport.settings(spec);
        WorkPlan plan = WorkPlan.of(spec, settings);
        boolean twoSided = spec.op() == Op.SEND || spec.op() == Op.WRITE_WITH_IMM;
        int maxPerQp = plan.perQp().stream().mapToInt(List::size).max().orElse(1);
        // Receives for several batches ahead: the re-posting thread sleeps on the channel and may
        // wake late (a busy host, or TCG); RNR retries would cover a gap, but cost a timer each.
        int rounds = Math.max(spec.pipelineDepth() + 1, 16);
        int recvDepth =
                twoSided ? Math.min(rounds * maxPerQp, Math.max(4096, (spec.pipelineDepth() + 1) * maxPerQp)) : 1;
        QpSet set = new QpSet(
                spec,
                settings,
                region,
                plan.activeQps(),
                1,
                recvDepth,
                0,
                twoSided ? recvDepth * plan.activeQps() + 16 : 1,
                twoSided);
        VerbsTargetPoint point = new VerbsTargetPoint(spec, set, plan, twoSided);
        try {
            plan.checkMaxMessage(set.port.maxMessageSize(), set.where() + " on the target", spec, settings);
            if (twoSided) {
                point.postReceives(plan, recvDepth);
            }
            return point;
        } catch (TransferException | RuntimeException e) {
            point.close();
            throw e;
        }
    }

    /** Builds one receive per planned WR and posts as many rounds of them as the RQ holds (in INIT: allowed). */
    private void postReceives(WorkPlan plan, int recvDepth) throws TransferException {
        boolean withData = spec.op() == Op.SEND;
        long base = set.mr.address();
        recvWrs = new MemorySegment[plan.activeQps()][];
        for (int q = 0; q < plan.activeQps(); q++) {
            List<WorkPlan.Piece> pieces = plan.perQp().get(q);
            recvWrs[q] = new MemorySegment[pieces.size()];
            for (int i = 0; i < pieces.size(); i++) {
                WorkPlan.Piece p = pieces.get(i);
                MemorySegment wr = arena.allocate(RECV_WR_SIZE + SGE_SIZE, 8);
                MemorySegment sge = wr.asSlice(RECV_WR_SIZE, SGE_SIZE);
                sge.set(JAVA_LONG, SGE_ADDR, base + p.offset());
                sge.set(JAVA_INT, SGE_LENGTH, (int) p.length());
                sge.set(JAVA_INT, SGE_LKEY, set.mr.lkey());
                wr.set(JAVA_LONG, RECV_WR_WR_ID, ((long) q << 32) | i);
                wr.set(ADDRESS, RECV_WR_NEXT, MemorySegment.NULL);
                wr.set(ADDRESS, RECV_WR_SG_LIST, withData ? sge : MemorySegment.NULL);
                wr.set(JAVA_INT, RECV_WR_NUM_SGE, withData ? 1 : 0); // WRITE_WITH_IMM: the data goes by RDMA
                recvWrs[q][i] = wr;
            }
            VerbsDevice.QueuePair qp = set.qps.get(q);
            // No more than asked for (the CQ is sized by that), no more than the provider granted.
            int rounds = Math.max(1, Math.min(recvDepth, qp.maxRecvWr()) / Math.max(1, pieces.size()));
            for (int r = 0; r < rounds; r++) {
                for (MemorySegment wr : recvWrs[q]) {
                    post(qp, wr);
                }
            }
        }
    }

    private static void post(VerbsDevice.QueuePair qp, MemorySegment wr) throws TransferException {
        int rc = qp.postRecv(wr);
        if (rc != 0) {
            throw new TransferException("ibv_post_recv on QP " + qp.qpNum() + " failed: errno " + rc);
        }
    }

    @Override
    public Map<String, String> endpoint() {
        Map<String, String> e = new LinkedHashMap<>(set.endpoint());
        e.put("verbs.addr", Long.toHexString(set.mr.address()));
        e.put("verbs.rkey", Integer.toUnsignedString(set.mr.rkey()));
        return e;
    }

    @Override
    public Map<String, String> accept(Map<String, String> initiatorEndpoint) throws TransferException {
        set.connect(initiatorEndpoint);
        if (twoSided) {
            set.cq.arm();
            receiver = Thread.ofPlatform()
                    .daemon()
                    .name("verbs-recv-" + spec.pointId())
                    .start(this::receiveLoop);
        }
        return Map.of("verbs.mtu", Integer.toString(set.pathMtu), "verbs.connected", Integer.toString(set.qps.size()));
    }

    /** Re-posts every completed receive and checks it; sleeps on the completion channel in between. */
    private void receiveLoop() {
        try (Arena local = Arena.ofConfined()) {
            MemorySegment wcs = local.allocate(WC_SIZE * WC_BATCH, 8);
            while (!closed) {
                int n = set.cq.poll(WC_BATCH, wcs);
                if (n < 0) {
                    LOG.warning("ibv_poll_cq on the target failed: " + n);
                    return;
                }
                if (n == 0) {
                    set.cq.arm();
                    n = set.cq.poll(WC_BATCH, wcs); // a completion between the poll and the arm
                    if (n == 0) {
                        set.cq.awaitEvent(100); // bounded, so close() is seen within 100 ms
                        continue;
                    }
                }
                for (int i = 0; i < n; i++) {
                    long base = i * WC_SIZE;
                    int status = wcs.get(JAVA_INT, base + WC_STATUS);
                    long id = wcs.get(JAVA_LONG, base + WC_WR_ID);
                    int q = (int) (id >>> 32);
                    if (status != WC_SUCCESS) {
                        if (!closed) {
                            LOG.warning("receive completion with error on the target: "
                                    + set.device.lib().wcStatus(status) + ", wr_id " + Long.toHexString(id));
                            checker.failed(q, status);
                        }
                        return; // the QP is in error: the initiator sees it as a failed or silent peer
                    }
                    checker.accept(
                            q,
                            wcs.get(JAVA_INT, base + WC_OPCODE),
                            Integer.toUnsignedLong(wcs.get(JAVA_INT, base + WC_BYTE_LEN)),
                            (wcs.get(JAVA_INT, base + WC_WC_FLAGS) & (int) WC_FLAG_WITH_IMM) != 0,
                            wcs.get(JAVA_INT, base + WC_IMM_DATA));
                    post(set.qps.get(q), recvWrs[q][(int) id]);
                }
            }
        } catch (TransferException | RuntimeException e) {
            if (!closed) {
                LOG.log(Level.WARNING, "verbs receive loop failed", e);
            }
        } finally {
            receiverDone = true;
        }
    }

    /**
     * Waits until the receives of {@code batches} batches have completed (or the receive thread
     * stopped, or {@code deadline} passed) and reports what {@link ReceiveChecker} found; a short count is
     * one more failure.
     */
    @Override
    public CompletionCheck completions(long batches, Duration deadline) {
        if (!twoSided) {
            return CompletionCheck.NONE;
        }
        long end = System.nanoTime() + deadline.toNanos();
        try {
            while (receiver != null
                    && checker.received() < checker.expected(batches)
                    && !receiverDone
                    && System.nanoTime() - end < 0) {
                Thread.sleep(1);
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        return checker.report(batches);
    }

    @Override
    public void close() {
        closed = true;
        if (receiver != null) {
            try {
                receiver.join(5000);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
        // The region is freed after this returns: the MR (and every QP that could still write into
        // it) goes first.
        set.close();
        if (arena.scope().isAlive()) {
            arena.close();
        }
    }

    @Override
    public String toString() {
        return "verbs target " + spec.pointId() + " on " + set.describe()
                + (checker == null ? "" : ", " + checker.received() + " receives completed") + ", rkey "
                + HexFormat.of().toHexDigits(set.mr.rkey());
    }
}
