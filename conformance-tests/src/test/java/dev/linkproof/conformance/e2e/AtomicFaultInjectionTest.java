package dev.linkproof.conformance.e2e;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;
import static org.junit.platform.engine.discovery.DiscoverySelectors.selectMethod;

import dev.linkproof.conformance.e2e.fixtures.AtomicsLostOrDoubled;
import dev.linkproof.transfer.FailureKind;
import dev.linkproof.transfer.ucx.Ucx;
import java.util.List;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.platform.engine.TestExecutionResult;
import org.junit.platform.testkit.engine.EngineTestKit;
import org.junit.platform.testkit.engine.Event;
import org.junit.platform.testkit.engine.EventType;

/**
 * A lost or a doubled atomic of one counter fails its point, naming the counter, by every check that
 * applies: the final value (short or over by one step) and the values the ops returned (fetch-add's
 * set, compare-and-swap's old values), as {@link FailureKind#ATOMIC_MISMATCH}. Over ucx on shared
 * memory; the Soft-RoCE suite does the same over verbs.
 */
@Tag("e2e")
class AtomicFaultInjectionTest {
    @Test
    void aLostAtomicFailsNamingItsCounter() {
        List<String> messages = failures("lost");
        assertThat(messages)
                .hasSize(2)
                .allSatisfy(m -> assertThat(m)
                        .contains("atomic mismatch: 1 of 4 counter(s) wrong")
                        .contains("counter 2 (slot 2): final value")
                        .contains("short by 1 op of step"));
        assertThat(messages)
                .anySatisfy(m -> assertThat(m)
                        .startsWith("fetch-add 8 B ×4")
                        .contains("counter 2 (slot 2): fetch-add values are not start + k·addend each once"));
        // The lost swap changed nothing; the next one compared with the value the lost one should have left.
        assertThat(messages)
                .anySatisfy(m -> assertThat(m)
                        .startsWith("compare-swap 8 B ×4")
                        .contains("counter 2 (slot 2): compare-and-swap 1 of the verification returned old value"));
    }

    @Test
    void aDoubledAtomicInTheTimedLoopFailsNamingItsCounter() {
        List<String> messages = failures("doubled");
        assertThat(messages)
                .hasSize(2)
                .allSatisfy(m -> assertThat(m)
                        .contains("atomic mismatch: 1 of 4 counter(s) wrong")
                        .contains("counter 3 (slot 3): final value")
                        .contains("over by 1 op of step"));
        assertThat(messages)
                .anySatisfy(m ->
                        assertThat(m).startsWith("fetch-add").contains("counter 3 (slot 3): fetch-add values are not"));
        assertThat(messages)
                .anySatisfy(m -> assertThat(m)
                        .startsWith("compare-swap")
                        .contains("counter 3 (slot 3): compare-and-swap 0 of the verification returned old value"));
    }

    private static List<String> failures(String method) {
        assumeTrue(Ucx.unavailableReason() == null, () -> "libucp absent: " + Ucx.unavailableReason());
        var events = EngineTestKit.engine("linkproof")
                .configurationParameter("linkproof.profile", E2e.VALIDATION_ONLY)
                .selectors(selectMethod(AtomicsLostOrDoubled.class, method))
                .execute()
                .testEvents();
        events.assertStatistics(s -> s.started(2).failed(2).succeeded(0));
        events.filter(e -> e.getType() == EventType.FINISHED)
                .forEach(e ->
                        Kinds.assertKind(e.getRequiredPayload(TestExecutionResult.class), FailureKind.ATOMIC_MISMATCH));
        return events.filter(e -> e.getType() == EventType.FINISHED)
                .map(AtomicFaultInjectionTest::message)
                .toList();
    }

    private static String message(Event e) {
        return e.getRequiredPayload(TestExecutionResult.class)
                .getThrowable()
                .map(Throwable::getMessage)
                .orElse("");
    }
}
