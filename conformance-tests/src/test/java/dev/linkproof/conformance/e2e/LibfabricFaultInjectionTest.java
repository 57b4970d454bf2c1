package dev.linkproof.conformance.e2e;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;
import static org.junit.platform.engine.discovery.DiscoverySelectors.selectClass;
import static org.junit.platform.engine.discovery.DiscoverySelectors.selectMethod;

import dev.linkproof.conformance.e2e.fixtures.LibfabricFaults;
import dev.linkproof.transfer.FailureKind;
import dev.linkproof.transfer.libfabric.Libfabric;
import java.util.List;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.platform.engine.TestExecutionResult;
import org.junit.platform.testkit.engine.EngineTestKit;
import org.junit.platform.testkit.engine.Event;
import org.junit.platform.testkit.engine.EventType;
import org.junit.platform.testkit.engine.Events;

/**
 * The libfabric transport's data checked as verbs' and ucx's are, proven by faults injected through
 * decorators: a byte flipped in transit fails its point naming slot and offset (over shm and
 * tcp;ofi_rxm, write, read and send), and a lost or a doubled atomic fails naming its counter.
 */
@Tag("e2e")
class LibfabricFaultInjectionTest {
    @BeforeAll
    static void libfabricIsHere() {
        assumeTrue(Libfabric.unavailableReason() == null, () -> "libfabric absent: " + Libfabric.unavailableReason());
    }

    @Test
    void aFlippedByteFailsThePointNamingSlotAndOffsetOnEveryProvider() {
        Events events = run(selectClass(LibfabricFaults.Flipped.class));
        events.assertStatistics(s -> s.started(6).failed(6).succeeded(0));
        List<String> messages = messages(events, FailureKind.DATA_CORRUPTION);
        assertThat(messages)
                .hasSize(6)
                .allSatisfy(m -> assertThat(m)
                        .contains("data corruption")
                        .contains("1 of 3 slot(s) differ")
                        .contains("slot 2, byte offset 2048"));
        assertThat(messages).filteredOn(m -> m.startsWith("write 4097 B ×3")).hasSize(2);
        assertThat(messages).filteredOn(m -> m.startsWith("read 4097 B ×3")).hasSize(2);
        assertThat(messages).filteredOn(m -> m.startsWith("send 4097 B ×3")).hasSize(2);
    }

    @Test
    void aLostAtomicFailsNamingItsCounter() {
        Events events = run(selectMethod(LibfabricFaults.Atomics.class, "lost"));
        events.assertStatistics(s -> s.started(2).failed(2).succeeded(0));
        assertThat(messages(events, FailureKind.ATOMIC_MISMATCH))
                .hasSize(2)
                .allSatisfy(m -> assertThat(m)
                        .contains("atomic mismatch: 1 of 4 counter(s) wrong")
                        .contains("counter 2 (slot 2): final value")
                        .contains("short by 1 op of step"));
    }

    @Test
    void aDoubledAtomicInTheTimedLoopFailsNamingItsCounter() {
        Events events = run(selectMethod(LibfabricFaults.Atomics.class, "doubled"));
        events.assertStatistics(s -> s.started(2).failed(2).succeeded(0));
        assertThat(messages(events, FailureKind.ATOMIC_MISMATCH))
                .hasSize(2)
                .allSatisfy(m -> assertThat(m)
                        .contains("atomic mismatch: 1 of 4 counter(s) wrong")
                        .contains("counter 3 (slot 3): final value")
                        .contains("over by 1 op of step"));
    }

    private static Events run(org.junit.platform.engine.DiscoverySelector selector) {
        return EngineTestKit.engine("linkproof")
                .configurationParameter("linkproof.profile", E2e.VALIDATION_ONLY)
                .selectors(selector)
                .execute()
                .testEvents();
    }

    private static List<String> messages(Events events, FailureKind kind) {
        events.filter(e -> e.getType() == EventType.FINISHED)
                .forEach(e -> Kinds.assertKind(e.getRequiredPayload(TestExecutionResult.class), kind));
        return events.filter(e -> e.getType() == EventType.FINISHED)
                .map(LibfabricFaultInjectionTest::message)
                .toList();
    }

    private static String message(Event e) {
        return e.getRequiredPayload(TestExecutionResult.class)
                .getThrowable()
                .map(Throwable::getMessage)
                .orElse("");
    }
}
