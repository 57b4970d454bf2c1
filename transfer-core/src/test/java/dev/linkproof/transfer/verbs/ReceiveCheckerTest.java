package dev.linkproof.transfer.verbs;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.linkproof.transfer.Layout;
import dev.linkproof.transfer.Op;
import dev.linkproof.transfer.TransferSpec;
import dev.linkproof.transfer.validate.CompletionCheck;
import dev.linkproof.transfer.validate.CompletionMismatch;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;

/** The target's receive-completion check, fed the completions a device would give (no device needed). */
class ReceiveCheckerTest {
    private static final int RECV = (int) VerbsAbi.WC_OPCODE_RECV;
    private static final int RECV_IMM = (int) VerbsAbi.WC_OPCODE_RECV_RDMA_WITH_IMM;

    /** 4 slots of 4097 bytes, one WR each, over 2 QPs: QP 0 has slots 0-1, QP 1 slots 2-3. */
    private static TransferSpec spec(Op op) {
        return TransferSpec.builder()
                .pointId("imm-point")
                .transport("verbs")
                .op(op)
                .size(4097)
                .batch(4)
                .connections(2)
                .layout(Layout.CONTIGUOUS)
                .settings(Map.of("verbs.merge", "false"))
                .build();
    }

    private static WorkPlan plan(TransferSpec s) {
        return WorkPlan.of(s, VerbsSettings.of(s));
    }

    /** What a correct initiator and device produce for {@code batches} batches, QP 0's completions first. */
    private static void feedCorrect(ReceiveChecker c, TransferSpec s, long batches, Immediates imm) {
        WorkPlan p = plan(s);
        for (long b = 0; b < batches; b++) {
            for (int q = 0; q < p.activeQps(); q++) {
                List<WorkPlan.Piece> pieces = p.perQp().get(q);
                for (int k = 0; k < pieces.size(); k++) {
                    WorkPlan.Piece piece = pieces.get(k);
                    boolean withImm = s.op() == Op.WRITE_WITH_IMM;
                    c.accept(
                            q,
                            withImm ? RECV_IMM : RECV,
                            piece.length(),
                            withImm,
                            withImm ? imm.immediate(b, p.firstWorkRequest(q) + k, piece.slot()) : 0);
                }
            }
        }
    }

    @Test
    void correctCompletionsPass() {
        for (Op op : new Op[] {Op.SEND, Op.WRITE_WITH_IMM}) {
            TransferSpec s = spec(op);
            ReceiveChecker c = new ReceiveChecker(s, plan(s), Immediates.forPoint(s));
            feedCorrect(c, s, 12, Immediates.forPoint(s));
            CompletionCheck r = c.report(12);
            assertThat(r.passed()).as(op.label()).isTrue();
            assertThat(r.checked()).isEqualTo(48);
            assertThat(r.first()).isNull();
        }
    }

    @Test
    void aWrongImmediateIsCaughtNamingSlotBatchQueuePairAndBothValues() {
        TransferSpec s = spec(Op.WRITE_WITH_IMM);
        Immediates right = Immediates.forPoint(s);
        Immediates wrong = (b, w, slot) ->
                b == 11 && slot == 3 ? right.immediate(b, w, slot) ^ 0x10000 : right.immediate(b, w, slot);
        ReceiveChecker c = new ReceiveChecker(s, plan(s), right);
        feedCorrect(c, s, 12, wrong);
        CompletionCheck r = c.report(12);
        assertThat(r.passed()).isFalse();
        assertThat(r.bad()).isEqualTo(1);
        CompletionMismatch m = r.first();
        assertThat(m.field()).isEqualTo(CompletionMismatch.IMMEDIATE);
        assertThat(m.slot()).isEqualTo(3);
        assertThat(m.batch()).isEqualTo(11);
        assertThat(m.queuePair()).isEqualTo(1);
        assertThat(m.workRequest()).isEqualTo(3);
        assertThat(m.expected() ^ m.found()).isEqualTo(0x10000);
        assertThat(r.describe())
                .startsWith("completion mismatch: 1 of 48 receive completion(s) wrong; first at "
                        + "slot 3 (batch 11, QP 1, work request 3): immediate expected 0x");
    }

