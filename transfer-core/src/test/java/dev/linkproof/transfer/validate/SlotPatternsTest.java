package dev.linkproof.transfer.validate;

import static org.assertj.core.api.Assertions.assertThat;

import dev.linkproof.transfer.Layout;
import dev.linkproof.transfer.Ranks;
import dev.linkproof.transfer.TransferSpec;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.util.Optional;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

class SlotPatternsTest {
    private final Arena arena = Arena.ofConfined();

    @AfterEach
    void free() {
        arena.close();
    }

    private final TransferSpec spec = TransferSpec.builder()
            .pointId("C#m[op=write,size=4097]")
            .size(4097)
            .batch(3)
            .offset(5)
            .layout(Layout.STRIDED)
            .build();

    private MemorySegment region() {
        return arena.allocate(spec.slots().regionBytes());
    }

    @Test
    void intactSlotsLocateNothing() {
        MemorySegment s = region();
        SlotPatterns.fill(s, spec, Ranks.INITIATOR, 0);
        for (int slot = 0; slot < spec.batch(); slot++) {
            assertThat(SlotPatterns.locate(s, spec, slot, Ranks.INITIATOR, 0))
                    .as("slot %d", slot)
                    .isEmpty();
        }
    }

    @Test
    void fillUsesTheSeedOfEachSlot() {
        MemorySegment s = region();
        SlotPatterns.fill(s, spec, Ranks.TARGET, 2);
        long hash = Pattern.pointHash(spec.pointId());
        for (int slot = 0; slot < spec.batch(); slot++) {
            long seed = Pattern.seed(Ranks.TARGET, hash, slot, 2);
            assertThat(Pattern.firstMismatch(s, spec.slots().slotOffset(slot), spec.size(), seed))
                    .isEqualTo(-1);
        }
    }

    @Test
    void locatesAnInjectedCorruptionBySlotAndOffset() {
        MemorySegment s = region();
        SlotPatterns.fill(s, spec, Ranks.INITIATOR, 1);
        long at = spec.slots().slotOffset(1) + 4096; // the slot's tail byte
        byte original = s.get(ValueLayout.JAVA_BYTE, at);
        s.set(ValueLayout.JAVA_BYTE, at, (byte) ~original);

        assertThat(SlotPatterns.locate(s, spec, 0, Ranks.INITIATOR, 1)).isEmpty();
        assertThat(SlotPatterns.locate(s, spec, 2, Ranks.INITIATOR, 1)).isEmpty();
        Optional<Mismatch> m = SlotPatterns.locate(s, spec, 1, Ranks.INITIATOR, 1);
        assertThat(m).contains(new Mismatch(1, 4096, original & 0xFF, ~original & 0xFF));
        assertThat(m.orElseThrow().describe())
                .isEqualTo(String.format(
                        "slot 1, byte offset 4096: expected 0x%02x, found 0x%02x", original & 0xFF, ~original & 0xFF));
    }

    @Test
    void staleGenerationOrWrongOwnerIsCaught() {
        MemorySegment s = region();
        SlotPatterns.fill(s, spec, Ranks.INITIATOR, 0);
        assertThat(SlotPatterns.locate(s, spec, 0, Ranks.INITIATOR, 1)).isPresent();
        assertThat(SlotPatterns.locate(s, spec, 0, Ranks.TARGET, 0)).isPresent();
        assertThat(SlotPatterns.locate(s, spec.withPointId("other"), 0, Ranks.INITIATOR, 0))
                .isPresent();
    }

    @Test
    void slotsSwappedInPlaceAreCaught() {
        TransferSpec contiguous =
                TransferSpec.builder().pointId("swap").size(64).batch(2).build();
        MemorySegment s = arena.allocate(contiguous.slots().regionBytes());
        SlotPatterns.fill(s, contiguous, Ranks.INITIATOR, 0);
        byte[] first = s.asSlice(0, 64).toArray(ValueLayout.JAVA_BYTE);
        s.asSlice(0, 64).copyFrom(s.asSlice(64, 64));
        s.asSlice(64, 64).copyFrom(MemorySegment.ofArray(first));
        assertThat(SlotPatterns.locate(s, contiguous, 0, Ranks.INITIATOR, 0)).isPresent();
        assertThat(SlotPatterns.locate(s, contiguous, 1, Ranks.INITIATOR, 0)).isPresent();
    }

    @Test
    void validationDescribesItsOutcome() {
        Validation ok = new Validation(3, 12291, 0, Optional.empty());
        assertThat(ok.passed()).isTrue();
        assertThat(ok.describe()).isEqualTo("data valid: 3 slot(s), 12291 bytes, checksums match");

        Validation bad = new Validation(3, 12291, 2, Optional.of(new Mismatch(1, 17, 0xab, 0x00)));
        assertThat(bad.passed()).isFalse();
        assertThat(bad.describe())
                .isEqualTo(
                        "data corruption: 2 of 3 slot(s) differ; first at slot 1, byte offset 17: expected 0xab, found"
                                + " 0x00");
        assertThat(new Validation(1, 1, 1, Optional.empty()).describe()).endsWith("an unlocated byte");
    }

    @Test
    void aWrongCompletionFailsTheValidationEvenWhenTheDataMatches() {
        CompletionMismatch imm =
                new CompletionMismatch(3, 11, 1, 3, CompletionMismatch.IMMEDIATE, 0x0a0b0c0dL, 0x0a0a0c0dL);
        Validation bad = new Validation(4, 16388, 0, Optional.empty(), new CompletionCheck(48, 1, imm));
        assertThat(bad.passed()).isFalse();
        assertThat(bad.describe())
                .isEqualTo("completion mismatch: 1 of 48 receive completion(s) wrong; first at "
                        + "slot 3 (batch 11, QP 1, work request 3): immediate expected 0x0a0b0c0d, found 0x0a0a0c0d"
                        + " (data valid: 4 slot(s), 16388 bytes, checksums match)");

        Validation both = new Validation(
                4,
                16388,
                1,
                Optional.of(new Mismatch(0, 5, 1, 2)),
                new CompletionCheck(48, 1, new CompletionMismatch(-1, -1, -1, -1, CompletionMismatch.COUNT, 48, 47)));
        assertThat(both.describe())
                .isEqualTo("completion mismatch: 1 of 48 receive completion(s) wrong; first at 47 of 48 receive"
                        + " completions arrived (the rest did not come within the deadline); data corruption: 1 of"
                        + " 4 slot(s) differ; first at slot 0, byte offset 5: expected 0x01, found 0x02");

        Validation ok = new Validation(4, 16388, 0, Optional.empty(), new CompletionCheck(48, 0, null));
        assertThat(ok.passed()).isTrue();
        assertThat(ok.describe())
                .isEqualTo("data valid: 4 slot(s), 16388 bytes, checksums match; "
                        + "48 receive completion(s) as planned");
    }
}
