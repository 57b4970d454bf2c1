package dev.linkproof.conformance.e2e;

import static org.assertj.core.api.Assertions.assertThat;

import dev.linkproof.transfer.FailureKind;
import dev.linkproof.transfer.Op;
import dev.linkproof.transfer.TransferSpec;
import dev.linkproof.transfer.measure.Measurement;
import dev.linkproof.transfer.session.LocalAgent;
import dev.linkproof.transfer.session.Rails;
import dev.linkproof.transfer.session.Session;
import dev.linkproof.transfer.session.Timeouts;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * One rail of two corrupts its data in transit ({@link BitFlipTransport} on rail 1, a clean tcp rail 0):
 * the point's validation fails naming rail 1 and where its first bad byte is, as data corruption,
 * while rail 0's own validation passes. The checker of every rail, made to catch an injected fault.
 */
@Tag("e2e")
class RailCorruptionTest {
    @TempDir
    Path dir;

    @Test
    void aRailThatCorruptsFailsThePointNamingIt() throws Exception {
        try (LocalAgent agent =
                        LocalAgent.start(List.of("-Xmx256m"), dir.resolve("agent.log"), Duration.ofSeconds(60));
                Session a = Session.open(agent.host(), agent.port(), agent.token(), Timeouts.DEFAULT);
                Session b = Session.open(agent.host(), agent.port(), agent.token(), Timeouts.DEFAULT)) {
            TransferSpec clean = TransferSpec.builder()
                    .pointId("corrupt-rail/rail0")
                    .transport("tcp")
                    .op(Op.WRITE)
                    .size(64 * 1024)
                    .batch(4)
                    .iterations(10)
                    .warmup(1)
                    .build();
            TransferSpec flipping = TransferSpec.builder()
                    .pointId("corrupt-rail/rail1")
                    .transport(BitFlipTransport.ID)
                    .op(Op.WRITE)
                    .size(64 * 1024)
                    .batch(4)
                    .iterations(10)
                    .warmup(1)
                    .settings(Map.of("fault.slot", "2", "fault.offset", "100"))
                    .build();
            Measurement m = Rails.run(
                    clean.withPointId("corrupt-rail"),
                    List.of(new Rails.Rail("clean", a, clean), new Rails.Rail("flip", b, flipping)),
                    Duration.ofSeconds(30));

            assertThat(m.isValid()).isFalse();
            assertThat(m.validation().failureKind()).contains(FailureKind.DATA_CORRUPTION);
            assertThat(m.validation().describe())
                    .startsWith("rail 1 (flip): data corruption: 1 of 8 slot(s) differ; first at slot 2");
            assertThat(m.rails().get(0).measurement().isValid())
                    .as("rail 0's own validation")
                    .isTrue();
            assertThat(m.rails().get(1).measurement().isValid()).isFalse();
        }
    }
}
