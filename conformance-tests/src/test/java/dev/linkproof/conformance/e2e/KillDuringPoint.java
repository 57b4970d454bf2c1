package dev.linkproof.conformance.e2e;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.platform.engine.discovery.DiscoverySelectors.selectClass;
import static org.junit.platform.launcher.EngineFilter.includeEngines;

import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.platform.engine.TestExecutionResult;
import org.junit.platform.launcher.TestExecutionListener;
import org.junit.platform.launcher.TestIdentifier;
import org.junit.platform.launcher.core.LauncherDiscoveryRequestBuilder;
import org.junit.platform.launcher.core.LauncherFactory;

/**
 * Runs a fixture sweep through the launcher and SIGKILLs the local target agent a fixed time after
 * its second point starts; records every point's result, when the kill happened, when the point
 * failed, and which agent served each later point. The end-to-end tests of a dead target rank
 * (tcp, ucx, libfabric) judge the {@link Outcome}.
 */
public final class KillDuringPoint {
    private KillDuringPoint() {}

    /**
     * What a run with a kill looked like.
     *
     * @param order       the points' display names in the order they finished
     * @param results     each point's result, by display name
     * @param killedPids  the agent processes that were killed (exactly one when all went to plan)
     * @param agentAfter  the pid of the agent alive when each point finished, by display name
     */
    public record Outcome(
            List<String> order,
            Map<String, TestExecutionResult> results,
            List<Long> killedPids,
            long killedAtNanos,
            long failedAtNanos,
            Map<String, Long> agentAfter) {
        TestExecutionResult result(int point) {
            return results.get(order.get(point));
        }

        String message(int point) {
            return result(point).getThrowable().map(Throwable::getMessage).orElse("");
        }

        /** Seconds from the SIGKILL to the first failed point's end. */
        double secondsToFail() {
            return (failedAtNanos - killedAtNanos) / 1e9;
        }
    }

    /**
     * Runs {@code fixture} with the validation-only profile and {@code config} as extra configuration
     * parameters, killing the agent {@code delayMillis} after the second point started.
     */
    public static Outcome run(Class<?> fixture, long delayMillis, Map<String, String> config) {
        return run(fixture, delayMillis, config, ProcessHandle::destroyForcibly);
    }

    /** The same, doing {@code fault} to the agent (SIGKILL in {@link #run(Class, long, Map)}, SIGSTOP elsewhere). */
    static Outcome run(
            Class<?> fixture,
            long delayMillis,
            Map<String, String> config,
            java.util.function.Consumer<ProcessHandle> fault) {
        Map<String, TestExecutionResult> results = new ConcurrentHashMap<>();
        Map<String, Long> agentAfter = new ConcurrentHashMap<>();
        List<String> order = new CopyOnWriteArrayList<>();
        List<Long> killed = new CopyOnWriteArrayList<>();
        AtomicLong killedAt = new AtomicLong();
        AtomicLong failedAt = new AtomicLong();
        AtomicInteger started = new AtomicInteger();

        TestExecutionListener listener = new TestExecutionListener() {
            @Override
            public void executionStarted(TestIdentifier id) {
                if (id.isTest() && started.incrementAndGet() == 2) {
                    Thread.ofPlatform().daemon().name("agent-killer").start(() -> {
                        sleep(delayMillis);
                        agentProcess().ifPresent(p -> {
                            killed.add(p.pid());
                            killedAt.set(System.nanoTime());
                            fault.accept(p);
                        });
                    });
                }
            }

            @Override
            public void executionFinished(TestIdentifier id, TestExecutionResult result) {
                if (id.isTest()) {
                    if (result.getStatus() == TestExecutionResult.Status.FAILED) {
                        failedAt.compareAndSet(0, System.nanoTime());
                    }
                    agentProcess().ifPresent(p -> agentAfter.put(id.getDisplayName(), p.pid()));
                    order.add(id.getDisplayName());
                    results.put(id.getDisplayName(), result);
                }
            }
        };
        var request = LauncherDiscoveryRequestBuilder.request()
                .selectors(selectClass(fixture))
                .filters(includeEngines("linkproof"))
                .configurationParameter("linkproof.profile", E2e.VALIDATION_ONLY)
                .configurationParameters(config)
                .build();
        LauncherFactory.create().execute(request, listener);
        return new Outcome(
                List.copyOf(order),
                Map.copyOf(results),
                List.copyOf(killed),
                killedAt.get(),
                failedAt.get(),
                Map.copyOf(agentAfter));
    }

    /**
     * What every dead-target test holds a run to: the point before the kill passed, the killed point
     * ({@code killedPoint}, the start of its name) failed as a peer failure within {@code deadlineSeconds}
     * of the SIGKILL, the two after it passed on a freshly started agent, and no agent is left.
     */
    public static void assertFailedAndRecovered(Outcome run, String killedPoint, double deadlineSeconds) {
        System.out.printf(
                "%s: failed %.2f s after the SIGKILL: %s%n", killedPoint, run.secondsToFail(), run.message(1));
        assertThat(run.killedPids()).as("an agent process was found and killed").hasSize(1);
        assertThat(run.order()).as("every point finished").hasSize(4);
        assertThat(run.order().get(1)).startsWith(killedPoint);
        assertThat(run.result(0).getStatus()).as(run.order().get(0)).isEqualTo(TestExecutionResult.Status.SUCCESSFUL);
        assertThat(run.result(1).getStatus()).as(run.order().get(1)).isEqualTo(TestExecutionResult.Status.FAILED);
        assertThat(run.message(1)).contains("peer failure");
        assertThat(run.secondsToFail())
                .as("seconds from SIGKILL to the point's failure: " + run.message(1))
                .isLessThan(deadlineSeconds);
        for (int i : new int[] {2, 3}) {
            assertThat(run.result(i).getStatus())
                    .as(run.order().get(i) + ": " + run.message(i))
                    .isEqualTo(TestExecutionResult.Status.SUCCESSFUL);
            assertThat(run.agentAfter().get(run.order().get(i)))
                    .as("the agent that served " + run.order().get(i))
                    .isNotNull()
                    .isNotEqualTo(run.killedPids().getFirst());
        }
        assertThat(agentProcess())
                .as("the re-provisioned agent is stopped at the end of the run")
                .isEmpty();
    }

    /** The live local agent this JVM started, if any. */
    static Optional<ProcessHandle> agentProcess() {
        return ProcessHandle.current()
                .children()
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
