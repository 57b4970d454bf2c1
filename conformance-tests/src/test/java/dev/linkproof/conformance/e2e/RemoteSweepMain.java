package dev.linkproof.conformance.e2e;

import static org.junit.platform.engine.discovery.DiscoverySelectors.selectClass;
import static org.junit.platform.launcher.EngineFilter.includeEngines;

import org.junit.platform.launcher.core.LauncherDiscoveryRequestBuilder;
import org.junit.platform.launcher.core.LauncherFactory;
import org.junit.platform.launcher.listeners.SummaryGeneratingListener;
import org.junit.platform.launcher.listeners.TestExecutionSummary;

/**
 * Runs one class on the linkproof engine in this JVM and exits with the number of failed tests:
 * the initiator host of {@link TwoHostsTest}, started inside its own network namespace.
 * Configuration (linkproof.peer, linkproof.token) comes from system properties.
 */
public final class RemoteSweepMain {
    private RemoteSweepMain() {
    }

    public static void main(String[] args) throws Exception {
        var request = LauncherDiscoveryRequestBuilder.request()
                .selectors(selectClass(Class.forName(args[0])))
                .filters(includeEngines("linkproof"))
                .build();
        SummaryGeneratingListener summary = new SummaryGeneratingListener();
        LauncherFactory.create().execute(request, summary);
        TestExecutionSummary s = summary.getSummary();
        s.printFailuresTo(new java.io.PrintWriter(System.out, true), 20);
        System.out.printf("remote-sweep: %d passed, %d failed, %d skipped%n", s.getTestsSucceededCount(),
                s.getTestsFailedCount(), s.getTestsSkippedCount() + s.getTestsAbortedCount());
        System.exit((int) Math.min(100, s.getTestsFailedCount() + (s.getTestsSucceededCount() == 0 ? 1 : 0)));
    }
}
