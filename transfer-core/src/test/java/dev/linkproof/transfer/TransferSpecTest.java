package dev.linkproof.transfer;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatCode;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.HashMap;
import java.util.Map;
import java.util.function.UnaryOperator;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

class TransferSpecTest {

    @Test
    void builderDefaultsAreAValidStopAndWaitWrite() {
        TransferSpec s = TransferSpec.builder().build();
        assertThat(s.transport()).isEqualTo("tcp");
        assertThat(s.op()).isEqualTo(Op.WRITE);
        assertThat(s.mode()).isEqualTo(Mode.BANDWIDTH);
        assertThat(s.batch()).isEqualTo(1);
        assertThat(s.connections()).isEqualTo(1);
        assertThat(s.pipelineDepth()).isEqualTo(1);
        assertThat(s.layout()).isEqualTo(Layout.CONTIGUOUS);
        assertThat(s.initiatorMemory()).isEqualTo(MemoryPlacement.HOST);
        assertThat(s.targetMemory()).isEqualTo(MemoryPlacement.HOST);
        assertThat(s.settings()).isEmpty();
    }

    static Stream<Arguments> outOfRange() {
        return Stream.of(
                Arguments.of(
                        "size",
                        (UnaryOperator<TransferSpec.Builder>) b -> b.size(0),
                        "size 0 out of range 1..1073741824"),
                Arguments.of(
                        "size",
                        (UnaryOperator<TransferSpec.Builder>) b -> b.size(-5),
                        "size -5 out of range 1..1073741824"),
                Arguments.of(
                        "size",
                        (UnaryOperator<TransferSpec.Builder>) b -> b.size(TransferSpec.MAX_SIZE + 1),
                        "size 1073741825 out of range 1..1073741824"),
                Arguments.of(
                        "batch",
                        (UnaryOperator<TransferSpec.Builder>) b -> b.batch(0),
                        "batch 0 out of range 1..65536"),
                Arguments.of(
                        "batch",
                        (UnaryOperator<TransferSpec.Builder>) b -> b.size(1).batch(TransferSpec.MAX_BATCH + 1),
                        "batch 65537 out of range 1..65536"),
                Arguments.of(
                        "connections",
                        (UnaryOperator<TransferSpec.Builder>) b -> b.connections(0),
                        "connections 0 out of range 1..256"),
                Arguments.of(
                        "connections",
                        (UnaryOperator<TransferSpec.Builder>) b -> b.connections(257),
                        "connections 257 out of range 1..256"),
                Arguments.of(
                        "pipeline depth",
                        (UnaryOperator<TransferSpec.Builder>) b -> b.pipelineDepth(0),
                        "pipeline depth 0 out of range 1..1024"),
                Arguments.of(
                        "pipeline depth",
                        (UnaryOperator<TransferSpec.Builder>) b -> b.pipelineDepth(1025),
                        "pipeline depth 1025 out of range 1..1024"),
                Arguments.of(
                        "iterations",
                        (UnaryOperator<TransferSpec.Builder>) b -> b.iterations(0),
                        "iterations 0 out of range 1..1000000000"),
                Arguments.of(
                        "warmup",
                        (UnaryOperator<TransferSpec.Builder>) b -> b.warmup(-1),
                        "warmup -1 out of range 0..1000000000"),
                Arguments.of(
                        "offset",
                        (UnaryOperator<TransferSpec.Builder>) b -> b.offset(-1),
                        "offset -1 out of range 0..4095"),
                Arguments.of(
                        "offset",
                        (UnaryOperator<TransferSpec.Builder>) b -> b.offset(4096),
                        "offset 4096 out of range 0..4095"));
    }

    @ParameterizedTest(name = "{0}: {2}")
    @MethodSource("outOfRange")
    void everyRangeCheckNamesItsField(String field, UnaryOperator<TransferSpec.Builder> change, String message) {
        assertThatThrownBy(() -> change.apply(TransferSpec.builder()).build())
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageStartingWith(field + " ")
                .hasMessage(message);
    }

    @Test
    void boundaryValuesAreAccepted() {
        assertThatCode(() -> TransferSpec.builder().size(1).build()).doesNotThrowAnyException();
        assertThatCode(() -> TransferSpec.builder().size(TransferSpec.MAX_SIZE).build())
                .doesNotThrowAnyException();
        assertThatCode(() -> TransferSpec.builder()
                        .size(1)
                        .batch(TransferSpec.MAX_BATCH)
                        .build())
                .doesNotThrowAnyException();
        assertThatCode(() -> TransferSpec.builder()
                        .connections(TransferSpec.MAX_CONNECTIONS)
                        .build())
                .doesNotThrowAnyException();
        assertThatCode(() -> TransferSpec.builder()
                        .pipelineDepth(TransferSpec.MAX_PIPELINE)
                        .build())
                .doesNotThrowAnyException();
        assertThatCode(() -> TransferSpec.builder().iterations(1).warmup(0).build())
                .doesNotThrowAnyException();
        assertThatCode(() -> TransferSpec.builder().offset(4095).build()).doesNotThrowAnyException();
    }

