package dev.linkproof.conformance.runner;

import static org.junit.platform.engine.discovery.DiscoverySelectors.selectClass;

import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.platform.engine.DiscoverySelector;
import org.junit.platform.launcher.core.LauncherDiscoveryRequestBuilder;
import org.junit.platform.launcher.core.LauncherFactory;
import org.junit.platform.launcher.listeners.SummaryGeneratingListener;
import org.junit.platform.launcher.listeners.TestExecutionSummary;
import org.junit.platform.reporting.legacy.xml.LegacyXmlReportGeneratingListener;

/**
 * Runs test classes on the JUnit Platform in one JVM (the linkproof engine and Jupiter) and writes
 * Surefire-style XML reports, where there is no Maven: inside the Soft-RoCE VM (SoftRoceSuite) and
 * on a GPU machine (scripts/gpu-check.sh).
 * {@code SuiteMain <reports-dir> <class>...}; exits 0 when nothing failed and something ran.
 */
public final class SuiteMain {
    private SuiteMain() {}

    public static void main(String[] args) throws Exception {
        Path reports = Files.createDirectories(Path.of(args[0]));
        List<DiscoverySelector> selectors = new ArrayList<>();
        for (int i = 1; i < args.length; i++) {
            selectors.add(selectClass(Class.forName(args[i])));
        }
        var request =
                LauncherDiscoveryRequestBuilder.request().selectors(selectors).build();
        SummaryGeneratingListener summary = new SummaryGeneratingListener();
        PrintWriter out = new PrintWriter(System.out, true);
        LauncherFactory.create().execute(request, summary, new LegacyXmlReportGeneratingListener(reports, out));
        TestExecutionSummary s = summary.getSummary();
        s.printFailuresTo(out, 20);
        out.printf(
                "suite: %d passed, %d failed, %d skipped%n",
                s.getTestsSucceededCount(),
                s.getTestsFailedCount(),
                s.getTestsSkippedCount() + s.getTestsAbortedCount());
        System.exit(s.getTestsFailedCount() > 0 || s.getTestsSucceededCount() == 0 ? 1 : 0);
    }
}
