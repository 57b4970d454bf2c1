package dev.linkproof.transfer.libfabric;

import dev.linkproof.transfer.TransferException;
import dev.linkproof.transfer.validate.CompletionCheck;
import dev.linkproof.transfer.validate.CompletionMismatch;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;

/**
 * The target's receives of a SEND point: one per transfer of the batch ({@link BatchPlan}), on the
 * endpoint its send comes to, {@code pipelineDepth} deep, reposted as each completes. Untagged receives
 * match in posting order and the provider was asked for FI_ORDER_SAS, so the n-th message on an
 * endpoint lands where the plan puts it. Each completion's length is checked ({@link CompletionCheck});
 * the data by the checksums. The progress thread posts and reposts; any thread may read the counts.
 */
final class LibfabricReceiver {
    private final BatchPlan plan;
    private final int depth;
    private final long[] epAddress;
    private final MemorySegment[] recv;
    private final long[] desc;
    private final long regionAddress;
    /** Per receive (copy c of op k at c·ops + k): its fi_context2, whose address is the completion's context. */
    private final long contexts;
    /** Receives refused for now (-FI_EAGAIN), reposted on the next progress round; a stack of receive indices. */
    private final int[] backlog;

    private int backlogSize;
    /** Completions per op, written by the progress thread only. */
    private final long[] perOp;

    private volatile long received;
    private volatile long bad;
    private volatile CompletionMismatch first;

    LibfabricReceiver(
            BatchPlan plan, int depth, FabricEndpoint[] eps, FabricMemory[] mrs, long regionAddress, Arena arena) {
        this.plan = plan;
        this.depth = depth;
        this.epAddress = new long[plan.endpoints()];
        this.recv = new MemorySegment[plan.endpoints()];
        this.desc = new long[plan.endpoints()];
        for (int e = 0; e < plan.endpoints(); e++) {
            epAddress[e] = eps[e].ep.address();
            recv[e] = eps[e].function("msg", LibfabricAbi.FI_OPS_MSG, "recv");
            desc[e] = mrs[e].desc;
        }
        this.regionAddress = regionAddress;
        int receives = plan.ops() * depth;
        this.contexts =
                arena.allocate(LibfabricAbi.CONTEXT2_BYTES * receives, 64).address();
        this.backlog = new int[receives];
        this.perOp = new long[plan.ops()];
    }

    /** Posts every receive of the first {@code depth} batches, in plan order per endpoint. */
    void postAll() throws TransferException {
        for (int i = 0; i < plan.ops() * depth; i++) {
            post(i);
        }
    }

    private void post(int i) throws TransferException {
        int k = i % plan.ops();
        int e = plan.endpoint(k);
        long rc;
        try {
            rc = (long) Libfabric.MSG.invokeExact(
                    recv[e],
                    epAddress[e],
                    regionAddress + plan.offset(k),
                    plan.length(k),
                    desc[e],
                    LibfabricAbi.FI_ADDR_UNSPEC,
                    context(i));
        } catch (Throwable t) {
            throw new TransferException("fi_recv downcall failed: " + t, t);
        }
        if (rc == -LibfabricAbi.FI_EAGAIN) {
            backlog[backlogSize++] = i;
        } else if (rc < 0) {
            throw new TransferException("fi_recv failed: " + Libfabric.lib().strerror((int) -rc) + " (" + -rc + ")");
        }
    }

    /** Receive {@code i}'s context: the address its completion carries. */
    long context(int i) {
        return contexts + LibfabricAbi.CONTEXT2_BYTES * i;
    }

    /** Reposts what was refused for now; called by the progress thread each round. */
    void retryBacklog() throws TransferException {
        int n = backlogSize;
        backlogSize = 0;
        for (int j = 0; j < n; j++) {
            post(backlog[j]);
        }
    }

    /** One receive completion: its context and length, checked against the plan; the receive posted again. */
    void accept(long context, long length) throws TransferException {
        int i = (int) ((context - contexts) / LibfabricAbi.CONTEXT2_BYTES);
        int k = i % plan.ops();
        long batch = perOp[k]++;
        if (length != plan.length(k)) {
            mismatch(new CompletionMismatch(
                    plan.slot(k), batch, plan.endpoint(k), k, CompletionMismatch.BYTE_LEN, plan.length(k), length));
        }
        received++;
        post(i);
    }

    /** An error completion on this side: counted as one wrong completion. */
    void failed() {
        mismatch(new CompletionMismatch(-1, -1, -1, -1, CompletionMismatch.STATUS, 0, -1));
    }

    private void mismatch(CompletionMismatch m) {
        if (first == null) {
            first = m;
        }
        bad++;
    }

    long received() {
        return received;
    }

    long expected(long batches) {
        return batches * plan.ops();
    }

    CompletionCheck report(long batches) {
        long expected = expected(batches);
        long got = received;
        long wrong = bad + (got < expected ? 1 : 0);
        CompletionMismatch f = first != null
                ? first
                : got < expected
                        ? new CompletionMismatch(-1, -1, -1, -1, CompletionMismatch.COUNT, expected, got)
                        : null;
        return new CompletionCheck(Math.max(got, expected), wrong, f);
    }
}