    @Test
    void requiredFieldsAreNamed() {
        assertThatThrownBy(() -> TransferSpec.builder().pointId(null).build()).hasMessage("pointId is required");
        assertThatThrownBy(() -> TransferSpec.builder().pointId("  ").build()).hasMessage("pointId is required");
        assertThatThrownBy(() -> TransferSpec.builder().transport("").build()).hasMessage("transport is required");
        assertThatThrownBy(() -> TransferSpec.builder().op(null).build()).hasMessage("op is required");
        assertThatThrownBy(() -> TransferSpec.builder().mode(null).build()).hasMessage("mode is required");
        assertThatThrownBy(() -> TransferSpec.builder().layout(null).build()).hasMessage("layout is required");
        assertThatThrownBy(() -> TransferSpec.builder().targetMemory(null).build())
                .hasMessageContaining("memory placement is required");
        assertThatThrownBy(() -> TransferSpec.builder().initiatorMemory(null).build())
                .hasMessageContaining("memory placement is required");
    }

    @Test
    void latencyModeRequiresStopAndWait() {
        assertThatThrownBy(() -> TransferSpec.builder()
                        .mode(Mode.LATENCY)
                        .pipelineDepth(2)
                        .build())
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("latency mode")
                .hasMessageContaining("pipeline depth must be 1, was 2");
        assertThatCode(() -> TransferSpec.builder()
                        .mode(Mode.LATENCY)
                        .pipelineDepth(1)
                        .build())
                .doesNotThrowAnyException();
        assertThatCode(() -> TransferSpec.builder()
                        .mode(Mode.BANDWIDTH)
                        .pipelineDepth(2)
                        .build())
                .doesNotThrowAnyException();
    }

    @Test
    void regionLimitNamesSizeAndBatch() {
        assertThatThrownBy(() -> TransferSpec.builder()
                        .size(TransferSpec.MAX_SIZE)
                        .batch(2)
                        .build())
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("region of 2147483648 bytes")
                .hasMessageContaining("size 1073741824")
                .hasMessageContaining("batch 2")
                .hasMessageContaining("2147483647");
        // Strided slots are padded to pages plus a guard page: a batch that fits contiguously may not.
        assertThatCode(() -> TransferSpec.builder().size(1 << 20).batch(2047).build())
                .doesNotThrowAnyException();
        assertThatThrownBy(() -> TransferSpec.builder()
                        .size(1 << 20)
                        .batch(2047)
                        .layout(Layout.STRIDED)
                        .build())
                .hasMessageContaining("exceeds the limit");
    }

    @Test
    void settingsAreSortedImmutableAndNeverNull() {
        Map<String, String> in = new HashMap<>();
        in.put("ZETA", "1");
        in.put("ALPHA", "2");
        TransferSpec s = TransferSpec.builder().settings(in).build();
        assertThat(s.settings().keySet()).containsExactly("ALPHA", "ZETA");
        in.put("LATER", "3");
        assertThat(s.settings()).doesNotContainKey("LATER");
        assertThatThrownBy(() -> s.settings().put("X", "y")).isInstanceOf(UnsupportedOperationException.class);
        assertThat(TransferSpec.builder().settings(null).build().settings()).isEmpty();
    }

    @Test
    void derivedFiguresAndCopies() {
        TransferSpec s = TransferSpec.builder()
                .pointId("p")
                .size(4097)
                .batch(3)
                .offset(5)
                .layout(Layout.STRIDED)
                .connections(2)
                .iterations(7)
                .warmup(1)
                .settings(Map.of("K", "v"))
                .initiatorMemory(new MemoryPlacement(MemoryKind.HUGEPAGE, 0))
                .build();
        assertThat(s.bytesPerIteration()).isEqualTo(4097L * 3);
        assertThat(s.slots()).isEqualTo(new SlotLayout(Layout.STRIDED, 4097, 3, 5));

        TransferSpec renamed = s.withPointId("q");
        assertThat(renamed.pointId()).isEqualTo("q");
        assertThat(renamed.withPointId("p")).isEqualTo(s);

        TransferSpec moved = s.withTransport("ucx");
        assertThat(moved.transport()).isEqualTo("ucx");
        assertThat(moved.withTransport("tcp")).isEqualTo(s);

        TransferSpec shorter = s.withIterations(3, 0);
        assertThat(shorter.iterations()).isEqualTo(3);
        assertThat(shorter.warmup()).isZero();
        assertThat(shorter.withIterations(7, 1)).isEqualTo(s);
        assertThatThrownBy(() -> s.withIterations(0, 0)).hasMessageStartingWith("iterations 0");
    }
}
