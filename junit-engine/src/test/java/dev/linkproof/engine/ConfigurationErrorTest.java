package dev.linkproof.engine;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.platform.engine.discovery.DiscoverySelectors.selectMethod;

import dev.linkproof.engine.config.Constants;
import dev.linkproof.engine.config.LinkproofConfiguration;
import dev.linkproof.engine.fixtures.RunFixture;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.platform.engine.TestExecutionResult;
import org.junit.platform.testkit.engine.EngineExecutionResults;
import org.junit.platform.testkit.engine.EngineTestKit;
import org.junit.platform.testkit.engine.Event;
import org.junit.platform.testkit.engine.EventType;

/**
 * A bad value on the command line stops the run before any point, with "configuration error" and
 * the key in an error-level discovery issue, which JUnit (and Surefire) prints on the console;
 * thrown at discovery, it showed only "TestEngine with ID 'linkproof' failed to discover tests" and
 * left the cause in a dump file.
 */
public class ConfigurationErrorTest {
    @TempDir
    Path dir;

    private EngineExecutionResults run(String... config) {
        var kit = EngineTestKit.engine(Constants.ENGINE_ID)
                .configurationParameter(Constants.PROGRESS, "false")
                .configurationParameter(
                        Constants.RESULTS, dir.resolve("r.jsonl").toString())
                .selectors(selectMethod(RunFixture.class, "passesWithoutParameters", ""));
        for (int i = 0; i < config.length; i += 2) {
            kit = kit.configurationParameter(config[i], config[i + 1]);
        }
        return kit.execute();
    }

    /**
     * The run's configuration errors, "; "-joined: they are error-level discovery issues, so JUnit
     * fails the engine with its own DiscoveryIssueException, listing each as "(n) [ERROR] message",
     * before any point runs.
     */
    public static String engineFailure(EngineExecutionResults r) {
        Event engine = r.containerEvents()
                .filter(e -> e.getType() == EventType.FINISHED
                        && e.getTestDescriptor().getUniqueId().getSegments().size() == 1)
                .findFirst()
                .orElseThrow();
        TestExecutionResult result = engine.getRequiredPayload(TestExecutionResult.class);
        assertThat(result.getStatus()).isEqualTo(TestExecutionResult.Status.FAILED);
        Throwable failure = result.getThrowable().orElseThrow();
        assertThat(failure.getClass().getSimpleName())
                .as("reported as discovery issues")
                .isEqualTo("DiscoveryIssueException");
        return String.join(
                "; ",
                failure.getMessage()
                        .lines()
                        .map(String::strip)
                        .filter(l -> l.matches("\\(\\d+\\) \\[ERROR\\] .*"))
                        .map(l -> l.substring(l.indexOf("] ") + 2))
                        .toList());
    }

    @Test
    void aBadIterationScaleFailsTheRunNamingTheKeyBeforeAnyPoint() {
        EngineExecutionResults r = run(Constants.ITERATIONS_SCALE, "0");
        r.testEvents().assertStatistics(s -> s.started(0));
        assertThat(engineFailure(r))
                .isEqualTo("configuration error: linkproof.iterations.scale=0 must be a number in (0, 1000]");
    }

    @Test
    void anUnknownKeyFailsTheRunNamingTheNearestKnownOne() {
        EngineExecutionResults r = run("linkproof.profle", "cx7-400g");
        r.testEvents().assertStatistics(s -> s.started(0));
        assertThat(engineFailure(r))
                .isEqualTo("configuration error: unknown configuration key linkproof.profle (did you mean "
                        + "linkproof.profile?); every key is listed in docs/configuration.md");
        // Far from every key: named, with no guess.
        assertThat(engineFailure(run("linkproof.colour", "blue")))
                .isEqualTo("configuration error: unknown configuration key "
                        + "linkproof.colour; every key is listed in docs/configuration.md");
        // The keys this repository's own tests pass are known, and a family's keys by their prefix.
        assertThat(run(Constants.HARNESS_SLURM, "false").testEvents().started().count())
                .isPositive();
        assertThat(dev.linkproof.engine.config.KnownKeys.known("linkproof.criteria.write-large.enabled"))
                .isTrue();
        assertThat(dev.linkproof.engine.config.KnownKeys.known("linkproof.criteriaa"))
                .isFalse();
    }