    @Test
    void aConstantOrMissingImmediateIsCaught() {
        TransferSpec s = spec(Op.WRITE_WITH_IMM);
        ReceiveChecker constant = new ReceiveChecker(s, plan(s), Immediates.forPoint(s));
        feedCorrect(constant, s, 3, (b, w, slot) -> 42);
        assertThat(constant.report(3).bad()).isEqualTo(12);

        ReceiveChecker none = new ReceiveChecker(s, plan(s), Immediates.forPoint(s));
        none.accept(0, RECV_IMM, 4097, false, 0);
        assertThat(none.report(1).first().describe())
                .endsWith("immediate expected 0x"
                        + String.format("%08x", Immediates.forPoint(s).immediate(0, 0, 0))
                        + ", found none (the completion carries no immediate)");
    }

    @Test
    void wrongOpcodeAndByteCountAreCaught() {
        TransferSpec s = spec(Op.SEND);
        ReceiveChecker opcode = new ReceiveChecker(s, plan(s), Immediates.forPoint(s));
        opcode.accept(0, RECV_IMM, 4097, false, 0);
        assertThat(opcode.report(0).first().describe())
                .isEqualTo("slot 0 (batch 0, QP 0, work request 0): opcode expected 128, found 129");

        ReceiveChecker length = new ReceiveChecker(s, plan(s), Immediates.forPoint(s));
        length.accept(0, RECV, 4097, false, 0);
        length.accept(1, RECV, 4097, false, 0);
        length.accept(1, RECV, 4096, false, 0);
        assertThat(length.report(0).first().describe())
                .isEqualTo("slot 3 (batch 0, QP 1, work request 3): byte_len expected 4097, found 4096");
    }

    @Test
    void missingCompletionsAndErrorStatusAreFailures() {
        TransferSpec s = spec(Op.SEND);
        ReceiveChecker c = new ReceiveChecker(s, plan(s), Immediates.forPoint(s));
        feedCorrect(c, s, 2, Immediates.forPoint(s));
        CompletionCheck shortCount = c.report(3);
        assertThat(shortCount.bad()).isEqualTo(1);
        assertThat(shortCount.first().describe())
                .isEqualTo("8 of 12 receive completions arrived (the rest did not come within the deadline)");

        c.failed(1, 5);
        assertThat(c.report(2).first().describe())
                .isEqualTo("slot 2 (batch 2, QP 1, work request 2): status expected 0, found 5");
    }

    @Test
    void oneSidedOpsHaveNoReceivesToCheck() {
        TransferSpec s = spec(Op.WRITE);
        assertThatThrownBy(() -> new ReceiveChecker(s, plan(s), Immediates.forPoint(s)))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("write has no receive completions");
    }

    @Test
    void immediatesDependOnPointBatchAndWorkRequest() {
        Immediates a = Immediates.forPoint(spec(Op.WRITE_WITH_IMM));
        Immediates b = Immediates.forPoint(TransferSpec.builder()
                .pointId("other-point")
                .transport("verbs")
                .op(Op.WRITE_WITH_IMM)
                .build());
        Set<Integer> seen = new HashSet<>();
        for (long batch = 0; batch < 64; batch++) {
            for (int wr = 0; wr < 64; wr++) {
                seen.add(a.immediate(batch, wr, wr));
            }
        }
        assertThat(seen)
                .as("distinct immediates over 64 batches x 64 work requests")
                .hasSizeGreaterThan(4090);
        assertThat(a.immediate(5, 1, 1))
                .isEqualTo(Immediates.forPoint(spec(Op.WRITE_WITH_IMM)).immediate(5, 1, 1));
        assertThat(a.immediate(5, 1, 1)).isNotEqualTo(b.immediate(5, 1, 1));
    }
}
