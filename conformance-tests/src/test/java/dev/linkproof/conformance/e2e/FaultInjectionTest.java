package dev.linkproof.conformance.e2e;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.platform.engine.discovery.DiscoverySelectors.selectClass;

import dev.linkproof.conformance.e2e.fixtures.CorruptedInTransit;
import java.util.List;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.platform.engine.TestExecutionResult;
import org.junit.platform.testkit.engine.EngineTestKit;
import org.junit.platform.testkit.engine.Event;
import org.junit.platform.testkit.engine.EventType;

/** (a) One flipped byte in transit fails the point, and the failure names slot and offset. */
@Tag("e2e")
class FaultInjectionTest {
    @Test
    void flippedByteFailsThePointNamingSlotAndOffset() {
        var events = EngineTestKit.engine("linkproof")
                .configurationParameter("linkproof.profile", E2e.VALIDATION_ONLY)
                .selectors(selectClass(CorruptedInTransit.class))
                .execute()
                .testEvents();
        events.assertStatistics(s -> s.started(2).failed(2).succeeded(0));
        List<String> messages = events.filter(e -> e.getType() == EventType.FINISHED)
                .map(FaultInjectionTest::message)
                .toList();
        assertThat(messages)
                .hasSize(2)
                .allSatisfy(m -> assertThat(m)
                        .contains("data corruption")
                        .contains("1 of 3 slot(s) differ")
                        .contains("slot 2, byte offset 2048"));
        events.filter(e -> e.getType() == EventType.FINISHED)
                .forEach(e -> Kinds.assertKind(
                        e.getRequiredPayload(TestExecutionResult.class),
                        dev.linkproof.transfer.FailureKind.DATA_CORRUPTION));
        assertThat(messages).anySatisfy(m -> assertThat(m).startsWith("write 4097 B ×3"));
        assertThat(messages).anySatisfy(m -> assertThat(m).startsWith("read 4097 B ×3"));
    }

    private static String message(Event e) {
        TestExecutionResult r = e.getRequiredPayload(TestExecutionResult.class);
        return r.getThrowable().map(Throwable::getMessage).orElse("");
    }
}