    @Test
    void anUnknownKeyFromMinusDIsAsMuchAnErrorAsOneFromTheLauncher() {
        System.setProperty("linkproof.fleet.pattren", "ring");
        try {
            assertThat(engineFailure(run()))
                    .contains("unknown configuration key linkproof.fleet.pattren (did you mean "
                            + "linkproof.fleet.pattern?)");
        } finally {
            System.clearProperty("linkproof.fleet.pattren");
        }
    }

    @Test
    void anUnknownKeyInJunitPlatformPropertiesIsAnErrorToo() throws Exception {
        java.nio.file.Files.writeString(dir.resolve("junit-platform.properties"), "linkproof.progres=false\n");
        Thread t = Thread.currentThread();
        ClassLoader original = t.getContextClassLoader();
        try (java.net.URLClassLoader withFile =
                new java.net.URLClassLoader(new java.net.URL[] {dir.toUri().toURL()}, original)) {
            t.setContextClassLoader(withFile);
            EngineExecutionResults r = EngineTestKit.engine(Constants.ENGINE_ID)
                    .enableImplicitConfigurationParameters(true)
                    .configurationParameter(
                            Constants.RESULTS, dir.resolve("r.jsonl").toString())
                    .selectors(selectMethod(RunFixture.class, "passesWithoutParameters", ""))
                    .execute();
            assertThat(engineFailure(r))
                    .contains("unknown configuration key linkproof.progres (did you mean linkproof.progress?)");
        } finally {
            t.setContextClassLoader(original);
        }
    }

    @Test
    void everyBadKeyIsNamedAtOnce() {
        String m = engineFailure(run(
                Constants.TIMEOUT_CONTROL, "soon", Constants.BUSY_HOST_RERUNS, "9", Constants.BASELINE_TOLERANCE, "2"));
        assertThat(m)
                .startsWith("configuration error: ")
                .contains("linkproof.timeout.control=soon is not a duration")
                .contains("linkproof.busyHost.reruns=9 must be a whole number from 0 to 5")
                .contains("linkproof.baseline.tolerance=2 must be");
    }

    /** Every point that names no transport was skipped as "not on the class path", and the build passed. */
    @Test
    void anUnknownDefaultTransportFailsTheRunListingTheKnownOnes() {
        EngineExecutionResults r = run(Constants.TRANSPORT, "nosuch");
        r.testEvents().assertStatistics(s -> s.started(0).skipped(0));
        assertThat(engineFailure(r))
                .startsWith("configuration error: linkproof.transport=nosuch names no transport on the "
                        + "class path (known: ")
                .contains("tcp");
    }

    /** Read as a system property (or the environment) by whichever process loads the library, this one first. */
    @Test
    void anUnknownGpuRuntimeFailsTheRunRatherThanSkippingEveryGpuPoint() {
        String before = System.getProperty("linkproof.gpu.runtime");
        System.setProperty("linkproof.gpu.runtime", "Bogus");
        try {
            EngineExecutionResults r = run(Constants.PROGRESS, "false");
            r.testEvents().assertStatistics(s -> s.started(0).skipped(0));
            assertThat(engineFailure(r))
                    .isEqualTo("configuration error: linkproof.gpu.runtime=bogus (system property, else "
                            + "$LINKPROOF_GPU_RUNTIME) is not a GPU runtime: expected auto, cuda, hip or none");
        } finally {
            if (before == null) {
                System.clearProperty("linkproof.gpu.runtime");
            } else {
                System.setProperty("linkproof.gpu.runtime", before);
            }
        }
    }

    @Test
    void parseReadsABadValueAsItsDefaultAndSaysWhatWasWrong() {
        LinkproofConfiguration.Parsed p = LinkproofConfiguration.parse(
                new MapParameters(Map.of(Constants.ITERATIONS_SCALE, "abc", Constants.TIMEOUT_PROGRESS, "10s")));
        assertThat(p.config().iterationScale()).isEqualTo(1.0);
        assertThat(p.errors()).containsExactly("linkproof.iterations.scale=abc must be a number in (0, 1000]");
        assertThat(LinkproofConfiguration.parse(new MapParameters(Map.of())).errors())
                .isEmpty();
    }
}
