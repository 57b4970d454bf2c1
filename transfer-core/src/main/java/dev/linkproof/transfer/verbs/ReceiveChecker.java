package dev.linkproof.transfer.verbs;

import dev.linkproof.transfer.Op;
import dev.linkproof.transfer.TransferSpec;
import dev.linkproof.transfer.validate.CompletionCheck;
import dev.linkproof.transfer.validate.CompletionMismatch;
import java.util.List;
import java.util.stream.IntStream;

/**
 * The target's check of its receive completions (SEND and WRITE_WITH_IMM) against the plan both
 * ranks computed. Receives complete in order on an RC queue pair, so the n-th completion on QP q is
 * work request {@code n mod W} of batch {@code n / W} (W: the QP's share of a batch): its opcode
 * must be RECV or RECV_RDMA_WITH_IMM, its byte count that work request's length, and its immediate
 * what {@link Immediates} gives. Wrong completions are counted and the first is kept. One thread
 * (the target's receive loop) calls {@link #accept} and {@link #failed}; any thread may read
 * {@link #received} and {@link #report}.
 */
final class ReceiveChecker {
    private final long[][] length;
    private final int[][] wrIndex;
    private final int[][] wrSlot;
    private final int workRequests;
    private final int expectedOpcode;
    private final Immediates immediates;
    /** Completions seen per QP; written by the receive thread only. */
    private final long[] perQp;

    private volatile long received;
    private volatile long bad;
    private volatile CompletionMismatch first;

    ReceiveChecker(TransferSpec spec, WorkPlan plan, Immediates immediates) {
        if (spec.op() != Op.SEND && spec.op() != Op.WRITE_WITH_IMM) {
            throw new IllegalArgumentException(spec.op().label() + " has no receive completions to check");
        }
        int n = plan.activeQps();
        length = new long[n][];
        wrIndex = new int[n][];
        wrSlot = new int[n][];
        for (int q = 0; q < n; q++) {
            List<WorkPlan.Piece> pieces = plan.perQp().get(q);
            length[q] = pieces.stream().mapToLong(WorkPlan.Piece::length).toArray();
            wrSlot[q] = pieces.stream().mapToInt(WorkPlan.Piece::slot).toArray();
            int firstWr = plan.firstWorkRequest(q);
            wrIndex[q] = IntStream.range(0, pieces.size()).map(k -> firstWr + k).toArray();
        }
        workRequests = plan.workRequests();
        perQp = new long[n];
        boolean imm = spec.op() == Op.WRITE_WITH_IMM;
        expectedOpcode = (int) (imm ? VerbsAbi.WC_OPCODE_RECV_RDMA_WITH_IMM : VerbsAbi.WC_OPCODE_RECV);
        this.immediates = imm ? immediates : null;
    }

    /** One successful receive completion on QP {@code q}, its fields as the work completion has them. */
    void accept(int q, int opcode, long byteLen, boolean withImm, int imm) {
        check(q, opcode, byteLen, withImm, imm);
        perQp[q]++;
        received++;
    }

    private void check(int q, int opcode, long byteLen, boolean withImm, int imm) {
        if (opcode != expectedOpcode) {
            recordBad(q, CompletionMismatch.OPCODE, expectedOpcode, opcode);
            return;
        }
        int k = (int) (perQp[q] % length[q].length);
        if (byteLen != length[q][k]) {
            recordBad(q, CompletionMismatch.BYTE_LEN, length[q][k], byteLen);
            return;
        }
        if (immediates != null) {
            int expected = immediates.immediate(perQp[q] / length[q].length, wrIndex[q][k], wrSlot[q][k]);
            if (!withImm || imm != expected) {
                // -1: the completion carried no immediate at all (IBV_WC_WITH_IMM unset)
                recordBad(
                        q,
                        CompletionMismatch.IMMEDIATE,
                        Integer.toUnsignedLong(expected),
                        withImm ? Integer.toUnsignedLong(imm) : -1);
            }
        }
    }

    /** A receive completion with error status {@code status} on QP {@code q}: the QP is in error, no more will come. */
    void failed(int q, int status) {
        if (q >= 0 && q < perQp.length) {
            recordBad(q, CompletionMismatch.STATUS, VerbsAbi.WC_SUCCESS, status);
        }
    }

    /** Counts a wrong completion (the next one due on QP {@code q}) and keeps the first. */
    private void recordBad(int q, String field, long expected, long found) {
        int k = (int) (perQp[q] % length[q].length);
        if (first == null) {
            first = new CompletionMismatch(
                    wrSlot[q][k], perQp[q] / length[q].length, q, wrIndex[q][k], field, expected, found);
        }
        bad++;
    }

    long received() {
        return received;
    }

    /** How many completions {@code batches} batches make. */
    long expected(long batches) {
        return batches * workRequests;
    }

    /** What was found so far; fewer completions than {@code batches} batches need is one more failure. */
    CompletionCheck report(long batches) {
        long got = received;
        long wrong = bad;
        CompletionMismatch f = first;
        long want = expected(batches);
        if (got < want) {
            wrong++;
            if (f == null) {
                f = new CompletionMismatch(-1, -1, -1, -1, CompletionMismatch.COUNT, want, got);
            }
        }
        return new CompletionCheck(got, wrong, f);
    }
}
