package dev.linkproof.conformance.e2e;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.platform.engine.discovery.DiscoverySelectors.selectMethod;

import dev.linkproof.conformance.e2e.fixtures.ManyPoints;
import dev.linkproof.engine.config.Constants;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.platform.testkit.engine.EngineTestKit;

/**
 * Nothing piles up over a long run: 2,000 points on one pair, and both ranks hold as many descriptors
 * and threads at the end as after the first 500 (the JVMs' own start-up is over by then). A checker
 * that leaks one descriptor a point in this JVM is caught by the same check.
 */
@Tag("e2e")
class ResourcesStayFlatTest {
    /** Threads a JVM may add on its own (a compiler or GC worker started late), not a leak. */
    static final long THREAD_SLACK = 4;
    /** Descriptors a JVM may open on its own (a jar or a jimage mapped late), not a leak. */
    static final long FD_SLACK = 2;

    @TempDir
    Path dir;

    @AfterEach
    void closeLeaked() throws Exception {
        ManyPoints.closeLeaked();
        ManyPoints.SAMPLES.clear();
    }

    @Test
    void twoThousandPointsLeaveBothRanksAsTheyWere() {
        List<String> growth = run("twoThousand", 500, 2000);
        assertThat(growth).as("what grew between point 500 and point 2000").isEmpty();
    }

    /**
     * Descriptors a libfabric rank may hold for a while after a point: ofi_rxm over tcp closes its
     * connections after the point's endpoints are gone, so a sample can catch a few either way (1-9
     * on the CI VM, flat over 400 points), where a leak of one a point would show hundreds.
     */
    static final long LIBFABRIC_FD_SLACK = 16;

    /** libfabric's objects (fabric, domain, endpoints, connections, shared-memory regions) are closed with each point. */
    @Test
    void libfabricPointsLeaveBothRanksAsTheyWere() {
        org.junit.jupiter.api.Assumptions.assumeTrue(
                dev.linkproof.transfer.libfabric.Libfabric.unavailableReason() == null, "libfabric absent");
        assertThat(run("libfabricTcp", 150, 600, LIBFABRIC_FD_SLACK))
                .as("what grew between point 150 and 600 over tcp;ofi_rxm")
                .isEmpty();
        ManyPoints.SAMPLES.clear();
        assertThat(run("libfabricShm", 150, 600, LIBFABRIC_FD_SLACK))
                .as("what grew between point 150 and 600 over shm")
                .isEmpty();
    }

    @Test
    void aLeakOfOneDescriptorAPointIsCaught() {
        List<String> growth = run("leaking", 100, 300);
        assertThat(growth).singleElement().asString().startsWith("initiator: fds ");
    }

    private List<String> run(String method, long from, long to) {
        return run(method, from, to, FD_SLACK);
    }

    /** Runs the method's points, and lists each count of either rank that grew more than its slack. */
    private List<String> run(String method, long from, long to, long fdSlack) {
        ManyPoints.sampleAt = List.of(from, to);
        var events = EngineTestKit.engine(Constants.ENGINE_ID)
                .configurationParameter(Constants.PROGRESS, "false")
                .configurationParameter(Constants.PROFILE, E2e.VALIDATION_ONLY)
                .configurationParameter(
                        Constants.RESULTS, dir.resolve("r.jsonl").toString())
                .selectors(selectMethod(
                        ManyPoints.class,
                        method,
                        "dev.linkproof.engine.api.SweepPoint," + "dev.linkproof.transfer.session.TransferSession"))
                .execute()
                .testEvents();
        // A point that failed says why here (the progress lines are off).
        events.failed().stream()
                .forEach(e ->
                        System.out.println("failed: " + e.getTestDescriptor().getDisplayName() + ": "
                                + e.getRequiredPayload(org.junit.platform.engine.TestExecutionResult.class)
                                        .getThrowable()
                                        .map(Throwable::toString)
                                        .orElse("")));
        events.assertStatistics(s -> s.failed(0).succeeded(to));
        ProcessCounts[] first = ManyPoints.SAMPLES.get(from);
        ProcessCounts[] last = ManyPoints.SAMPLES.get(to);
        System.out.printf(
                "%s: point %d: initiator %s, target %s; point %d: initiator %s, target %s%n",
                method, from, first[0], first[1], to, last[0], last[1]);
        List<String> growth = new ArrayList<>();
        String[] ranks = {"initiator", "target"};
        for (int r = 0; r < 2; r++) {
            if (last[r].fds() - first[r].fds() > fdSlack) {
                growth.add(ranks[r] + ": fds " + first[r].fds() + " -> " + last[r].fds());
            }
            if (last[r].threads() - first[r].threads() > THREAD_SLACK) {
                growth.add(ranks[r] + ": threads " + first[r].threads() + " -> " + last[r].threads());
            }
        }
        return growth;
    }
}
