package dev.linkproof.conformance.e2e;

import static org.junit.platform.engine.discovery.DiscoverySelectors.selectClass;
import static org.junit.platform.launcher.EngineFilter.includeEngines;

import dev.linkproof.engine.failure.Failures;
import org.junit.platform.engine.TestExecutionResult;
import org.junit.platform.launcher.TestExecutionListener;
import org.junit.platform.launcher.TestIdentifier;
import org.junit.platform.launcher.core.LauncherDiscoveryRequestBuilder;
import org.junit.platform.launcher.core.LauncherFactory;
import org.junit.platform.launcher.listeners.SummaryGeneratingListener;
import org.junit.platform.launcher.listeners.TestExecutionSummary;

/**
 * Runs one class on the linkproof engine in this JVM and exits with the number of failed tests:
 * the initiator host of {@link TwoHostsTest} and {@link PartitionTest}, started inside its own
 * network namespace. Configuration (linkproof.peer, linkproof.token) comes from system properties.
 * Prints {@code remote-sweep: started <point>} as each point starts and {@code remote-sweep: finished
 * <point> <status> <kind>} as it ends, so a test outside the namespace can act while a point runs.
 * With {@value #AFTER_FAILURE} set, that shell command runs once, after the first failed point and
 * before the next one starts (a partition test brings its link back up so, at a known moment).
 */
public final class RemoteSweepMain {
    /** The start of the line printed as a point starts. */
    static final String STARTED = "remote-sweep: started ";
    /** The start of the line printed as a point ends. */
    static final String FINISHED = "remote-sweep: finished ";
    /** The system property naming a shell command to run after the first failed point. */
    static final String AFTER_FAILURE = "remoteSweep.afterFailure";

    private RemoteSweepMain() {}

    public static void main(String[] args) throws Exception {
        var request = LauncherDiscoveryRequestBuilder.request()
                .selectors(selectClass(Class.forName(args[0])))
                .filters(includeEngines("linkproof"))
                .build();
        SummaryGeneratingListener summary = new SummaryGeneratingListener();
        TestExecutionListener points = new TestExecutionListener() {
            @Override
            public void executionStarted(TestIdentifier id) {
                if (id.isTest()) {
                    System.out.println(STARTED + id.getDisplayName());
                }
            }

            @Override
            public void executionFinished(TestIdentifier id, TestExecutionResult result) {
                if (id.isTest()) {
                    System.out.println(FINISHED + id.getDisplayName() + " " + result.getStatus() + " "
                            + Failures.kindOf(result).map(Enum::name).orElse("-"));
                    String after = System.getProperty(AFTER_FAILURE);
                    if (after != null && result.getStatus() == TestExecutionResult.Status.FAILED && !afterFailureRan) {
                        afterFailureRan = true;
                        System.out.println("remote-sweep: after the failure, " + after + ": exit " + sh(after));
                    }
                }
            }

            private boolean afterFailureRan;
        };
        LauncherFactory.create().execute(request, summary, points);
        TestExecutionSummary s = summary.getSummary();
        s.printFailuresTo(new java.io.PrintWriter(System.out, true), 20);
        System.out.printf(
                "remote-sweep: %d passed, %d failed, %d skipped%n",
                s.getTestsSucceededCount(),
                s.getTestsFailedCount(),
                s.getTestsSkippedCount() + s.getTestsAbortedCount());
        System.exit((int) Math.min(100, s.getTestsFailedCount() + (s.getTestsSucceededCount() == 0 ? 1 : 0)));
    }

    /** Runs {@code command} with sh, its output on ours; its exit status, or -1 when it did not end within 30 s. */
    private static int sh(String command) {
        try {
            Process p = new ProcessBuilder("sh", "-c", command).inheritIO().start();
            return p.waitFor(30, java.util.concurrent.TimeUnit.SECONDS) ? p.exitValue() : -1;
        } catch (java.io.IOException e) {
            return -1;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return -1;
        }
    }
}
