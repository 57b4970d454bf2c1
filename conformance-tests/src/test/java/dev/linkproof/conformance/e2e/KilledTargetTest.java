package dev.linkproof.conformance.e2e;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.platform.engine.discovery.DiscoverySelectors.selectClass;
import static org.junit.platform.launcher.EngineFilter.includeEngines;

import dev.linkproof.conformance.e2e.fixtures.KilledMidSweep;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.platform.engine.TestExecutionResult;
import org.junit.platform.launcher.TestExecutionListener;
import org.junit.platform.launcher.TestIdentifier;
import org.junit.platform.launcher.core.LauncherDiscoveryRequestBuilder;
import org.junit.platform.launcher.core.LauncherFactory;

/**
 * (b) The target rank is SIGKILLed while the second point runs: that point fails within 10 s with
 * a message saying the peer failed, and the remaining points pass on a freshly provisioned agent.
 */
@Tag("e2e")
class KilledTargetTest {
    @Test
    void killedTargetFailsThePointFastAndTheSweepRecovers() {
        Map<String, TestExecutionResult> results = new ConcurrentHashMap<>();
        List<String> order = new CopyOnWriteArrayList<>();
        List<Long> killed = new CopyOnWriteArrayList<>();
        AtomicLong killedAt = new AtomicLong();
        AtomicLong failedAt = new AtomicLong();
        AtomicInteger started = new AtomicInteger();

        TestExecutionListener listener = new TestExecutionListener() {
            @Override
            public void executionStarted(TestIdentifier id) {
                if (!id.isTest()) {
                    return;
                }
                if (started.incrementAndGet() == 2) {
                    Thread.ofPlatform().daemon().start(() -> {
                        sleep(700); // well inside the 64 MiB × 150 point
                        agentProcess().ifPresent(p -> {
                            killed.add(p.pid());
                            killedAt.set(System.nanoTime());
                            p.destroyForcibly(); // SIGKILL
                        });
                    });
                }
            }

            @Override
            public void executionFinished(TestIdentifier id, TestExecutionResult result) {
                if (id.isTest()) {
                    order.add(id.getDisplayName());
                    results.put(id.getDisplayName(), result);
                    if (result.getStatus() == TestExecutionResult.Status.FAILED) {
                        failedAt.set(System.nanoTime());
                    }
                }
            }
        };
        var request = LauncherDiscoveryRequestBuilder.request()
                .selectors(selectClass(KilledMidSweep.class))
                .filters(includeEngines("linkproof"))
                .configurationParameter("linkproof.profile", E2e.VALIDATION_ONLY)
                .build();
        LauncherFactory.create().execute(request, listener);

        assertThat(killed).as("an agent process was found and killed").hasSize(1);
        assertThat(order).hasSize(4);
        TestExecutionResult second = results.get(order.get(1));
        assertThat(order.get(1)).startsWith("write 64 MiB");
        assertThat(second.getStatus()).isEqualTo(TestExecutionResult.Status.FAILED);
        assertThat(second.getThrowable().orElseThrow().getMessage())
                .contains("peer failure")
                .containsAnyOf("did the target rank die?", "did it die?", "did the target agent die?");
        double secondsToFail = (failedAt.get() - killedAt.get()) / 1e9;
        assertThat(secondsToFail).as("seconds from SIGKILL to the point's failure").isLessThan(10.0);
        for (int i : new int[] {0, 2, 3}) {
            assertThat(results.get(order.get(i)).getStatus()).as(order.get(i)).isEqualTo(TestExecutionResult.Status.SUCCESSFUL);
        }
        assertThat(agentProcess()).as("the re-provisioned agent is stopped at the end of the run").isEmpty();
    }

    private static Optional<ProcessHandle> agentProcess() {
        return ProcessHandle.current().children()
                .filter(p -> p.info().commandLine().orElse("").contains("dev.linkproof.transfer.agent.AgentMain"))
                .filter(ProcessHandle::isAlive)
                .findFirst();
    }

    private static void sleep(long ms) {
        try {
            Thread.sleep(ms);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
