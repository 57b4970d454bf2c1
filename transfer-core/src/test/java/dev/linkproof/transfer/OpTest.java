package dev.linkproof.transfer;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

class OpTest {
    @Test
    void onlyReadIsOwnedByTheTarget() {
        assertThat(Op.READ.ownerRank()).isEqualTo(Ranks.TARGET);
        assertThat(Op.WRITE.ownerRank()).isEqualTo(Ranks.INITIATOR);
        assertThat(Op.SEND.ownerRank()).isEqualTo(Ranks.INITIATOR);
        assertThat(Op.WRITE_WITH_IMM.ownerRank()).isEqualTo(Ranks.INITIATOR);
    }

    @Test
    void labelsAndParsing() {
        assertThat(Op.WRITE_WITH_IMM.label()).isEqualTo("write-with-imm");
        assertThat(Op.parse("write-with-imm")).isEqualTo(Op.WRITE_WITH_IMM);
        assertThat(Op.parse("WRITE_WITH_IMM")).isEqualTo(Op.WRITE_WITH_IMM);
        assertThat(Op.parse("Read")).isEqualTo(Op.READ);
        for (Op op : Op.values()) {
            assertThat(Op.parse(op.label())).isEqualTo(op);
        }
        assertThatThrownBy(() -> Op.parse("atomic"))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("unknown op 'atomic'");
    }

    @Test
    void rankNames() {
        assertThat(Ranks.name(Ranks.INITIATOR)).isEqualTo("initiator");
        assertThat(Ranks.name(Ranks.TARGET)).isEqualTo("target");
    }
}
